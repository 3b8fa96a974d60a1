import {useStdout} from 'ink';
import {passthrough} from '../format/terminal-notify.js';
import {sanitizeLine} from '../format/sanitize.js';
import {clipboardRoute, type ClipboardRoute} from '../state/clipboard-route.js';
import {osc52Copy} from './clipboard.js';

export type Say = (text: string, level?: 'info' | 'warn') => void;

/** The tmux setting a copy needs is said in full once a run; after that a refused copy is said briefly. */
let advised = false;

/**
 * Copies text with OSC 52 (over SSH too), wrapped for tmux or screen as the clipboard route says
 * (state/clipboard-route.ts, asked at each copy: a setting changed meanwhile counts at once), and
 * says on the notice line what happened: copied, or what tmux needs.
 */
export function useClipboard(say: Say, route: () => Promise<ClipboardRoute> = clipboardRoute): (text: string, what: string) => void {
	const {stdout} = useStdout();
	return (text, what) => {
		route()
			.catch(() => ({wrap: 'plain' as const, taken: true, advice: null}))
			.then((how) => {
				const sequence = osc52Copy(text);
				stdout.write(how.wrap === 'plain' ? sequence : passthrough(sequence, how.wrap));
				const advice = how.advice && !advised ? how.advice : null;
				if (advice) advised = true;
				if (!how.taken) say(advice ? `Not copied: ${advice}.` : 'Not copied: tmux refused it (set-clipboard).', 'warn');
				else say(`Copied ${what}${advice ? `, ${advice}` : ''}.`, advice ? 'warn' : 'info');
			})
			.catch((error: unknown) => say(`Not copied: ${sanitizeLine(error instanceof Error ? error.message : String(error))}`, 'warn'));
	};
}

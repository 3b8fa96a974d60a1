import {useRef} from 'react';
import {useStdout} from 'ink';
import {passthrough} from '../format/terminal-notify.js';
import {sanitizeLine} from '../format/sanitize.js';
import {normalizeId} from '../wire/ids.js';
import {clipboardRoute, type ClipboardRoute} from '../state/clipboard-route.js';
import type {DashboardController} from '../state/dashboard-types.js';
import {osc52Copy} from './clipboard.js';
import {keyOf} from './keymap.js';
import {type KeyRegistry, useKeyHandlers} from './use-key-dispatch.js';

type Say = (text: string, level?: 'info' | 'warn') => void;

/**
 * `y` copies the selected conversation's id, `Y` its page in the web UI, with OSC 52 (over SSH
 * too), wrapped for tmux or screen as the clipboard route says (state/clipboard-route.ts). When
 * tmux refuses or keeps no copy, the notice says which setting it needs (in full once a run).
 */
export function useCopyKeys(registry: KeyRegistry, controller: DashboardController, selectedKey: string | null | undefined, say: Say, route: () => Promise<ClipboardRoute> = clipboardRoute): void {
	const {stdout} = useStdout();
	const advised = useRef(false);
	const copy = (text: string, what: string) => {
		// Asked of tmux at each copy (a few ms): a setting changed meanwhile counts at once.
		route()
			.catch(() => ({wrap: 'plain' as const, taken: true, advice: null}))
			.then((how) => {
				const sequence = osc52Copy(text);
				stdout.write(how.wrap === 'plain' ? sequence : passthrough(sequence, how.wrap));
				// The setting tmux needs is said once a run; after that a refused copy is said briefly.
				const advice = how.advice && !advised.current ? how.advice : null;
				if (advice) advised.current = true;
				if (!how.taken) say(advice ? `Not copied: ${advice}.` : 'Not copied: tmux refused it (set-clipboard).', 'warn');
				else say(`Copied ${what}${advice ? `, ${advice}` : ''}.`, advice ? 'warn' : 'info');
			})
			.catch((error: unknown) => say(`Not copied: ${sanitizeLine(error instanceof Error ? error.message : String(error))}`, 'warn'));
	};
	const handlers = {
		copyId: () => {
			if (!selectedKey) return say('No conversation selected.');
			const link = controller.conversationLink?.(selectedKey);
			const id = link ? link.slice(link.lastIndexOf('/') + 1) : normalizeId(selectedKey);
			copy(id, `the id ${sanitizeLine(id.slice(0, 8))}… (${keyOf('copyUrl')}: its web page)`);
		},
		copyUrl: () => {
			if (!selectedKey) return say('No conversation selected.');
			const link = controller.conversationLink?.(selectedKey);
			if (!link) return say('That conversation is not in the list (ctrl-r refreshes it).');
			copy(link, `its web page ${sanitizeLine(link)}`);
		},
	};
	// The dashboard's own registry (it is provided below the dashboard, not above it), as a fallback like its other keys.
	useKeyHandlers('conversations', handlers, {registry, fallback: true});
	useKeyHandlers('timeline', handlers, {registry, fallback: true});
}

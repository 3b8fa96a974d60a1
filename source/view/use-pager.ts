import {useApp, useStdout} from 'ink';
import {sanitizeText} from '../format/sanitize.js';
import {repaintAfterHandover, runPager} from '../terminal/pager.js';

type Say = (text: string, level?: 'info' | 'warn') => void;

/**
 * Shows text in `$PAGER` with the terminal handed over (Ink's suspendTerminal: the frame is
 * erased, the child has the screen and the keys, and the dashboard is drawn whole when it exits).
 * The text is sanitized first: a pager run as `less -R` would otherwise play escape sequences from
 * the agent's files or output. What went wrong is said on the notice line.
 */
export function usePager(say: Say): (text: string, what: string) => void {
	const {suspendTerminal} = useApp();
	const {stdout} = useStdout();
	return (text, what) => {
		let result: Awaited<ReturnType<typeof runPager>> = {ok: true};
		suspendTerminal(async () => {
			result = await runPager(sanitizeText(text));
		})
			.then(() => {
				repaintAfterHandover(stdout);
				if (result.ok) say(`Closed the pager (${what}).`);
				else say(`The pager did not open: ${result.reason}`, 'warn');
			})
			.catch((error: unknown) => say(`The pager did not open: ${error instanceof Error ? error.message : String(error)}`, 'warn'));
	};
}

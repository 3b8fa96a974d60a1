import {multiplexerOf} from '../format/terminal-notify.js';
import {runTmux, tmuxPassthrough, type TmuxRunner} from './tmux-passthrough.js';

/**
 * How a copy (OSC 52) gets to a clipboard from where the dashboard runs. Outside a multiplexer
 * the terminal gets the sequence as it is. Inside tmux it depends on tmux's `set-clipboard`
 * (a server option, `external` by default): `on` takes an application's OSC 52 into a tmux
 * buffer and passes it to the terminal; `external` and `off` ignore it (tmux(1), set-clipboard).
 * Then a copy can still reach the terminal through passthrough (`allow-passthrough on`, as the
 * alerts' notifications do), but not tmux's buffer: `advice` says what to set, once.
 */
export type ClipboardRoute = {
	wrap: 'plain' | 'tmux' | 'screen';
	/** False when tmux drops the copy: the notice then says so instead of "Copied". */
	taken: boolean;
	advice: string | null;
};

const setClipboardAdvice = 'add `set -g set-clipboard on` to ~/.tmux.conf';

export async function clipboardRoute(env: NodeJS.ProcessEnv = process.env, tmux: TmuxRunner = runTmux): Promise<ClipboardRoute> {
	const multiplexer = multiplexerOf(env);
	if (multiplexer === 'screen') return {wrap: 'screen', taken: true, advice: null};
	if (multiplexer !== 'tmux') return {wrap: 'plain', taken: true, advice: null};
	let setting = 'unknown';
	try {
		setting = (await tmux(['show-options', '-sv', 'set-clipboard'])).trim() || 'unknown';
	} catch {
		// No tmux to ask (over SSH from inside one): the sequence goes as it is.
	}
	if (setting === 'on' || setting === 'unknown') return {wrap: 'plain', taken: true, advice: null};
	const passthrough = await tmuxPassthrough(env, tmux);
	if (passthrough === 'on') return {wrap: 'tmux', taken: true, advice: `past tmux, not in its buffer (set-clipboard ${setting}): ${setClipboardAdvice}`};
	return {wrap: 'plain', taken: false, advice: `tmux refused the copy (set-clipboard ${setting}): ${setClipboardAdvice}`};
}

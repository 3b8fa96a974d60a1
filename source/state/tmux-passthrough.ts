import {execFile} from 'node:child_process';

/**
 * Whether the tmux the dashboard runs in forwards a wrapped notification to the terminal outside
 * (format/terminal-notify.ts). tmux 3.3 added `allow-passthrough` (a pane option, off by default);
 * before 3.3 there was no such option and passthrough always worked. Asked of tmux itself, for
 * the pane the dashboard runs in, with inherited values (`-A`).
 */

export type PassthroughState = 'on' | 'off' | 'unknown';

export type TmuxRunner = (args: readonly string[]) => Promise<string>;

export const runTmux: TmuxRunner = (args) =>
	new Promise((resolve, reject) => {
		execFile('tmux', [...args], {timeout: 2000, encoding: 'utf8'}, (error, stdout, stderr) => {
			if (error) reject(new Error(String(stderr || error.message).trim()));
			else resolve(stdout);
		});
	});

export async function tmuxPassthrough(env: NodeJS.ProcessEnv = process.env, tmux: TmuxRunner = runTmux): Promise<PassthroughState> {
	const pane = env.TMUX_PANE;
	try {
		const value = (await tmux(['show-options', '-Apv', ...(pane ? ['-t', pane] : []), 'allow-passthrough'])).trim();
		// `all` also forwards from invisible panes.
		return value === 'on' || value === 'all' ? 'on' : 'off';
	} catch (error) {
		// An older tmux does not know the option: it forwards passthrough without being asked.
		if (/invalid option|unknown option/i.test((error as Error).message)) return 'on';
		return 'unknown';
	}
}

/** What the notice line says when the notification cannot get out of tmux. */
export const passthroughAdvice =
	'Desktop notifications inside tmux need passthrough: add `set -g allow-passthrough on` to ~/.tmux.conf (tmux 3.3+), then `tmux source ~/.tmux.conf`; until then only the bell gets through.';

import {spawn} from 'node:child_process';

/**
 * Shows text in the user's pager (`$PAGER`, else `less`), as git does, with the terminal handed
 * over for as long as it runs: Ink's suspendTerminal gives the screen back and redraws it after.
 * The text is sanitized by the caller (the pager shows what it is given, escapes and all, under
 * `less -R`). The pager reads keys from the terminal itself, not from its stdin, which is the text.
 */
export type PagerResult = {ok: true} | {ok: false; reason: string};

export function pagerCommand(env: NodeJS.ProcessEnv = process.env): string {
	const pager = env.PAGER?.trim();
	return pager ? pager : 'less';
}

export function runPager(text: string, env: NodeJS.ProcessEnv = process.env): Promise<PagerResult> {
	const command = pagerCommand(env);
	return new Promise((resolve) => {
		// A shell reads $PAGER as git does: `less -R`, `bat --paging=always`, `more`.
		const child = spawn('/bin/sh', ['-c', command], {stdio: ['pipe', 'inherit', 'inherit'], env: {...env, LESS: env.LESS ?? 'FRX'}});
		child.on('error', (error) => resolve({ok: false, reason: `${command}: ${error.message}`}));
		child.stdin.on('error', () => {
			// The pager quit before reading everything (q on the first page): not a failure.
		});
		child.stdin.end(text);
		child.on('exit', (code, signal) => {
			if (code === 0 || signal === 'SIGPIPE') resolve({ok: true});
			else if (code === 127) resolve({ok: false, reason: `${command}: not found (set PAGER)`});
			else resolve({ok: false, reason: `${command} exited with ${signal ?? code}`});
		});
	});
}

/**
 * After a child had the terminal: the frame differ (diff-stdout.ts) must forget what it believes
 * is on screen, and Ink must lay the frame out again, as after a resize (the child may have left
 * the terminal another size). Both listen for `resize` on the real stdout.
 */
export function repaintAfterHandover(stdout: Pick<NodeJS.EventEmitter, 'emit'>): void {
	stdout.emit('resize');
}

import {execFile, spawn} from 'node:child_process';
import {promisify} from 'node:util';

const execFileAsync = promisify(execFile);

/**
 * Resolves when the pane's screen satisfies `shows`, reading the screen only when the pane has
 * written something. A tmux control-mode client (`-C attach`) reports each piece of output the
 * pane writes (`%output` lines); each report leads to one `capture-pane`, never two at once.
 *
 * Why not read the screen every 10 ms: on this project's 2-core bench machine each read is a
 * fork of this process and a tmux client, and forty of them during a launch took CPU from the
 * process being timed. Launches stamped by the dashboard itself read 413 ms to the frame with the
 * screen read every 10 ms and 371 ms with nothing reading it (medians of 12 alternating launches
 * each). A control client sets no size of its own, so the pane keeps the size it was made with.
 */
export async function waitForScreenOnOutput(socket: string, target: string, shows: (screen: string) => boolean, options: {timeoutMs?: number; onRead?: () => void} = {}): Promise<void> {
	const timeoutMs = options.timeoutMs ?? 10_000;
	const client = spawn('tmux', ['-L', socket, '-C', 'attach', '-t', target], {stdio: ['pipe', 'pipe', 'ignore']});
	try {
		await new Promise<void>((resolve, reject) => {
			let reading = false;
			let again = false;
			let finished = false;
			const finish = (error?: Error) => {
				if (finished) return;
				finished = true;
				clearTimeout(timer);
				if (error) reject(error);
				else resolve();
			};
			const timer = setTimeout(() => finish(new Error(`the screen did not show what was awaited within ${timeoutMs} ms`)), timeoutMs);
			const read = async () => {
				if (reading) {
					again = true;
					return;
				}
				reading = true;
				do {
					again = false;
					options.onRead?.();
					const {stdout} = await execFileAsync('tmux', ['-L', socket, 'capture-pane', '-p', '-t', target]).catch(() => ({stdout: ''}));
					if (shows(stdout)) {
						finish();
						return;
					}
				} while (again && !finished);
				reading = false;
			};
			let pending = '';
			client.stdout.setEncoding('utf8');
			client.stdout.on('data', (chunk: string) => {
				pending += chunk;
				const lines = pending.split('\n');
				pending = lines.pop() ?? '';
				// The reply to the attach (%begin/%end) comes first: output written before the client
				// attached is on the screen by then, so that is read once too.
				if (lines.some((line) => line.startsWith('%output ') || line.startsWith('%end '))) void read();
			});
			client.on('exit', () => finish(new Error('the tmux control client exited before the screen showed what was awaited')));
			client.on('error', (error) => finish(error));
		});
	} finally {
		client.stdin.end();
		client.kill();
	}
}

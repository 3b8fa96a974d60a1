import {spawn, type ChildProcess} from 'node:child_process';

export type ProcessRun = {code: number | null; stdout: string; stderr: string};

/**
 * A child `node` with these arguments, its output collected, waited for without blocking this
 * process (its timeout must be able to fire, and the hang watchdog would take a sync wait for a
 * hang); killed after `timeoutMs`.
 */
export function runNode(args: readonly string[], options: {cwd: string; env?: NodeJS.ProcessEnv; timeoutMs: number}): Promise<ProcessRun> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [...args], {cwd: options.cwd, env: options.env ?? process.env});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
		child.on('error', reject);
		child.on('close', (code) => {
			clearTimeout(timer);
			resolve({code, stdout, stderr});
		});
	});
}

/**
 * Ends a child the test started (SIGKILL) and resolves once it has exited, so a teardown that
 * then removes the child's folders never races the child's own last writes.
 */
export function stopChild(child: ChildProcess): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
	return new Promise((resolve) => {
		child.once('exit', () => resolve());
		child.kill('SIGKILL');
	});
}

import {spawn} from 'node:child_process';

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

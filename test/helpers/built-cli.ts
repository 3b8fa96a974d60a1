import {spawn} from 'node:child_process';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {buildInputsHash, builtFromHash} from '../../scripts/build-inputs.mjs';

/**
 * The CLI as it ships: `dist/bin.js`, the bundle `npm run build` makes. End-to-end and CLI tests
 * run it rather than the sources, so they test the code users get (bundled dependencies,
 * patched Ink). `npm test` builds it first when the sources changed (`pretest`); a test file run
 * on its own against an older bundle fails here with what to do, never on stale code.
 */

export const builtCli = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));

let checked = false;

/** The bundle's path, once checked to be built from the current sources. */
export function freshBuiltCli(): string {
	if (!checked) {
		const built = builtFromHash();
		if (built === null) throw new Error('dist/bin.js is missing: run `npm run build` (npm test builds it first)');
		if (built !== buildInputsHash()) throw new Error('dist/bin.js is older than the sources: run `npm run build` (npm test builds it first)');
		checked = true;
	}
	return builtCli;
}

/** Arguments for `spawn(process.execPath, [...cliArgs(), ...args])`: the built CLI. */
export function cliArgs(): string[] {
	return [freshBuiltCli()];
}

/** The built CLI as a shell command (tmux panes): this Node (with `nodeArgs`), quoted for `sh`. */
export function cliCommand(nodeArgs: readonly string[] = []): string {
	const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;
	return [process.execPath, ...nodeArgs, freshBuiltCli()].map(quote).join(' ');
}

export type CliRun = {code: number | null; stdout: string; stderr: string; exitedAt: number};

/**
 * Runs the built CLI as a script would, with a clean environment: HOME and XDG_CONFIG_HOME under
 * `home`, no CI, no OPENHANDS_* from the developer's shell (only what `env` adds). Killed after
 * `timeoutMs` so a hang fails the test instead of stalling the run.
 */
export function runCli(args: readonly string[], options: {home: string; env?: NodeJS.ProcessEnv; timeoutMs?: number}): Promise<CliRun> {
	const env: NodeJS.ProcessEnv = {...process.env, HOME: options.home, XDG_CONFIG_HOME: join(options.home, 'xdg')};
	delete env.CI;
	delete env.OPENHANDS_BASE_URL;
	delete env.OPENHANDS_API_KEY;
	Object.assign(env, options.env);
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [...cliArgs(), ...args], {cwd: process.cwd(), env});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
		child.on('error', reject);
		child.on('close', (code) => {
			clearTimeout(timer);
			resolve({code, stdout, stderr, exitedAt: Date.now()});
		});
	});
}

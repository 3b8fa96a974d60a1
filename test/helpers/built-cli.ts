import {spawn, type ChildProcessWithoutNullStreams} from 'node:child_process';
import {mkdirSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {buildInputsHash, builtFromHash} from '../../scripts/build-inputs.mjs';

/**
 * The CLI as it ships: `dist/bin.cjs`, the bundle `npm run build` makes. End-to-end and CLI tests
 * run it rather than the sources, so they test the code users get (bundled dependencies,
 * patched Ink). `npm test` builds it first when the sources changed (`pretest`); a test file run
 * on its own against an older bundle fails here with what to do, never on stale code.
 */

export const builtCli = fileURLToPath(new URL('../../dist/bin.cjs', import.meta.url));

let checked = false;

/** The bundle's path, once checked to be built from the current sources. */
export function freshBuiltCli(): string {
	if (!checked) {
		const built = builtFromHash();
		if (built === null) throw new Error('dist/bin.cjs is missing: run `npm run build` (npm test builds it first)');
		if (built !== buildInputsHash()) throw new Error('dist/bin.cjs is older than the sources: run `npm run build` (npm test builds it first)');
		checked = true;
	}
	return builtCli;
}

/**
 * Arguments for `spawn(process.execPath, [...cliArgs(), ...args])`: the built CLI. An `env` of the
 * test's own carries `XDG_CACHE_HOME: testCacheHome()` (or is `cliEnv`'s): see testCacheHome.
 */
export function cliArgs(): string[] {
	return [freshBuiltCli()];
}

/**
 * The built CLI as a shell command (tmux panes): the tests' cache folder (testCacheHome) and a
 * state folder in it, then
 * this Node (with `nodeArgs`) and the CLI, quoted for `sh`. It starts with an assignment, so it
 * goes at the start of a command or after `env` and its other assignments.
 */
export function cliCommand(nodeArgs: readonly string[] = []): string {
	const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;
	// The shared request budget's ledgers (one per simulator port) in the tests' folder, never the developer's state.
	return [`XDG_CACHE_HOME=${quote(testCacheHome())}`, `XDG_STATE_HOME=${quote(join(testCacheHome(), 'state'))}`, ...[process.execPath, ...nodeArgs, freshBuiltCli()].map(quote)].join(' ');
}

export type CliRun<Stdout extends string | Buffer = string> = {code: number | null; stdout: Stdout; stderr: string; exitedAt: number};

export type CliOptions = {
	home: string;
	env?: NodeJS.ProcessEnv;
	timeoutMs?: number;
	/** Called with all of stdout so far, as text, each time more arrives (to act while it runs). */
	onStdout?: (stdout: string) => void;
	/** `'buffer'`: stdout as the bytes the CLI wrote (binary output, byte-for-byte checks). */
	encoding?: 'utf8' | 'buffer';
};

/**
 * One cache folder for every CLI the tests run, private as the CLI requires of its compile cache
 * (source/config/compile-cache.ts). Under each test's new HOME, every run would compile the
 * bundle again and write its cache there, and a CLI still exiting (Node writes the cache at
 * exit) would be writing into the HOME its test is removing: `rmSync` then fails with ENOTEMPTY
 * (seen in CI on Node 22). test/suite-cache-folder.test.ts checks every launch uses it.
 */
let cacheHome: string | undefined;
export function testCacheHome(): string {
	if (cacheHome === undefined) {
		cacheHome = join(tmpdir(), `agent-tui-test-cache-${process.getuid?.() ?? 'user'}`);
		mkdirSync(cacheHome, {recursive: true, mode: 0o700});
	}
	return cacheHome;
}

/**
 * The environment a script gives the CLI: HOME, XDG_CONFIG_HOME and XDG_STATE_HOME under `home` (the cache: above), no CI, no
 * OPENHANDS_* and no NODE_OPTIONS from the developer's shell (only what `env` adds).
 */
export function cliEnv(home: string, env?: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
	// The shared request budget (XDG_STATE_HOME) under `home` too: never the developer's.
	const out: NodeJS.ProcessEnv = {...process.env, HOME: home, XDG_CONFIG_HOME: join(home, 'xdg'), XDG_CACHE_HOME: testCacheHome(), XDG_STATE_HOME: join(home, 'state')};
	for (const name of Object.keys(out)) if (name.startsWith('OPENHANDS_') || name === 'CI' || name === 'NODE_OPTIONS') delete out[name];
	Object.assign(out, env);
	return out;
}

/**
 * Runs the built CLI as a script would, with a clean environment (`cliEnv`). Killed after
 * `timeoutMs` so a hang fails the test instead of stalling the run.
 */
export function runCli(args: readonly string[], options: CliOptions & {encoding: 'buffer'}): Promise<CliRun<Buffer>>;
export function runCli(args: readonly string[], options: CliOptions & {encoding?: 'utf8'}): Promise<CliRun>;
export function runCli(args: readonly string[], options: CliOptions): Promise<CliRun<string | Buffer>> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [...cliArgs(), ...args], {cwd: process.cwd(), env: cliEnv(options.home, options.env)});
		const bytes: Buffer[] = [];
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk: Buffer) => {
			if (options.encoding === 'buffer') bytes.push(chunk);
			stdout += chunk.toString();
			options.onStdout?.(stdout);
		});
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
		child.on('error', reject);
		child.on('close', (code) => {
			clearTimeout(timer);
			resolve({code, stdout: options.encoding === 'buffer' ? Buffer.concat(bytes) : stdout, stderr, exitedAt: Date.now()});
		});
	});
}

/** A CLI the test leaves running (`watch`, `--follow`): its output so far and its exit code. */
export type RunningCli = {child: ChildProcessWithoutNullStreams; stdout: string; stderr: string; exited: Promise<number | null>; detail: () => string};

/**
 * Starts the built CLI with `cliEnv` and collects its output as it runs; the test stops it
 * (`stopChild` from run-process.ts in its after-hook, before removing `home`).
 */
export function startCli(args: readonly string[], options: Pick<CliOptions, 'home' | 'env'>): RunningCli {
	const child = spawn(process.execPath, [...cliArgs(), ...args], {cwd: process.cwd(), env: cliEnv(options.home, options.env)});
	const running: RunningCli = {
		child,
		stdout: '',
		stderr: '',
		exited: new Promise((resolve) => child.on('close', resolve)),
		detail: () => `stdout: ${running.stdout}\nstderr: ${running.stderr}`,
	};
	child.stdout.on('data', (chunk: Buffer) => (running.stdout += chunk.toString()));
	child.stderr.on('data', (chunk: Buffer) => (running.stderr += chunk.toString()));
	return running;
}

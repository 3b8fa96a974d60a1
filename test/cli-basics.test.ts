import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {mkdtempSync, rmSync} from 'node:fs';
import {createServer} from 'node:net';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {after, before, describe, test} from 'node:test';
import {startSimulator, type Simulator} from '../source/simulator/server.js';
import {cliArgs, cliEnv, freshBuiltCli, testCacheHome} from './helpers/built-cli.js';

/**
 * The CLI as a user runs it (a real process through source/bin.ts): help, version, usage
 * errors, the refused --api-key flag, failures with their exit codes and clean messages, and
 * what a command does with nothing configured (exit 2) or with --demo (the simulator).
 */

const home = mkdtempSync(join(tmpdir(), 'agent-tui-cli-'));
after(() => rmSync(home, {recursive: true, force: true}));

type Run = {code: number | null; stdout: string; stderr: string};

/** Runs the CLI with no configuration but what `env` adds (HOME is an empty directory). */
function cli(args: string[], env: Record<string, string> = {}, timeoutMs = 30_000): Promise<Run> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [...cliArgs(), ...args], {cwd: process.cwd(), env: cliEnv(home, env)});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
		child.on('error', reject);
		child.on('close', (code) => {
			clearTimeout(timer);
			resolve({code, stdout, stderr});
		});
	});
}

function oneCleanLine(stderr: string): void {
	const lines = stderr.trim().split('\n');
	assert.equal(lines.length, 1, `one line expected, got:\n${stderr}`);
	assert.match(lines[0]!, /^agent-tui: /);
	assert.doesNotMatch(stderr, /\n\s+at /, 'no stack trace');
}

let sim: Simulator;
before(async () => {
	sim = await startSimulator({port: 0, tickMs: 0, conversations: 5, apiKey: 'right-key-0123456789'});
});
after(() => sim.close());

describe('agent-tui', {concurrency: true}, () => {
	test('--help lists every command, the main flags and the exit codes', async () => {
		const run = await cli(['--help']);
		assert.equal(run.code, 0);
		for (const word of ['conversations', 'sandboxes', 'specs', 'pause', 'resume', 'events', 'start', 'simulator']) {
			assert.match(run.stdout, new RegExp(`agent-tui ${word}`));
		}
		for (const flag of ['--status', '--json', '--kind', '--source', '--body', '--desc', '--follow', '--message', '--repo', '--plugin', '--wait', '--port', '--seed', '--conversations', '--base-url', '--profile', '--demo', '--api-key-file', '--api-key-stdin', '--no-color', '--version']) {
			assert.ok(run.stdout.includes(flag), `help mentions ${flag}`);
		}
		for (const code of [0, 2, 3, 4, 5, 6]) assert.match(run.stdout, new RegExp(`^\\s+${code}  \\S`, 'm'));
	});

	test('the bin sets NODE_ENV=production and maps NO_COLOR / --no-color to FORCE_COLOR=0 before loading the CLI', async () => {
		// Imports the bin in-process (a usage error keeps it from exiting) and reports the environment after.
		const probe = (extraArgs: string[], env: Record<string, string>) =>
			new Promise<{force: string | null; nodeEnv: string | null}>((resolve, reject) => {
				const script = `process.argv = [process.argv[0], 'agent-tui', 'no-such-command', ...${JSON.stringify(extraArgs)}];
					await import(${JSON.stringify(pathToFileURL(freshBuiltCli()).href)});
					process.stdout.write(JSON.stringify({force: process.env.FORCE_COLOR ?? null, nodeEnv: process.env.NODE_ENV ?? null}));`;
				const base: NodeJS.ProcessEnv = {...process.env, HOME: home, XDG_CACHE_HOME: testCacheHome(), ...env};
				for (const name of ['NO_COLOR', 'FORCE_COLOR', 'NODE_ENV', 'CI']) if (!(name in env)) delete base[name];
				const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {cwd: process.cwd(), env: base});
				let out = '';
				child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
				child.on('error', reject);
				child.on('close', () => resolve(JSON.parse(out) as {force: string | null; nodeEnv: string | null}));
			});
		const [noColor, emptyNoColor, flag] = await Promise.all([
			probe([], {NO_COLOR: '1'}),
			probe([], {NO_COLOR: ''}),
			probe(['--no-color'], {NODE_ENV: 'test'}),
		]);
		assert.deepEqual(noColor, {force: '0', nodeEnv: 'production'});
		assert.deepEqual(emptyNoColor, {force: null, nodeEnv: 'production'}, 'an empty NO_COLOR does not count');
		assert.deepEqual(flag, {force: '0', nodeEnv: 'test'}, 'an explicit NODE_ENV is kept');
	});

	test('--version prints the package version', async () => {
		const run = await cli(['--version']);
		assert.equal(run.code, 0);
		assert.equal(run.stdout.trim(), '0.1.0');
	});

	test('on a Node older than 22.19 (engines) it says which Node it needs and exits 2, not a TypeError from a missing API', async () => {
		// This Node, made to say it is 20.20.2 before the bin runs: what a global install on Node 20 meets.
		const older = `--import=data:text/javascript,Object.defineProperty(process.versions,'node',{value:'20.20.2'})`;
		for (const args of [['--demo'], ['conversations', '--demo']]) {
			const run = await cli(args, {NODE_OPTIONS: older});
			assert.equal(run.code, 2, run.stderr);
			oneCleanLine(run.stderr);
			assert.match(run.stderr, /^agent-tui: needs Node\.js 22\.19 or newer \(22, 24 or 26\); this is 20\.20\.2/);
		}
		const current = await cli(['--version']);
		assert.equal(current.code, 0, 'the Node running the suite is one it takes');
	});

	test('--api-key VALUE is refused with exit 2 and a reason, without echoing the key', async () => {
		const run = await cli(['conversations', '--api-key', 'sk-typed-on-the-command-line', '--base-url', sim.baseUrl]);
		assert.equal(run.code, 2);
		oneCleanLine(run.stderr);
		assert.match(run.stderr, /shell history/);
		assert.doesNotMatch(run.stderr + run.stdout, /sk-typed-on-the-command-line/);
	});

	test('usage errors: unknown command, unknown flag, misplaced flag, missing argument', async () => {
		const runs = await Promise.all([cli(['conversashuns']), cli(['conversations', '--frobnicate']), cli(['sandboxes', '--follow']), cli(['pause'])]);
		for (const run of runs) {
			assert.equal(run.code, 2, run.stderr);
			oneCleanLine(run.stderr);
		}
		assert.match(runs[1]!.stderr, /--frobnicate/);
		assert.match(runs[2]!.stderr, /--follow cannot be used with sandboxes/);
		assert.match(runs[3]!.stderr, /<sandbox-id>/);
	});

	test('a wrong key: exit 3, and the key is not printed', async () => {
		const run = await cli(['conversations', '--base-url', sim.baseUrl], {OPENHANDS_API_KEY: 'wrong-key-SECRET-42'});
		assert.equal(run.code, 3, run.stderr);
		oneCleanLine(run.stderr);
		assert.match(run.stderr, /key rejected/);
		assert.doesNotMatch(run.stderr + run.stdout, /wrong-key-SECRET-42/);
	});

	test('an unknown conversation: exit 4', async () => {
		const run = await cli(['events', '0123456789abcdef0123456789abcdef', '--base-url', sim.baseUrl], {OPENHANDS_API_KEY: sim.apiKey});
		assert.equal(run.code, 4, run.stderr);
		oneCleanLine(run.stderr);
		assert.match(run.stderr, /no conversation/);
	});

	test('a closed port: exit 5', async () => {
		const port = await closedPort();
		const run = await cli(['sandboxes', '--base-url', `http://127.0.0.1:${port}`], {OPENHANDS_API_KEY: 'k-closed-port'});
		assert.equal(run.code, 5, run.stderr);
		assert.match(run.stderr.trim().split('\n').at(-1)!, /^agent-tui: .*(connection refused|cannot reach)/);
		assert.doesNotMatch(run.stderr, /\n\s+at /);
	});

	test('a base URL that serves the web app: exit 5, "not the API"', async () => {
		const run = await cli(['conversations', '--base-url', `${sim.baseUrl}/web`], {OPENHANDS_API_KEY: sim.apiKey});
		assert.equal(run.code, 5, run.stderr);
		oneCleanLine(run.stderr);
		assert.match(run.stderr, /not the API/);
	});

	test('nothing configured: a command acts on nothing, exits 2 and says how to configure a server', async () => {
		// A cron job whose environment lost OPENHANDS_BASE_URL: no invented data, no invented success.
		for (const args of [['conversations', '--json'], ['pause', 'sb-0e970dc84fdb'], ['sandboxes']]) {
			const run = await cli(args);
			assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
			assert.equal(run.stdout, '', `${args.join(' ')} printed nothing`);
			oneCleanLine(run.stderr);
			assert.match(run.stderr, /^agent-tui: no server configured: set OPENHANDS_BASE_URL .*--base-url URL.*--profile NAME.*--demo/);
		}
	});

	test('--demo: the command runs on the embedded simulator on purpose, and says so', async () => {
		const run = await cli(['conversations', '--json', '--demo']);
		assert.equal(run.code, 0, run.stderr);
		assert.equal(run.stderr.trim(), 'agent-tui: using the embedded demo simulator (--demo): nothing below is real');
		const rows = JSON.parse(run.stdout) as Array<{id: string}>;
		assert.ok(Array.isArray(rows) && rows.length > 0);
	});
});

/** A port nothing listens on: bind one, note it, close it. */
async function closedPort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const {port} = server.address() as {port: number};
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}

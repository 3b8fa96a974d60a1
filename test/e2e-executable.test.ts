import {after, describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {spawn, spawnSync} from 'node:child_process';
import {copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {buildInputsHash} from '../scripts/build-inputs.mjs';
import {runCli} from './helpers/built-cli.js';
import {eventually} from './helpers/eventually.js';
import {stopChild} from './helpers/run-process.js';
import {shellQuote, startTmux, tmuxAvailable} from './helpers/tmux.js';

/**
 * The single executable (`npm run package`: dist/agent-tui-linux-x64) as someone without Node
 * meets it: copied alone into an empty folder and run with a PATH that has no `node`. Its demo
 * draws in tmux and `q` exits 0; its `simulator` serves, and its `conversations --json` against
 * that simulator prints what the npm package's command prints. Skipped when the executable was
 * not built or older than the sources, except in CI, which builds it (.ci/run) and must not pass
 * without it.
 */

const built = fileURLToPath(new URL('../dist/agent-tui-linux-x64', import.meta.url));
const inCi = process.env.CI === 'true' || process.env.CI === '1';
const stamp = existsSync(`${built}.build-inputs`) ? readFileSync(`${built}.build-inputs`, 'utf8').trim() : null;
const problem = !existsSync(built) ? 'dist/agent-tui-linux-x64 is missing' : stamp !== buildInputsHash() ? 'dist/agent-tui-linux-x64 is older than the sources' : null;
if (problem && inCi) throw new Error(`${problem}: CI builds it with \`npm run package\` before the tests`);
const skip = problem ? `${problem} (npm run package)` : false;

const home = mkdtempSync(join(tmpdir(), 'agent-tui-executable-'));
after(() => rmSync(home, {recursive: true, force: true}));
const folder = join(home, 'empty');
const bin = join(home, 'bin');
const executable = join(folder, 'agent-tui');

/** Only tmux and sh on PATH: the programs the test itself needs there. */
function pathWithoutNode(): string {
	mkdirSync(bin, {recursive: true});
	for (const tool of ['tmux', 'sh']) {
		const found = spawnSync('sh', ['-c', `command -v ${tool}`], {encoding: 'utf8'}).stdout.trim();
		if (found) symlinkSync(found, join(bin, tool));
	}
	return bin;
}

/** The environment of a host without Node: nothing inherited but the terminal's type. */
const bareEnv = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({PATH: bin, HOME: home, XDG_CONFIG_HOME: join(home, 'xdg'), TERM: process.env.TERM ?? 'xterm-256color', LANG: 'C.UTF-8', ...extra});

function run(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<{code: number | null; stdout: string; stderr: string}> {
	return new Promise((resolve, reject) => {
		const child = spawn(executable, [...args], {cwd: folder, env: bareEnv(env)});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
		child.on('error', reject);
		child.on('close', (code) => {
			clearTimeout(timer);
			resolve({code, stdout, stderr});
		});
	});
}

describe('the single executable, alone in a folder, with no node on PATH', {skip, timeout: 120_000}, () => {
	test('the folder holds only the executable, and no node can be found on PATH', () => {
		mkdirSync(folder, {recursive: true});
		copyFileSync(built, executable);
		pathWithoutNode();
		assert.deepEqual(readdirSync(folder), ['agent-tui']);
		assert.notEqual(spawnSync('sh', ['-c', 'command -v node'], {env: bareEnv()}).status, 0, 'node on the bare PATH');
		assert.equal(spawnSync('sh', ['-c', 'command -v tmux'], {env: bareEnv()}).status, tmuxAvailable() ? 0 : 1, 'tmux on it');
	});

	test('the demo draws its first frame at 80x24 and q exits 0', {skip: tmuxAvailable() ? false : 'tmux is not installed'}, async () => {
		const env = Object.entries(bareEnv())
			.map(([name, value]) => `${name}=${shellQuote(value ?? '')}`)
			.join(' ');
		// The exit code as the shell sees it: tmux's own pane status can read empty for a moment after the pane dies.
		const tmux = startTmux({columns: 80, rows: 24, command: `sh -c ${shellQuote(`env -i ${env} ./agent-tui --demo; printf 'EXIT=%s\\n' $?; sleep 30`)}`, cwd: folder});
		try {
			await tmux.waitFor((screen) => /Conversations \(\d+\)/.test(screen) && screen.includes('DEMO'), 'the demo dashboard', 30_000);
			tmux.send('q');
			const screen = await tmux.waitFor((text) => /EXIT=\d+/.test(text), 'the dashboard exits', 15_000);
			assert.match(screen, /EXIT=0\b/);
		} finally {
			tmux.kill();
		}
	});

	test('conversations --json against its own simulator prints what the npm package prints', async (t) => {
		const simulator = spawn(executable, ['simulator', '--port', '0', '--seed', '3', '--conversations', '12'], {cwd: folder, env: bareEnv()});
		t.after(() => stopChild(simulator));
		let said = '';
		simulator.stdout.on('data', (chunk: Buffer) => (said += chunk.toString()));
		const listening = await eventually(() => /listening on (\S+)\nAPI key: (\S+)\n/.exec(said), 'the simulator listening', {until: (match) => match !== null, timeoutMs: 30_000});
		const [, baseUrl = '', apiKey = ''] = listening!;
		const fromExecutable = await run(['conversations', '--json', '--base-url', baseUrl], {OPENHANDS_API_KEY: apiKey});
		const fromPackage = await runCli(['conversations', '--json', '--base-url', baseUrl], {home, env: {OPENHANDS_API_KEY: apiKey}});
		assert.equal(fromExecutable.code, 0, fromExecutable.stderr);
		assert.equal(fromPackage.code, 0, fromPackage.stderr);
		const rows = (text: string) => (JSON.parse(text) as Array<{id: string; title: string}>).map(({id, title}) => `${id} ${title}`).sort();
		assert.ok(rows(fromExecutable.stdout).length >= 12, fromExecutable.stdout);
		assert.deepEqual(rows(fromExecutable.stdout), rows(fromPackage.stdout));
		// And the same when the server is missing: the same message, the same exit code.
		const [noServer, noServerPackage] = [await run(['conversations']), await runCli(['conversations'], {home})];
		assert.equal(noServer.code, noServerPackage.code);
		assert.equal(noServer.stderr, noServerPackage.stderr);
	});

	test('--version and --help print what the npm package prints', async () => {
		for (const args of [['--version'], ['--help']]) {
			const [fromExecutable, fromPackage] = [await run(args), await runCli(args, {home})];
			assert.equal(fromExecutable.code, 0, fromExecutable.stderr);
			assert.equal(fromExecutable.stdout, fromPackage.stdout, args.join(' '));
			assert.match(fromExecutable.stdout, /\S/);
		}
	});
});

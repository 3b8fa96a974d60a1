import assert from 'node:assert/strict';
import {mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {runNode} from './helpers/run-process.js';

/**
 * A hang is a failure within seconds, in every test file, including files added later: the npm
 * test scripts give every test a timeout (`--test-timeout`) and load the hang watchdog, which
 * ends a file whose event loop is blocked (no timer of its own can fire then) and a file that
 * something left open keeps alive after its last test. A test that waits for a
 * child synchronously blocks its own loop, so children that take time run with `spawn`.
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {scripts: Record<string, string>}).scripts;

test('the test scripts give every test a timeout, end timed-out files and watch for a blocked event loop', {timeout: 10_000}, () => {
	for (const name of ['test', 'test:file']) {
		const script = scripts[name] ?? '';
		assert.match(script, /--test-timeout=\d+/, `${name}: --test-timeout`);
		const timeout = Number(/--test-timeout=(\d+)/.exec(script)?.[1]);
		assert.ok(timeout > 0 && timeout <= 60_000, `${name}: a timeout of at most a minute (${timeout} ms)`);
		// Never --test-force-exit: it loses verdicts (nodejs/node#64833); the watchdog ends a file left alive instead.
		assert.doesNotMatch(script, /--test-force-exit/, `${name}: no --test-force-exit`);
		assert.match(script, /--import \.\/test\/helpers\/hang-watchdog\.ts/, `${name}: the hang watchdog`);
	}
});

test('no test waits for a Node child synchronously (the watchdog would take it for a hang)', {timeout: 10_000}, () => {
	const offenders: string[] = [];
	for (const name of readdirSync(join(root, 'test'), {recursive: true}) as string[]) {
		if (!/\.(ts|tsx)$/.test(name)) continue;
		const text = readFileSync(join(root, 'test', name), 'utf8');
		for (const [index, line] of text.split('\n').entries()) {
			if (/(spawnSync|execFileSync|execSync)\(\s*process\.execPath/.test(line)) offenders.push(`test/${name}:${index + 1}`);
		}
	}
	assert.deepEqual(offenders, []);
});

/** `npm test`'s node flags, for running the runner on files of our own. */
function runnerFlags(): string[] {
	const words = (scripts['test'] ?? '').split(/\s+/);
	return words.slice(1, words.indexOf('--test') + 1).concat(words.filter((word) => word.startsWith('--test-') && word !== '--test'));
}

function runRunner(files: string[], env: Record<string, string> = {}): Promise<{code: number | null; output: string}> {
	// A runner of its own, not a child of this file's (NODE_TEST_CONTEXT would make it one).
	const {NODE_TEST_CONTEXT: _context, ...inherited} = process.env;
	return runNode([...runnerFlags(), ...files], {cwd: root, env: {...inherited, ...env}, timeoutMs: 50_000}).then(({code, stdout, stderr}) => ({code, output: stdout + stderr}));
}

test('every verdict of every file reaches the summary: 4 files of 60 quick tests run in parallel count 240 (with --test-force-exit, 160 to 192 here)', {timeout: 60_000}, async (t) => {
	const dir = mkdtempSync(join(tmpdir(), 'agent-tui-runner-'));
	t.after(() => rmSync(dir, {recursive: true, force: true}));
	const files = [1, 2, 3, 4].map((n) => join(dir, `quick-${n}.test.ts`));
	for (const file of files) writeFileSync(file, "import {test} from 'node:test';\nfor (let i = 0; i < 60; i++) test(`t${i}`, () => {});\n");
	for (let round = 0; round < 2; round++) {
		const {code, output} = await runRunner(files);
		assert.equal(code, 0, output);
		assert.match(output, /^# tests 240$/m, output.split('\n').filter((line) => line.startsWith('# ')).join('\n'));
	}
});

test('a file that something left open is ended after its last test, its verdicts kept', {timeout: 60_000}, async (t) => {
	const dir = mkdtempSync(join(tmpdir(), 'agent-tui-runner-'));
	t.after(() => rmSync(dir, {recursive: true, force: true}));
	const file = join(dir, 'leftover.test.ts');
	writeFileSync(file, "import {test} from 'node:test';\ntest('first', () => {});\ntest('leaves an interval running', () => {\n\tsetInterval(() => {}, 1000);\n});\n");
	const {code, output} = await runRunner([file], {AGENT_TUI_TEST_LEFTOVER_MS: '300'});
	assert.equal(code, 0, output);
	assert.match(output, /^# pass 2$/m, output);
	assert.match(output, /has finished its tests but something it left open .* keeps it alive: ending it/, output);
});

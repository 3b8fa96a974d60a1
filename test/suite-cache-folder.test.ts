import assert from 'node:assert/strict';
import {existsSync, mkdtempSync, readdirSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {cliCommand, runCli, testCacheHome} from './helpers/built-cli.js';

/**
 * Every CLI the tests launch keeps Node's compile cache in the tests' one cache folder
 * (helpers/built-cli.ts, testCacheHome), never under the HOME a test made for it: Node writes
 * that cache as the CLI exits, so a test removing its HOME while the CLI was still exiting
 * failed with ENOTEMPTY (CI, Node 22, triage-watch-cause).
 */

const root = fileURLToPath(new URL('..', import.meta.url));

/** The text of the call opened at `start` (an index just past its `(`), to its matching `)`. */
function callText(text: string, start: number): string {
	let depth = 1;
	for (let index = start; index < text.length; index++) {
		if (text[index] === '(') depth++;
		if (text[index] === ')' && --depth === 0) return text.slice(start, index);
	}
	return text.slice(start);
}

/** Each `spawn(process.execPath, [...cliArgs()…` in `text` whose env is neither cliEnv's nor names the tests' cache. */
function launchesWithoutTheCache(text: string): number[] {
	const lines: number[] = [];
	for (const match of text.matchAll(/spawn\(process\.execPath, \[\.\.\.cliArgs\(\)/g)) {
		const call = callText(text, match.index + 'spawn('.length);
		// No env: the runner's own environment and HOME, which no test removes.
		if (!/\benv\b/.test(call)) continue;
		if (/cliEnv\(|XDG_CACHE_HOME: testCacheHome\(\)/.test(call)) continue;
		lines.push(text.slice(0, match.index).split('\n').length);
	}
	return lines;
}

test('the rule sees a launch with an env of its own and no cache folder, and passes one with it', () => {
	const without = "const child = spawn(process.execPath, [...cliArgs(), 'watch'], {\n\tenv: {PATH: process.env.PATH, HOME: home},\n});";
	assert.deepEqual(launchesWithoutTheCache(without), [1]);
	assert.deepEqual(launchesWithoutTheCache(without.replace('HOME: home', 'HOME: home, XDG_CACHE_HOME: testCacheHome()')), []);
	assert.deepEqual(launchesWithoutTheCache("spawn(process.execPath, [...cliArgs(), ...args], {env: cliEnv(home, extra(x))});"), []);
	assert.deepEqual(launchesWithoutTheCache("spawn(process.execPath, [...cliArgs(), 'simulator'], {stdio: ['ignore', 'pipe', 'pipe']});"), []);
});

test('every test that launches the built CLI with an env of its own gives it the tests\' cache folder', {timeout: 10_000}, () => {
	const offenders: string[] = [];
	let launches = 0;
	for (const name of readdirSync(join(root, 'test'), {recursive: true}) as string[]) {
		if (!/\.(ts|tsx)$/.test(name) || name.endsWith('suite-cache-folder.test.ts')) continue;
		const text = readFileSync(join(root, 'test', name), 'utf8');
		launches += text.match(/spawn\(process\.execPath, \[\.\.\.cliArgs\(\)/g)?.length ?? 0;
		for (const line of launchesWithoutTheCache(text)) offenders.push(`test/${name}:${line}`);
	}
	// runCli and startCli (helpers/built-cli.ts), cli-basics, checklist-data, e2e-fleet's simulator.
	assert.ok(launches >= 5, `the launches were found (${launches})`);
	assert.deepEqual(offenders, []);
});

test('a CLI run with a HOME of its own writes its compile cache to the tests\' folder, nothing under that HOME', {timeout: 60_000}, async (t) => {
	const home = mkdtempSync(join(tmpdir(), 'agent-tui-cache-rule-'));
	t.after(() => rmSync(home, {recursive: true, force: true}));
	const run = await runCli(['--demo', 'conversations'], {home});
	assert.equal(run.code, 0, run.stderr);
	assert.ok(readdirSync(join(testCacheHome(), 'agent-tui', 'node-compile-cache')).length > 0, 'the cache is in the tests\' folder');
	assert.equal(existsSync(join(home, '.cache')), false, 'nothing cached under the test\'s HOME');
	// The shell form used in tmux panes names the same folder.
	assert.ok(cliCommand().startsWith(`XDG_CACHE_HOME='${testCacheHome()}' `), cliCommand());
});

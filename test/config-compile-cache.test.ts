import {test} from 'node:test';
import assert from 'node:assert/strict';
import {chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {chooseCompileCache, compileCacheDir} from '../source/config/compile-cache.js';
import {runCli} from './helpers/built-cli.js';

/**
 * Node's compile cache holds code that V8 runs; it is kept only where no other account can write
 * (source/config/compile-cache.ts), never in the temporary folder every account shares.
 */

const uid = process.getuid!();

function scratch(t: {after: (fn: () => void) => void}): string {
	const dir = mkdtempSync(join(tmpdir(), 'agent-tui-cc-'));
	t.after(() => rmSync(dir, {recursive: true, force: true}));
	return dir;
}

test('the cache folder is made under XDG_CACHE_HOME, private (0700), and chosen', (t) => {
	const base = scratch(t);
	const choice = chooseCompileCache({XDG_CACHE_HOME: base}, uid);
	const directory = join(base, 'agent-tui', 'node-compile-cache');
	assert.deepEqual(choice, {enable: true, directory});
	assert.equal(statSync(directory).mode & 0o777, 0o700);
	// HOME's .cache when XDG_CACHE_HOME is unset or relative (the XDG spec ignores a relative one).
	assert.equal(compileCacheDir({HOME: '/home/ana', XDG_CACHE_HOME: 'rel'}), '/home/ana/.cache/agent-tui/node-compile-cache');
	assert.equal(compileCacheDir({}), undefined);
	assert.equal(chooseCompileCache({}, uid).enable, false);
});

test('a cache folder other accounts can write to, or swap, is not used', (t) => {
	const base = scratch(t);
	const directory = join(base, 'agent-tui', 'node-compile-cache');
	mkdirSync(directory, {recursive: true, mode: 0o700});
	assert.equal(chooseCompileCache({XDG_CACHE_HOME: base}, uid).enable, true);
	chmodSync(directory, 0o777);
	assert.deepEqual(chooseCompileCache({XDG_CACHE_HOME: base}, uid), {enable: false, reason: `${directory} is open to other accounts`});
	chmodSync(directory, 0o700);
	chmodSync(join(base, 'agent-tui'), 0o777);
	assert.deepEqual(chooseCompileCache({XDG_CACHE_HOME: base}, uid), {enable: false, reason: `${join(base, 'agent-tui')} is writable by other accounts`});
	chmodSync(join(base, 'agent-tui'), 0o700);
	chmodSync(base, 0o777);
	assert.equal(chooseCompileCache({XDG_CACHE_HOME: base}, uid).enable, false, 'the folder above, writable by all');
	chmodSync(base, 0o1777);
	assert.equal(chooseCompileCache({XDG_CACHE_HOME: base}, uid).enable, true, 'sticky, as /tmp is: others cannot rename what is ours');
	chmodSync(base, 0o700);
	// Another account's folder (the test runs as root, which can give it away).
	if (uid === 0) {
		chownSync(directory, 12_345, 12_345);
		assert.deepEqual(chooseCompileCache({XDG_CACHE_HOME: base}, uid), {enable: false, reason: `${directory} belongs to another account`});
	}
	// A link to somewhere else.
	const other = scratch(t);
	const linked = join(base, 'linked');
	mkdirSync(join(linked, 'agent-tui'), {recursive: true, mode: 0o700});
	symlinkSync(other, join(linked, 'agent-tui', 'node-compile-cache'));
	assert.match((chooseCompileCache({XDG_CACHE_HOME: linked}, uid) as {reason: string}).reason, /is not a folder of its own/);
});

test('NODE_COMPILE_CACHE is left to Node, NODE_DISABLE_COMPILE_CACHE turns it off, no POSIX owner keeps Node’s default', () => {
	assert.deepEqual(chooseCompileCache({NODE_COMPILE_CACHE: '/somewhere', XDG_CACHE_HOME: '/nonexistent'}, uid), {enable: true, directory: undefined});
	assert.equal(chooseCompileCache({NODE_DISABLE_COMPILE_CACHE: '1', XDG_CACHE_HOME: '/nonexistent'}, uid).enable, false);
	assert.deepEqual(chooseCompileCache({XDG_CACHE_HOME: '/nonexistent'}, null), {enable: true, directory: undefined});
});

test('the built CLI keeps its compile cache in the private folder, and none in a folder others can write to', {timeout: 60_000}, async (t) => {
	const home = scratch(t);
	const cache = join(home, 'cache');
	const run = await runCli(['--demo', 'conversations'], {home, env: {XDG_CACHE_HOME: cache}});
	assert.equal(run.code, 0, run.stderr);
	const directory = join(cache, 'agent-tui', 'node-compile-cache');
	assert.equal(statSync(directory).mode & 0o777, 0o700);
	const written = readdirSync(directory, {recursive: true});
	assert.ok(written.length >= 2, `Node's cache of the bundle in ${directory}: ${written.join(', ')}`);
	// The same folder opened to every account: the CLI runs as well, and writes nothing there.
	rmSync(directory, {recursive: true});
	mkdirSync(directory, {mode: 0o777});
	chmodSync(directory, 0o777);
	const open = await runCli(['--demo', 'conversations'], {home, env: {XDG_CACHE_HOME: cache}});
	assert.equal(open.code, 0, open.stderr);
	// The same rows (their ages move with the clock between the two runs).
	const ids = (stdout: string) => stdout.split('\n').map((line) => line.split(' ')[0]);
	assert.ok(ids(run.stdout).length > 5);
	assert.deepEqual(ids(open.stdout), ids(run.stdout));
	assert.deepEqual(readdirSync(directory), []);
});

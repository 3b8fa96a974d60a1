import assert from 'node:assert/strict';
import {readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {test} from 'node:test';
import {fileURLToPath} from 'node:url';

/**
 * A hang is a failure within seconds, in every test file, including files added later: the npm
 * test scripts give every test a timeout (`--test-timeout`), end a file whose timed-out test
 * left a socket or timer behind (`--test-force-exit`), and load the hang watchdog, which ends a
 * file whose event loop is blocked (no timer of its own can fire then). A test that waits for a
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
		assert.match(script, /--test-force-exit/, `${name}: --test-force-exit`);
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

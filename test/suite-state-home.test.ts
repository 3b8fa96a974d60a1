import assert from 'node:assert/strict';
import {existsSync, readFileSync} from 'node:fs';
import {homedir, tmpdir} from 'node:os';
import {join} from 'node:path';
import {test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {stateDir} from '../source/config/paths.js';

/**
 * Tests never write the developer's state: the npm test scripts load test/helpers/test-state-home.ts,
 * and code that keeps state by default (the budget's ledgers, snoozes) writes under a folder of
 * this file's own in the system's temporary folder.
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {scripts: Record<string, string>}).scripts;

test('both test scripts give each file a state folder of its own', () => {
	for (const name of ['test', 'test:file']) assert.match(scripts[name] ?? '', /--import \.\/test\/helpers\/test-state-home\.ts/, name);
});

test('the default state folder is this file\'s temporary one, not under HOME', () => {
	const dir = stateDir();
	assert.ok(dir.startsWith(tmpdir()), dir);
	assert.ok(!dir.startsWith(join(homedir(), '.local')), dir);
	assert.match(process.env['XDG_STATE_HOME'] ?? '', /agent-tui-test-state-/);
	assert.ok(existsSync(process.env['XDG_STATE_HOME']!), 'the folder exists while the file runs');
});

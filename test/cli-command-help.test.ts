import assert from 'node:assert/strict';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, test} from 'node:test';
import {runCli} from './helpers/built-cli.js';

/**
 * Issue 43.7: `agent-tui help <command>` and `agent-tui <command> --help` print that command's
 * usage, flags, an example and its exit codes; `--status` with no value is an error.
 */

const home = mkdtempSync(join(tmpdir(), 'agent-tui-help-'));
after(() => rmSync(home, {recursive: true, force: true}));
const cli = (args: string[]) => runCli(args, {home, timeoutMs: 30_000});

test('help <command> and <command> --help: usage, what it does, flags, an example, exit codes', async () => {
	for (const args of [['help', 'watch'], ['watch', '--help']]) {
		const run = await cli(args);
		assert.equal(run.code, 0, run.stderr);
		assert.match(run.stdout, /^Usage\n {2}\$ agent-tui watch \[--status/);
		assert.match(run.stdout, /What it does\n {2}watch {11}one line per status change/);
		assert.match(run.stdout, /Flags\n {2}--json {2}--status {2}--alert-command {2}--timeout/);
		assert.match(run.stdout, /Example\n {2}\$ agent-tui watch /);
		assert.match(run.stdout, /Exit codes\n {2}0 {2}success[\s\S]* 5 {2}network or server failure[\s\S]*130 interrupted \(ctrl-c\), 143 terminated \(SIGTERM\)/);
		// Only this command: not the others' usage.
		assert.doesNotMatch(run.stdout, /agent-tui conversations|agent-tui events/);
	}
	const events = await cli(['events', '--help']);
	assert.match(events.stdout, /--follow {10}keep printing new events/);
	// No command: the whole help, as before.
	const full = await cli(['help']);
	assert.equal(full.code, 0);
	assert.match(full.stdout, /agent-tui conversations[\s\S]*agent-tui watch/);
	const unknown = await cli(['help', 'nope']);
	assert.equal(unknown.code, 2);
	assert.match(unknown.stderr, /unknown command "nope"/);
});

test('--status with no value is a usage error (exit 2), not "no filter"', async () => {
	for (const args of [['watch', '--status'], ['conversations', '--status', '--json']]) {
		const run = await cli([...args, '--base-url', 'http://127.0.0.1:9']);
		assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
		assert.match(run.stderr, /--status needs a value/);
	}
	// With a value it is taken (and the closed port is what fails).
	const given = await cli(['conversations', '--status', 'error', '--timeout', '2s', '--base-url', 'http://127.0.0.1:9']);
	assert.equal(given.code, 5, given.stderr);
});

import assert from 'node:assert/strict';
import {statSync} from 'node:fs';
import {test} from 'node:test';
import {snoozeFilePath} from '../source/state/snooze-store.js';
import {normalizeId} from '../source/wire/ids.js';
import {runCli} from './helpers/built-cli.js';
import {snoozeWorld, waitingOf} from './helpers/snooze-world.js';

/**
 * Headless snooze against the built CLI and a simulator on port 0: `snooze` shows in
 * `conversations --json` as `snoozed_until` (a time, "change", or null), `unsnooze` clears it, a
 * change of the conversation ends a snooze until it changes, and a bad `--for` is a usage error.
 * (In its own file: seven runs of the CLI take most of a minute on a loaded machine.)
 */

const {home, stateHome, simulator} = snoozeWorld('cli-snooze');

test('headless: snooze, then conversations --json says snoozed_until; unsnooze clears it', {timeout: 60_000}, async () => {
	const sim = await simulator('headless-key');
	const id = normalizeId(waitingOf(sim).id);
	const options = {home, env: {OPENHANDS_API_KEY: sim.apiKey, XDG_STATE_HOME: stateHome}};
	const listed = async () => {
		const run = await runCli(['conversations', '--json', '--base-url', sim.baseUrl], options);
		assert.equal(run.code, 0, run.stderr);
		const rows = JSON.parse(run.stdout) as Array<{id: string; snoozed_until: unknown}>;
		assert.ok(rows.every((row) => 'snoozed_until' in row), 'every row says it');
		return rows.find((row) => normalizeId(row.id) === id)!.snoozed_until;
	};
	assert.equal(await listed(), null);
	let run = await runCli(['snooze', id, '--base-url', sim.baseUrl], options);
	assert.equal(run.code, 0, run.stderr);
	assert.match(run.stdout, /snoozed .* until it changes/);
	assert.equal(await listed(), 'change');
	assert.equal(statSync(snoozeFilePath(sim.baseUrl, {XDG_STATE_HOME: stateHome})).mode & 0o777, 0o600);
	run = await runCli(['snooze', id, '--for', '2h', '--base-url', sim.baseUrl], options);
	assert.equal(run.code, 0, run.stderr);
	const until = await listed();
	assert.ok(typeof until === 'string' && Math.abs(Date.parse(until) - Date.now() - 7_200_000) < 120_000, `two hours from now: ${String(until)}`);
	run = await runCli(['unsnooze', id, '--base-url', sim.baseUrl], options);
	assert.match(run.stdout, /unsnoozed/);
	assert.equal(await listed(), null);
	// Until it changes: a new event ends it for the listing too.
	await runCli(['snooze', id, '--until-change', '--base-url', sim.baseUrl], options);
	assert.equal(await listed(), 'change');
	sim.world.sendMessage(id, 'one more thing', false);
	assert.equal(await listed(), null, 'changed since: not snoozed');
	run = await runCli(['snooze', id, '--for', 'soon', '--base-url', sim.baseUrl], options);
	assert.equal(run.code, 2, 'a usage error');
});

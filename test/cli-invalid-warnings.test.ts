import assert from 'node:assert/strict';
import {test} from 'node:test';
import {liveOf, simulatedCli} from './helpers/cli-sim.js';

/**
 * Issue 23.7: `events --follow` printed 322 warnings to stderr for invalid tool calls. Those now
 * parse (an ActionEvent without `action` is an invalid call, not an invalid event), and events
 * that really do not match the API are warned about once per kind, with a count at the end.
 */

const fx = simulatedCli('warn', {seed: 7, conversations: 30});
const cli = fx.cli;
const live = (scenario: string) => liveOf(fx.sim, scenario);
const warnings = (stderr: string) => stderr.split('\n').filter((line) => line.includes('warning'));

test('following an agent that loops on an invalid call: its calls read as invalid calls, and no warning', async () => {
	const stuck = live('stuck');
	const run = await cli(['events', stuck.id, '--follow']);
	assert.equal(run.code, 0, run.stderr);
	assert.equal(run.stdout.split('\n').filter((line) => / invalid call · /.test(line)).length, 4, run.stdout);
	assert.deepEqual(warnings(run.stderr), [], run.stderr);
	assert.match(run.stderr, /conversation ended: stuck/);
});

test('events that do not match the API: one warning per kind, then how many more', async () => {
	const crash = live('crash');
	// 60 broken ActionEvents (no tool_name) and 2 broken observations, in an ended conversation.
	for (let index = 0; index < 60; index++) fx.sim.world.appendEvent(crash, {kind: 'ActionEvent', source: 'agent', tool_call_id: `c${index}`, thought: []} as never);
	for (let index = 0; index < 2; index++) fx.sim.world.appendEvent(crash, {kind: 'ObservationEvent', source: 'environment'} as never);
	for (const args of [['events', crash.id], ['events', crash.id, '--follow']]) {
		const run = await cli(args);
		assert.equal(run.code, 0, run.stderr);
		const lines = warnings(run.stderr);
		assert.equal(lines.filter((line) => line.includes('ActionEvent') && !line.includes('more')).length, 1, run.stderr);
		assert.equal(lines.filter((line) => line.includes('ObservationEvent') && !line.includes('more')).length, 1, run.stderr);
		assert.ok(lines.some((line) => line.endsWith('warning: 59 more ActionEvent events did not match the API (shown as unknown)')), run.stderr);
		assert.ok(lines.some((line) => line.endsWith('warning: 1 more ObservationEvent event did not match the API (shown as unknown)')), run.stderr);
		assert.equal(lines.length, 4, run.stderr);
		// Not repeated in any other words either: two lines name each kind, the first and the count.
		assert.equal(run.stderr.split('\n').filter((line) => line.includes('ActionEvent')).length, 2, run.stderr);
		// Nothing is dropped: each is a visible, labelled row.
		assert.equal(run.stdout.split('\n').filter((line) => /unknown: ActionEvent \(invalid ActionEvent/.test(line)).length, 60);
	}
});

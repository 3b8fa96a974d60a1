import {test} from 'node:test';
import assert from 'node:assert/strict';
import {conversationCells, conversationColumns} from '../source/view/conversation-cells.js';
import {normalizeId} from '../source/wire/ids.js';
import {dashboardOnSimulator} from './helpers/sim-dashboard.js';
import {waitForSnapshot} from './helpers/store-wait.js';

/**
 * The goal loop against the simulator over loopback (issue 21.8): the long-runner publishes
 * `goal` state updates; its open timeline carries the newest one, its row says `goal N/10` in
 * the list, and keeps it after the timeline closes (nothing else in the service says it).
 */

test('the goal loop: in the timeline state, on the row, in the list badge; kept after closing', async (t) => {
	const {sim, store, controller} = await dashboardOnSimulator(t, {seed: 7, tickMs: 0, conversations: 30});
	const runner = sim.world.conversationList().find((row) => row.scenario === 'long-runner' && sim.world.findSandbox(row.sandboxId)?.status === 'RUNNING')!;
	sim.world.step(60);
	const key = normalizeId(runner.id);
	await waitForSnapshot(store, (s) => s.conversations.has(key), 'the long-runner');
	const worldGoals = sim.world.events(runner).filter((event) => event.kind === 'ConversationStateUpdateEvent' && event.key === 'goal');
	assert.ok(worldGoals.length >= 2, 'the long-runner has run a few audit rounds');
	const newest = worldGoals.at(-1)!.value as {iteration: number; max_iterations: number};
	assert.equal(store.getSnapshot().conversations.get(key)!.goal, undefined, 'not known before its events are read');

	controller.openTimeline(key);
	const open = await waitForSnapshot(store, (s) => s.timeline?.goal?.iteration === newest.iteration && s.conversations.get(key)?.goal?.iteration === newest.iteration, 'the goal in the timeline and on the row');
	assert.equal(open.timeline!.goal!.maxIterations, 10);
	assert.equal(open.timeline!.goal!.status, 'running');
	const row = open.conversations.get(key)!;
	assert.deepEqual(row.attention, [], 'a running agent at work needs nobody');
	assert.equal(conversationCells(row, conversationColumns(120), Date.now()).reason, `goal ${newest.iteration}/10 · `);

	// A new audit round arrives live.
	sim.world.step(40);
	const later = sim.world.events(runner).filter((event) => event.kind === 'ConversationStateUpdateEvent' && event.key === 'goal').at(-1)!.value as {iteration: number};
	assert.ok(later.iteration > newest.iteration, 'the runner moved on');
	await waitForSnapshot(store, (s) => s.conversations.get(key)?.goal?.iteration === later.iteration, 'the next round on the row');

	controller.closeTimeline();
	await waitForSnapshot(store, (s) => s.timeline === null, 'closed');
	assert.equal(store.getSnapshot().conversations.get(key)!.goal?.iteration, later.iteration, 'kept after the timeline closed');
});

import {test} from 'node:test';
import assert from 'node:assert/strict';
import {eventSummary} from '../source/format/event-summary.js';
import {normalizeId} from '../source/wire/ids.js';
import {settleEvent} from '../source/wire/schemas/events.js';
import type {Simulator} from '../source/simulator/server.js';
import {agentBase, app, appConversations, type Json} from './helpers/sim-harness.js';
import {dashboardOnSimulator} from './helpers/sim-dashboard.js';
import {waitForSnapshot} from './helpers/store-wait.js';

/**
 * Absent keys are nulls, against the simulator over loopback: its agent server drops null fields
 * as the real one does, its app server's stored copy keeps them, and the dashboard's state reads
 * the same conversation the same way from either: the agent stuck on one invalid call is
 * `repeating` 4 times, live and from the stored copy after its sandbox is paused.
 */

const hasNull = (value: unknown): boolean =>
	value === null || (typeof value === 'object' && value !== null && Object.values(value as Json).some((child) => hasNull(child)));

function stuckConversation(sim: Simulator) {
	const conversation = sim.world.conversationList().find((row) => row.scenario === 'stuck' && sim.world.findSandbox(row.sandboxId)?.status === 'RUNNING');
	assert.ok(conversation, 'a live stuck conversation');
	return conversation;
}

test('the agent server sends no null field; the stored copy of the same events keeps them', async (t) => {
	const {sim} = await dashboardOnSimulator(t, {seed: 7, tickMs: 0, conversations: 30}, {dashboard: {autoStart: false}});
	const conversation = stuckConversation(sim);
	const [row] = await appConversations(sim, [conversation.id]);
	const live = (await (await fetch(`${agentBase(row)}/api/conversations/${conversation.id}/events/search?limit=100`, {headers: {'x-session-api-key': row.session_api_key}})).json()) as {items: Json[]};
	const stored = (await app(sim, `/api/v1/conversation/${conversation.id}/events/search?limit=100`)).body as {items: Json[]};
	assert.equal(live.items.length, stored.items.length);
	assert.ok(live.items.length > 10);
	assert.ok(!live.items.some((event) => hasNull(event)), 'a null in the agent server\'s page');
	const invalidLive = live.items.filter((event) => event.kind === 'ActionEvent' && !('action' in event));
	const invalidStored = stored.items.filter((event) => event.kind === 'ActionEvent' && event.action === null);
	assert.equal(invalidLive.length, 4, 'four invalid calls, without an action key');
	assert.deepEqual(invalidStored.map((event) => event.id), invalidLive.map((event) => event.id), 'the same calls, with action: null');
	assert.ok(stored.items.every((event) => event.parent_id === null));
	// The single-event route returns the event with its nulls, as the real one does.
	const one = (await (await fetch(`${agentBase(row)}/api/conversations/${conversation.id}/events/${invalidLive[0]!.id}`, {headers: {'x-session-api-key': row.session_api_key}})).json()) as Json;
	assert.equal(one.action, null);
	assert.equal(one.summary, null);
});

test('the dashboard flags the invalid-call loop repeating, live and from the stored copy, with the same rows', async (t) => {
	const {sim, store, controller} = await dashboardOnSimulator(t, {seed: 7, tickMs: 0, conversations: 30, sandboxTransitionMs: 30});
	const conversation = stuckConversation(sim);
	const key = normalizeId(conversation.id);
	await waitForSnapshot(store, (s) => s.conversations.has(key), 'the stuck conversation');
	controller.openTimeline(key);
	const live = await waitForSnapshot(store, (s) => s.timeline?.stream.state === 'live' && s.conversations.get(key)!.attention.some((reason) => reason.kind === 'repeating'), 'repeating, live');
	const repeating = live.conversations.get(key)!.attention.find((reason) => reason.kind === 'repeating');
	assert.equal(repeating?.kind === 'repeating' && repeating.count, 4);
	const liveRows = live.timeline!.events.map((event) => eventSummary(settleEvent(event)).text);
	assert.ok(liveRows.filter((text) => / invalid call · /.test(text)).length === 4, liveRows.join('\n'));

	controller.closeTimeline();
	const sandboxKey = normalizeId(conversation.sandboxId);
	await waitForSnapshot(store, (s) => s.sandboxes.has(sandboxKey), 'the sandbox list');
	await controller.pauseSandbox(sandboxKey);
	await waitForSnapshot(store, (s) => s.conversations.get(key)?.conversation.sandbox_status === 'PAUSED', 'the sandbox paused');
	controller.openTimeline(key);
	const stored = await waitForSnapshot(store, (s) => s.timeline?.stored?.sandboxStatus === 'PAUSED' && (s.timeline.events.length ?? 0) >= liveRows.length, 'the stored history');
	const storedRows = stored.timeline!.events.map((event) => eventSummary(settleEvent(event)).text);
	assert.deepEqual(storedRows, liveRows, 'the same rows from the stored copy');
	const storedReasons = store.getSnapshot().conversations.get(key)!.attention;
	const again = storedReasons.find((reason) => reason.kind === 'repeating');
	assert.equal(again?.kind === 'repeating' && again.count, 4, JSON.stringify(storedReasons));
});

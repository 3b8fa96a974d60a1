import {eventKindName} from '../source/wire/event-fields.js';
import {test, type TestContext} from 'node:test';
import assert from 'node:assert/strict';
import type {createDashboard, CreateDashboardOptions} from '../source/state/dashboard-store.js';
import type {DashboardSnapshot, ShownRange} from '../source/state/dashboard-types.js';
import type {Simulator} from '../source/simulator/server.js';
import {findObservationFor, forgottenEvents, selectTimelineEvents} from '../source/state/timeline-query.js';
import {dashboardOnSimulator} from './helpers/sim-dashboard.js';
import {causesRead, waitForSnapshot} from './helpers/store-wait.js';

/**
 * The timeline of a conversation whose sandbox is not running, against the simulator over real
 * HTTP: the stored copy's newest page in one request, older pages as the view asks, and going
 * live on the same log when the sandbox runs again (nothing lost, nothing twice). Requests are
 * counted by the simulator's own request stats.
 */

const storedRoute = 'GET /api/v1/conversation/:id/events/search';

const waitFor = waitForSnapshot;

async function setup(t: TestContext, options: Partial<CreateDashboardOptions> = {}) {
	const dashboard = await dashboardOnSimulator(t, {seed: 7, tickMs: 0, sandboxTransitionMs: 50, startTaskPhaseMs: 20}, {
		dashboard: (sim) => ({serverLabel: 'simulator', secrets: [sim.apiKey], ...options}),
	});
	// And the errored rows' causes read: this file counts the requests that opening a timeline sends.
	const loaded = await waitFor(dashboard.store, (s) => s.conversations.size >= 24 && causesRead(s), 'the conversations');
	return {...dashboard, loaded};
}

/** A PAUSED conversation given `extra` more stored events (numbered, one a millisecond apart). */
function pausedWithHistory(sim: Simulator, snapshot: DashboardSnapshot, extra: number) {
	const row = [...snapshot.conversations.values()].find((row) => row.conversation.sandbox_status === 'PAUSED');
	assert.ok(row, 'the simulator has a PAUSED conversation');
	for (let index = 0; index < extra; index++) {
		sim.world.appendEvent(row.key, {kind: 'MessageEvent', source: 'user', llm_message: {role: 'user', content: [{type: 'text', text: `stored note ${index}`}]}} as never);
	}
	return {row, total: sim.world.events(row.key).length};
}

test('a PAUSED conversation opens on its newest stored page in one request, marked as stored history', async (t) => {
	const {sim, store, controller, loaded} = await setup(t);
	const {row, total} = pausedWithHistory(sim, loaded, 250);
	assert.ok(total > 200);
	sim.stats.reset();
	controller.openTimeline(row.key);
	const opened = await waitFor(store, (s) => (s.timeline?.events.length ?? 0) > 0 && s.timeline?.older?.state === 'more', 'the first page');
	assert.equal(sim.stats.byRoute[storedRoute], 1, 'one request for the first screen');
	assert.equal(opened.timeline!.events.length, 100);
	assert.deepEqual(opened.timeline!.stored, {sandboxStatus: 'PAUSED'});
	// The newest page: the last stored event is the newest one the server has.
	const newest = sim.world.events(row.key).at(-1)!;
	assert.equal(opened.timeline!.events.at(-1)!.id, newest.id);
	// No agent server was asked, no sandbox resumed.
	assert.equal(Object.keys(sim.stats.byRoute).filter((route) => route.includes('/api/conversations/')).length, 0);
	assert.equal(String(store.getSnapshot().conversations.get(row.key)!.conversation.sandbox_status), 'PAUSED');

	// Older pages only when asked, each one request, in order, without repeats, up to the first event.
	controller.loadOlderEvents!();
	// The bound repeats the floor's own timestamp (events may share it): 99 or 100 new ones.
	const second = await waitFor(store, (s) => s.timeline!.events.length >= 199 && s.timeline!.older?.state === 'more', 'the second page');
	assert.ok(second.timeline!.events.length <= 200);
	assert.equal(sim.stats.byRoute[storedRoute], 2);
	controller.loadOlderEvents!();
	const all = await waitFor(store, (s) => s.timeline!.older?.state === 'none', 'the first event');
	assert.ok(second.timeline!.events.length < all.timeline!.events.length);
	assert.deepEqual(
		all.timeline!.events.map((event) => event.id),
		sim.world.events(row.key).map((event) => event.id),
	);
});

test('resuming the sandbox turns the same timeline live: no event lost or shown twice', async (t) => {
	const {sim, store, controller, loaded} = await setup(t);
	const {row} = pausedWithHistory(sim, loaded, 150);
	controller.openTimeline(row.key);
	const opened = await waitFor(store, (s) => s.timeline?.older?.state === 'more', 'the first page');
	const shown = new Set(opened.timeline!.events.map((event) => event.id));
	const sandboxKey = String(row.conversation.sandbox_id);
	await controller.resumeSandbox(sandboxKey);
	const live = await waitFor(store, (s) => s.timeline?.stream.state === 'live' && !s.timeline.stored, 'the live stream');
	assert.equal(live.timeline!.conversationKey, row.key);
	// Everything shown before is still there, once.
	const ids = live.timeline!.events.map((event) => event.id);
	assert.equal(new Set(ids).size, ids.length, 'no event twice');
	for (const id of shown) assert.ok(ids.includes(id), 'no stored event lost');
	// New events arrive live, after the stored ones.
	sim.step(3);
	const after = await waitFor(store, (s) => s.timeline!.events.length > live.timeline!.events.length, 'live events');
	const newest = sim.world.events(row.key).at(-1)!;
	assert.equal(after.timeline!.events.at(-1)!.id, newest.id);
	const all = after.timeline!.events.map((event) => event.id);
	assert.equal(new Set(all).size, all.length);
	// The live part joins the stored page with nothing missing in between.
	const server = sim.world.events(row.key).map((event) => event.id);
	const from = server.indexOf(all[0]!);
	assert.deepEqual(all, server.slice(from));
});

test('a long follow keeps a bounded window and reads the dropped events back from the stored copy', async (t) => {
	const {sim, store, controller, loaded} = await setup(t, {maxTimelineEvents: 1000});
	const running = [...loaded.conversations.values()].find((row) => row.conversation.sandbox_status === 'RUNNING')!;
	controller.openTimeline(running.key);
	await waitFor(store, (s) => s.timeline?.stream.state === 'live', 'live');
	for (let index = 0; index < 2500; index++) {
		sim.world.appendEvent(running.key, {kind: 'MessageEvent', source: 'user', llm_message: {role: 'user', content: [{type: 'text', text: `follow ${index}`}]}} as never);
	}
	const server = sim.world.events(running.key);
	const trimmed = await waitFor(store, (s) => s.timeline!.events.at(-1)?.id === server.at(-1)!.id && s.timeline!.events.length <= 2000, 'the bounded window');
	assert.equal(trimmed.timeline!.older?.state, 'more');
	assert.ok(trimmed.timeline!.events.length >= 1000);
	// Scrolling back reads the oldest held event's predecessors, in order.
	const oldestHeld = trimmed.timeline!.events[0]!.id;
	controller.loadOlderEvents!();
	const back = await waitFor(store, (s) => s.timeline!.events[0]!.id !== oldestHeld && s.timeline!.older?.state !== 'loading', 'an older page');
	const ids = back.timeline!.events.map((event) => event.id);
	const all = server.map((event) => event.id);
	assert.deepEqual(ids, all.slice(all.indexOf(ids[0]!), all.indexOf(ids[0]!) + ids.length));
});

test('stored history reads like a live one: tool calls with their observations, condensations with what they forgot, filters', async (t) => {
	const {sim, store, controller, loaded} = await setup(t);
	const stopped = [...loaded.conversations.values()].filter((row) => row.conversation.sandbox_status !== 'RUNNING');
	// A stopped conversation whose history has a condensation (the simulator's condensing scenario).
	const row = stopped.find((candidate) => sim.world.events(candidate.key).some((event) => event.kind === 'Condensation'));
	assert.ok(row, 'a stopped conversation with a condensation');
	controller.openTimeline(row.key);
	const opened = await waitFor(store, (s) => (s.timeline?.events.length ?? 0) > 0 && s.timeline?.older?.state !== 'loading', 'the stored history');
	let timeline = opened.timeline!;
	while (timeline.older?.state === 'more') {
		controller.loadOlderEvents!();
		timeline = (await waitFor(store, (s) => s.timeline!.older?.state !== 'loading' && s.timeline!.version !== timeline.version, 'an older page')).timeline!;
	}
	const events = timeline.events;
	assert.equal(events.length, sim.world.events(row.key).length);
	const actions = events.filter((event) => eventKindName(event) === 'ActionEvent');
	assert.ok(actions.length > 0);
	assert.ok(actions.some((action) => findObservationFor(events, action) !== undefined), 'tool calls paired with their observations');
	const condensation = events.find((event) => eventKindName(event) === 'Condensation')!;
	assert.ok(forgottenEvents(events, condensation).length > 0, 'a condensation shows what it forgot');
	const agentActions = selectTimelineEvents(timeline, 'kind:ActionEvent source:agent');
	assert.equal(agentActions.length, actions.filter((action) => action.source === 'agent').length);
	assert.ok(agentActions.length > 0);
});

/** What the view reports at the top of the window: the first 14 rows on screen. */
function pinTop(controller: {pinTimeline?: (range: ShownRange | null) => void}, snapshot: DashboardSnapshot): void {
	const events = snapshot.timeline!.events;
	controller.pinTimeline!({oldest: events[0]!, newest: events[Math.min(events.length - 1, 13)]!});
}

/** What the view reports at the bottom of the window: the last 14 rows on screen. */
function pinBottom(controller: {pinTimeline?: (range: ShownRange | null) => void}, snapshot: DashboardSnapshot): void {
	const events = snapshot.timeline!.events;
	controller.pinTimeline!({oldest: events[Math.max(0, events.length - 14)]!, newest: events.at(-1)!});
}

/** Each page: the view's pin, then the next page that way, until that end is reached. */
async function readTo(end: 'older' | 'newer', store: Parameters<typeof waitFor>[0], controller: ReturnType<typeof createDashboard>['controller']): Promise<DashboardSnapshot> {
	let snapshot = store.getSnapshot();
	let maxHeld = 0;
	while (snapshot.timeline![end]?.state === 'more') {
		(end === 'older' ? pinTop : pinBottom)(controller, snapshot);
		const version = snapshot.timeline!.version;
		(end === 'older' ? controller.loadOlderEvents : controller.loadNewerEvents)!();
		snapshot = await waitFor(store, (s) => s.timeline!.version !== version && s.timeline![end]?.state !== 'loading', `a page ${end}`);
		maxHeld = Math.max(maxHeld, snapshot.timeline!.events.length);
	}
	assert.ok(maxHeld <= 2000, `at most the bound plus its slack held on the way (${maxHeld})`);
	return snapshot;
}

function assertContiguous(ids: readonly string[], server: readonly string[]): void {
	assert.equal(new Set(ids).size, ids.length, 'no event twice');
	const from = server.indexOf(ids[0]!);
	assert.ok(from >= 0);
	assert.deepEqual(ids, server.slice(from, from + ids.length), 'a contiguous run of the history, in order');
}

test('reading a long stored history to its top keeps a bounded window; the newest end is read back on the way down, or in one request to follow', async (t) => {
	const {sim, store, controller, loaded} = await setup(t, {maxTimelineEvents: 1000});
	const {row, total} = pausedWithHistory(sim, loaded, 3000);
	const server = sim.world.events(row.key).map((event) => event.id);
	controller.openTimeline(row.key);
	await waitFor(store, (s) => (s.timeline?.events.length ?? 0) > 0 && s.timeline?.older?.state === 'more', 'the first page');
	// Up to the first event: the newest end is dropped as the old end comes in.
	const top = await readTo('older', store, controller);
	const held = top.timeline!.events.map((event) => event.id);
	assert.equal(held[0], server[0], 'the first event is shown');
	assert.ok(held.length < total && held.length <= 2000, `a window, not the whole history (${held.length} of ${total})`);
	assert.equal(top.timeline!.newer?.state, 'more', 'the header can say newer events are not loaded');
	assertContiguous(held, server);

	// Down again, page by page: in order, bounded, to the newest event.
	const bottom = await readTo('newer', store, controller);
	const down = bottom.timeline!.events.map((event) => event.id);
	assert.equal(down.at(-1), server.at(-1), 'the newest event is back');
	assert.equal(bottom.timeline!.newer?.state, 'none');
	assert.ok(down.length <= 2000);
	assertContiguous(down, server);

	// Up again, then follow: the newest page is read again, one request, instead of thirty walking down.
	await readTo('older', store, controller);
	assert.equal(store.getSnapshot().timeline!.newer?.state, 'more');
	sim.stats.reset();
	controller.pinTimeline!(null);
	const newest = await waitFor(store, (s) => s.timeline!.events.at(-1)?.id === server.at(-1) && s.timeline!.older?.state === 'more', 'the newest page');
	assert.equal(sim.stats.byRoute[storedRoute], 1);
	assert.equal(newest.timeline!.newer?.state, 'none');
	assert.equal(newest.timeline!.events.length, 100);
	assertContiguous(newest.timeline!.events.map((event) => event.id), server);
});

test('resumed while the newest end is not held: the stream waits for it, then goes live from there (nothing lost or twice)', async (t) => {
	const {sim, store, controller, loaded} = await setup(t, {maxTimelineEvents: 1000});
	const {row} = pausedWithHistory(sim, loaded, 2600);
	controller.openTimeline(row.key);
	await waitFor(store, (s) => s.timeline?.older?.state === 'more', 'the first page');
	await readTo('older', store, controller);
	assert.equal(store.getSnapshot().timeline!.newer?.state, 'more');
	await controller.resumeSandbox(String(row.conversation.sandbox_id));
	await waitFor(store, (s) => s.timeline?.stream.state === 'live' && !s.timeline.stored, 'the live stream');
	// The agent works on while the user reads the top: its events are not in the window yet, and
	// the app server's copy lags (its webhook is behind), so the stored copy alone would miss them.
	sim.faults.storedCopyLags(true);
	sim.step(4);
	const before = sim.world.events(row.key).length;
	assert.ok(before > sim.world.storedEvents(row.key).length, 'the stored copy is behind');
	await waitFor(store, (s) => s.timeline!.newer?.state === 'more', 'still reading the top');
	// Down to the newest: the stored copy to its end, then the stream reopened from there.
	await readTo('newer', store, controller);
	sim.step(3);
	const server = () => sim.world.events(row.key).map((event) => event.id);
	const caught = await waitFor(store, (s) => s.timeline!.events.at(-1)?.id === server().at(-1) && s.timeline!.stream.state === 'live', 'the live end');
	assert.ok(sim.world.events(row.key).length > before);
	assertContiguous(caught.timeline!.events.map((event) => event.id), server());
});

test('a follow of large events keeps a window bounded in bytes, not only in count; the dropped ones read back', async (t) => {
	const {sim, store, controller, loaded} = await setup(t, {maxTimelineBytes: 1024 * 1024});
	const running = [...loaded.conversations.values()].find((row) => row.conversation.sandbox_status === 'RUNNING')!;
	controller.openTimeline(running.key);
	await waitFor(store, (s) => s.timeline?.stream.state === 'live', 'live');
	// 400 observations of 20,000 characters each (a real terminal's output): 8 MB of text.
	const output = 'x'.repeat(19_990);
	for (let index = 0; index < 400; index++) {
		sim.world.appendEvent(running.key, {kind: 'MessageEvent', source: 'agent', llm_message: {role: 'assistant', content: [{type: 'text', text: `${index} ${output}`}]}} as never);
	}
	const server = sim.world.events(running.key);
	const bounded = await waitFor(store, (s) => s.timeline!.events.at(-1)?.id === server.at(-1)!.id && s.timeline!.older?.state === 'more', 'the window bounded in bytes');
	const held = bounded.timeline!.events.length;
	// About 1 MB (plus a twelfth before a trim) of 20 KB events: dozens, not the 50,000 the count allows.
	assert.ok(held < 80 && held > 20, `${held} held`);
	// Scrolled to the top of the window, as the view pins what it shows: an older page is read back.
	const oldest = bounded.timeline!.events[0]!;
	controller.pinTimeline!({oldest: {timestamp: oldest.timestamp, id: oldest.id}, newest: {timestamp: oldest.timestamp, id: oldest.id}});
	controller.loadOlderEvents!();
	const back = await waitFor(store, (s) => s.timeline!.events[0]!.id !== oldest.id && s.timeline!.older?.state !== 'loading', 'an older page');
	const ids = back.timeline!.events.map((event) => event.id);
	const all = server.map((event) => event.id);
	assert.deepEqual(ids, all.slice(all.indexOf(ids[0]!), all.indexOf(ids[0]!) + ids.length), 'read back in order, nothing skipped');
	assert.ok(ids.includes(oldest.id), 'what was on screen is still held');
});

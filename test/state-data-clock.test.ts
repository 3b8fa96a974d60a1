import {test} from 'node:test';
import assert from 'node:assert/strict';
import {DataClock, naiveWallMs, zoneLabel} from '../source/state/data-clock.js';
import {parseTime} from '../source/state/attention.js';
import {normalizeId} from '../source/wire/ids.js';
import {ServerClock} from '../source/wire/server-clock.js';
import {conversationCells, conversationColumns} from '../source/view/conversation-cells.js';
import {clockOffsetText} from '../source/view/Header.js';
import {dashboardOnSimulator} from './helpers/sim-dashboard.js';
import {waitForSnapshot} from './helpers/store-wait.js';

/**
 * Ages and lag on the clock that wrote the data. The case that went wrong: the `Date` header is
 * right (a proxy stamps it) while the data is written by a clock 24 days and 31 s behind, in
 * another zone. Every age read `24d`, and the stream's lag read `⚠ 31s behind` for 13 minutes
 * (whole quarter hours were stripped from 24d 31s as if they were a zone) while it was about 1 s.
 */

const day = 86_400_000;
/** The data's clock: 24 days and 31 s behind ours. */
const skew = -(24 * day + 31_000);
/** The agent server writes naive times two hours east of UTC. */
const zone = 2 * 3_600_000;

/** A naive timestamp as an agent server in `zone` writes it for the data-clock instant `ms`. */
const naive = (ms: number) => new Date(ms + zone).toISOString().slice(0, 23).concat('456');

/** A Date-header estimate that is right (offset 0, one sample). */
const rightHeader = {offsetMs: () => 0, samples: () => 1};

test('the Date header is only the fallback: a changed updated_at moves the clock to the data', () => {
	let local = 1_800_000_000_000;
	const clock = new DataClock({fallback: rightHeader, now: () => local});
	assert.equal(clock.offsetMs(), 0);
	assert.equal(clock.source(), 'date-header');
	// First sight of old data says little: nothing is written in the future, that is all.
	clock.observeSeen(local + skew - 5 * 60_000, local);
	assert.equal(clock.offsetMs(), 0, 'first sight does not replace the header');
	assert.equal(clock.source(), 'date-header');
	// A row changed between an answer asked 2 s ago and this one: written in that window.
	const written = local + skew - 800;
	clock.observeChange(written, local - 2000, local);
	assert.equal(clock.source(), 'data');
	assert.ok(Math.abs(clock.offsetMs() - skew) <= 2000, `offset ${clock.offsetMs()} vs ${skew}`);
	// An agent approved 5 s ago is 5 s old, not 24 days.
	local += 5000;
	assert.ok(clock.now() - written < 8000 && clock.now() - written >= 5000, `age ${clock.now() - written}`);
	assert.equal(clockOffsetText(clock.offsetMs(), clock.source()), 'data clock 24d behind');
});

test('the naive zone comes from a pair of the same moment, not from rounding; lag is arrival on the data clock minus the event time', () => {
	let local = 1_800_000_000_000;
	const clock = new DataClock({fallback: rightHeader, now: () => local});
	// Before any pair the zone of a naive time is unknown: no lag at all, rather than a wrong one.
	clock.observeLiveEvent(naive(local + skew - 900), local);
	assert.equal(clock.deliveryLagMs(naive(local + skew - 900), local), null);
	assert.equal(clock.naiveOffsetMs(), null);
	// The open conversation's updated_at changed with its newest event: the same moment.
	const moment = local + skew - 1000;
	clock.observeChange(moment, local - 2000, local);
	clock.observeSameMoment(naive(moment), moment);
	assert.equal(clock.naiveOffsetMs(), zone);
	assert.equal(zoneLabel(clock.naiveOffsetMs()!), 'UTC+2');
	assert.deepEqual([zoneLabel(0), zoneLabel(5.5 * 3_600_000), zoneLabel(-3.5 * 3_600_000), zoneLabel(5.75 * 3_600_000)], ['UTC', 'UTC+5:30', 'UTC-3:30', 'UTC+5:45']);
	// Events written 1 s before they arrive, for a while: the lag reads 1 s or less, never 31 s.
	for (let index = 0; index < 20; index++) {
		local += 700;
		const event = naive(local + skew - 1000);
		clock.observeLiveEvent(event, local);
		const lag = clock.deliveryLagMs(event, local)!;
		assert.ok(lag <= 1100, `lag ${lag} ms`);
	}
	// A late event says so: written 12 s before it arrived.
	local += 700;
	const late = naive(local + skew - 12_000);
	clock.observeLiveEvent(late, local);
	const lag = clock.deliveryLagMs(late, local)!;
	assert.ok(lag >= 10_000 && lag <= 12_500, `a late event reads ${lag} ms late`);
	// What rounding did: 24d 31s (+ the zone) minus whole quarter hours left 31 s.
	const roundedAway = (local - (naiveWallMs(late)! - zone + 12_000 - skew)) % 900_000;
	assert.ok(Math.abs(Math.abs(roundedAway) - 31_000) < 1000 || roundedAway === 0);
});

test('a zone that is not a whole quarter hour off (a skewed agent server clock) is kept as measured', () => {
	const local = 1_800_000_000_000;
	const clock = new DataClock({fallback: rightHeader, now: () => local});
	const moment = local + skew;
	// The agent server's clock runs 31 s ahead of the app server's, in UTC+02:00.
	clock.observeSameMoment(new Date(moment + zone + 31_000).toISOString().slice(0, 23), moment);
	assert.equal(clock.naiveOffsetMs(), zone + 31_000);
	assert.equal(clock.eventTimeMs(new Date(moment + zone + 31_000).toISOString().slice(0, 23)), moment);
	// A zoned timestamp says its own time.
	assert.equal(clock.eventTimeMs('2026-01-01T00:00:00Z'), Date.parse('2026-01-01T00:00:00Z'));
});

test('a clock set back: an upper bound below older lower bounds drops them', () => {
	const local = 1_800_000_000_000;
	const clock = new DataClock({fallback: rightHeader, now: () => local});
	clock.observeChange(local - 1000, local - 3000, local);
	assert.ok(Math.abs(clock.offsetMs()) <= 3000);
	// The server's clock is corrected an hour back: the newer change bounds it well below.
	clock.observeChange(local - 3_600_000 - 1000, local - 1500, local);
	assert.ok(Math.abs(clock.offsetMs() + 3_600_000) <= 3000, `offset ${clock.offsetMs()}`);
});

test('no Date header and no data: our own clock; ServerClock fits as the fallback', () => {
	const clock = new DataClock();
	assert.equal(clock.offsetMs(), 0);
	assert.equal(clock.source(), 'none');
	const header = new ServerClock(() => 1_800_000_000_000);
	header.observe(new Date(1_800_000_000_000 - 3 * day).toUTCString(), 1_800_000_000_000, 1_800_000_000_000);
	const over = new DataClock({fallback: header});
	assert.ok(Math.abs(over.offsetMs() + 3 * day) <= 1000);
	assert.equal(over.source(), 'date-header');
});

const waitFor = waitForSnapshot;

test('a simulator whose Date header is right and whose data is 24 days 31 s behind: ages and lag on the data clock', {timeout: 60_000}, async (t) => {
	const {sim, store, controller} = await dashboardOnSimulator(t, {seed: 3, tickMs: 0, conversations: 8, dataClockOffsetMs: skew});
	const loaded = await waitFor(store, (snapshot) => snapshot.conversations.size === 8, 'the list');
	assert.notEqual(loaded.connection.clockSource, 'data', 'nothing changed yet: the Date header it is');
	assert.ok(Math.abs(loaded.connection.clockOffsetMs) < 5000, 'and the Date header is right');
	const conversation = sim.world.conversationList().find((entry) => entry.scenario === 'long-runner' && sim.world.findSandbox(entry.sandboxId)?.status === 'RUNNING')!;
	const key = normalizeId(conversation.id);
	controller.openTimeline(key);
	await waitFor(store, (snapshot) => snapshot.timeline?.stream.state === 'live', 'the timeline live');
	// The agent works: an event every 200 ms, the list polled every 200 ms.
	const writer = setInterval(() => sim.step(1), 200);
	t.after(() => clearInterval(writer));
	const settled = await waitFor(
		store,
		(snapshot) => snapshot.connection.clockSource === 'data' && snapshot.connection.eventZone !== null && (snapshot.timeline?.lag?.lagMs ?? null) !== null,
		'the data clock, the event zone and a lag',
		20_000,
	);
	const offset = settled.connection.clockOffsetMs;
	assert.ok(Math.abs(offset - skew) < 3000, `the data clock: ${offset} ms vs ${skew}`);
	const ourZone = zoneLabel(-new Date().getTimezoneOffset() * 60_000);
	assert.equal(settled.connection.eventZone, ourZone, 'the simulator writes naive times in this machine’s zone');
	// Watch the lag for a few seconds of events: never the 31 s that rounding left.
	let worst = 0;
	const unsubscribe = store.subscribe(() => {
		worst = Math.max(worst, store.getSnapshot().timeline?.lag?.lagMs ?? 0);
	});
	await new Promise((resolve) => setTimeout(resolve, 3000));
	unsubscribe();
	clearInterval(writer);
	assert.ok(worst < 2000, `the stream's lag reached ${worst} ms`);
	// The row that just changed is seconds old on the data clock, and the view says so.
	const now = store.getSnapshot();
	const row = now.conversations.get(key)!;
	const serverNow = Date.now() + now.connection.clockOffsetMs;
	const age = serverNow - parseTime(row.conversation.updated_at)!;
	assert.ok(age >= -3000 && age < 10_000, `updated ${age} ms ago on the data clock`);
	assert.doesNotMatch(conversationCells(row, conversationColumns(160), serverNow).rest, /\b2\dd\b/);
	// The positive half: on the Date header's clock the same row is 24 days old.
	assert.match(conversationCells(row, conversationColumns(160), Date.now()).rest, /\b24d\b/);
});

test('stuck for days stays stuck for days across a pause and resume of its sandbox', {timeout: 60_000}, async (t) => {
	const {sim, store, controller} = await dashboardOnSimulator(t, {seed: 3, tickMs: 0, conversations: 12, dataClockOffsetMs: skew, sandboxTransitionMs: 50});
	const stuck = sim.world.conversationList().find((entry) => sim.world.findSandbox(entry.sandboxId)?.status === 'RUNNING' && (sim.world.agent(entry), entry.executionStatus === 'stuck'))!;
	assert.ok(stuck, 'a stuck conversation in a running sandbox');
	const key = normalizeId(stuck.id);
	const sandboxKey = normalizeId(stuck.sandboxId);
	const stuckSince = (snapshot: ReturnType<typeof store.getSnapshot>) => snapshot.conversations.get(key)?.attention.find((reason) => reason.kind === 'stuck')?.since;
	const before = await waitFor(store, (snapshot) => stuckSince(snapshot) !== undefined && snapshot.sandboxes.has(sandboxKey), 'the stuck row and its sandbox');
	const since = stuckSince(before)!;
	assert.equal(since, parseTime(before.conversations.get(key)!.conversation.updated_at), 'since its updated_at');
	await controller.pauseSandbox(sandboxKey);
	const paused = await waitFor(store, (snapshot) => snapshot.conversations.get(key)?.conversation.sandbox_status === 'PAUSED', 'its sandbox paused');
	assert.equal(stuckSince(paused), since, 'still stuck since then, last known');
	await controller.resumeSandbox(sandboxKey);
	const resumed = await waitFor(store, (snapshot) => snapshot.conversations.get(key)?.conversation.sandbox_status === 'RUNNING' && snapshot.conversations.get(key)?.conversation.execution_status === 'stuck', 'running and stuck again');
	assert.equal(stuckSince(resumed), since, 'the resume is no new "stuck": not minutes since the dashboard saw it again');
});

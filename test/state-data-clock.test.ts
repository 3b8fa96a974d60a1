import {test} from 'node:test';
import assert from 'node:assert/strict';
import {createElement} from 'react';
import {DataClock, naiveWallMs, zoneLabel} from '../source/state/data-clock.js';
import {parseTime} from '../source/state/attention.js';
import {normalizeId} from '../source/wire/ids.js';
import {ServerClock} from '../source/wire/server-clock.js';
import {conversationCells, conversationColumns} from '../source/view/conversation-cells.js';
import {clockOffsetText, Header} from '../source/view/Header.js';
import {attentionLong} from '../source/view/attention-text.js';
import {countConversations} from '../source/state/conversation-query.js';
import type {DashboardSnapshot} from '../source/state/dashboard-types.js';
import {renderSized, waitForFrame} from './helpers/ink.js';
import {dashboardOnSimulator, fastPolling} from './helpers/sim-dashboard.js';
import {startSimulator} from '../source/simulator/server.js';
import {openSession} from '../source/state/dashboard-session.js';
import {Secret} from '../source/wire/secret.js';
import {waitForSnapshot} from './helpers/store-wait.js';
import {writingLongRunner} from './helpers/age-fixtures.js';

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

test('ages are not known while agents are at work and nothing listed was written in the 12 hours before the Date header; known once the data says its clock', () => {
	let local = 1_800_000_000_000;
	const clock = new DataClock({fallback: rightHeader, now: () => local});
	assert.equal(clock.agesKnown(), true, 'nothing listed yet: nothing disputes the header');
	// The first listing: the freshest row was written a second ago on a clock 24 days behind.
	clock.observeSeen(local + skew - 1000, local);
	clock.observeSeen(local + skew - 3_600_000, local);
	assert.equal(clock.agesKnown(), true, 'no agent at work: nothing in the data can dispute the header');
	clock.observeAtWork();
	assert.equal(clock.agesKnown(), false, 'agents at work, nothing written in 12 h by the header: disputed');
	assert.equal(clock.source(), 'date-header');
	// The next answer: a row changed in between. The data's own clock is learned; ages are known.
	local += 2000;
	clock.observeChange(local + skew - 500, local - 2000, local);
	assert.equal(clock.source(), 'data');
	assert.equal(clock.agesKnown(), true);

	// The header right and the data on it: the freshest row, 20 s old by the header, backs it.
	const right = new DataClock({fallback: rightHeader, now: () => local});
	right.observeSeen(local - 20_000, local);
	right.observeSeen(local - 5 * 86_400_000, local);
	right.observeAtWork();
	assert.equal(right.agesKnown(), true);
	// Backed once, it stays backed: the lower bound stays true however quiet the fleet gets.
	local += 3_600_000;
	right.observeAtWork();
	assert.equal(right.agesKnown(), true);

	// Every agent at work quiet for twenty minutes by a right header: silence proves nothing about
	// the clock. Ages are told on the header and said to be assumed, not `?` (the false claim
	// "that clock is not the data's"); a fresh row then confirms the header.
	const quiet = new DataClock({fallback: rightHeader, now: () => local});
	quiet.observeSeen(local - 20 * 60_000, local);
	quiet.observeAtWork();
	assert.equal(quiet.agesKnown(), true);
	assert.equal(quiet.ageBasis(), 'assumed');
	quiet.observeSeen(local - 5000, local);
	assert.equal(quiet.ageBasis(), 'known', 'a conversation written 5 s ago by the header backs it');

	// What disputes the header: agents at work and nothing written in the 12 hours before it (a
	// session lasts at most 12 h). Eleven hours of silence is still only assumed.
	const eleven = new DataClock({fallback: rightHeader, now: () => local});
	eleven.observeSeen(local - 11 * 3_600_000, local);
	eleven.observeAtWork();
	assert.equal(eleven.ageBasis(), 'assumed');
	const skewed = new DataClock({fallback: rightHeader, now: () => local});
	skewed.observeSeen(local - 13 * 3_600_000, local);
	assert.equal(skewed.ageBasis(), 'assumed', 'no agent at work: nothing can dispute it');
	skewed.observeAtWork();
	assert.equal(skewed.ageBasis(), 'unknown');
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
	// The agent works: an event every 200 ms, the list polled every 200 ms.
	const {key, stop} = await writingLongRunner(t, {sim, store, controller});
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
	// Watch the lag over fifteen new events (not a span of time): never the 31 s that rounding left.
	let worst = 0;
	let newEvents = 0;
	let newest = settled.timeline?.events.at(-1)?.id;
	const unsubscribe = store.subscribe(() => {
		const timeline = store.getSnapshot().timeline;
		worst = Math.max(worst, timeline?.lag?.lagMs ?? 0);
		if (timeline?.events.at(-1)?.id !== newest) {
			newest = timeline?.events.at(-1)?.id;
			newEvents++;
		}
	});
	await waitFor(store, () => newEvents >= 15, 'fifteen new events on the timeline', 30_000);
	unsubscribe();
	stop();
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

/** Rows that say `quiet` from an age (not from what the dashboard watched itself). */
const quietByAge = (snapshot: DashboardSnapshot) => [...snapshot.conversations.values()].filter((row) => row.attention.some((reason) => reason.kind === 'quiet' && !reason.atLeast));

test('before the data clock is learned, the Date header it disputes tells no age: ? on the list, no quiet, the count without them, the header says why', {timeout: 60_000}, async (t) => {
	const {sim, store} = await dashboardOnSimulator(t, {seed: 7, tickMs: 0, conversations: 24, dataClockOffsetMs: skew});
	const listed = await waitFor(store, (snapshot) => snapshot.conversationsListed && snapshot.conversations.size > 0, 'the list');
	// Nothing moves (tickMs 0): by the right Date header every running agent wrote 24 days ago.
	assert.equal(listed.connection.agesUnverified, true, 'agents at work, all weeks old by the Date header: ages not known');
	assert.notEqual(listed.connection.clockSource, 'data');
	assert.deepEqual(quietByAge(listed).map((row) => row.conversation.title), [], 'no quiet from a disputed clock');
	const running = [...listed.conversations.values()].filter((row) => row.conversation.execution_status === 'running' && row.conversation.sandbox_status === 'RUNNING');
	assert.ok(running.length >= 3, `agents at work: ${running.length}`);
	const unverifiedCount = countConversations(listed).needingAttention;
	// What the view draws: `?` for ages, the reason words without them, the header's note.
	const row = [...listed.conversations.values()].find((candidate) => candidate.attention[0]?.kind === 'stuck')!;
	const cells = conversationCells(row, conversationColumns(160), 'unknown');
	assert.match(cells.rest, / +\? +\?$/, `ages: ${JSON.stringify(cells.rest)}`);
	assert.match(cells.reason, /stuck · $/);
	assert.equal(attentionLong(row.attention[0]!, 'unknown'), 'the agent is stuck');
	const header = renderSized(createElement(Header, {serverLabel: 'sim', demo: false, connection: listed.connection, counts: countConversations(listed), invalidItems: 0, width: 160}), {columns: 160, rows: 2});
	t.after(() => header.unmount());
	await waitForFrame(header.lastFrame, (text) => text.includes('⏱ data clock not known'));
	// Every server at once: a row of a server whose clock is not known reads `?` whatever the
	// view's clock, and the header names that server's clock beside its health.
	const tagged = {...row, server: {name: 'lab', stale: false, clockOffsetMs: 0, agesUnverified: true}};
	assert.match(conversationCells(tagged, conversationColumns(160, 3), Date.now()).rest, / +\? +\?$/);
	const fleetConnection = {...listed.connection, clockOffsetMs: 0, agesUnverified: false};
	const fleet = renderSized(
		createElement(Header, {serverLabel: 'every server', demo: false, connection: fleetConnection, servers: [{name: 'lab', label: 'lab', connection: listed.connection}, {name: 'work', label: 'work', connection: fleetConnection}], counts: countConversations(listed), invalidItems: 0, width: 160}),
		{columns: 160, rows: 2},
	);
	t.after(() => fleet.unmount());
	const fleetFrame = await waitForFrame(fleet.lastFrame, (text) => text.includes('lab'));
	assert.match(fleetFrame, /lab [^·]*⏱ clock not known · work /);

	// The agents write: the data's clock is learned from what changes, and ages come back.
	const writer = setInterval(() => sim.step(1), 150);
	t.after(() => clearInterval(writer));
	const learned = await waitFor(store, (snapshot) => snapshot.connection.clockSource === 'data', 'the data clock', 20_000);
	clearInterval(writer);
	assert.equal(learned.connection.agesUnverified, undefined, 'ages known');
	assert.ok(Math.abs(learned.connection.clockOffsetMs - skew) < 5000, `offset ${learned.connection.clockOffsetMs}`);
	// No quiet for an agent that wrote seconds ago on the data's clock; the count is what it was, or
	// more only by agents that have been quiet for real.
	for (const quiet of quietByAge(learned)) {
		const reason = quiet.attention.find((candidate) => candidate.kind === 'quiet')!;
		assert.ok(reason.kind === 'quiet' && reason.quietForMs < 86_400_000, `quiet ${reason.kind === 'quiet' ? reason.quietForMs : ''} ms: ${quiet.conversation.title}`);
	}
	assert.ok(countConversations(learned).needingAttention >= unverifiedCount);
});

test('with the Date header right and the data on it, ages are known from the first listing (the positive half)', {timeout: 60_000}, async (t) => {
	const {store} = await dashboardOnSimulator(t, {seed: 7, tickMs: 0, conversations: 24});
	const listed = await waitFor(store, (snapshot) => snapshot.conversationsListed && snapshot.conversations.size > 0, 'the list');
	assert.equal(listed.connection.agesUnverified, undefined);
	const row = [...listed.conversations.values()].find((candidate) => candidate.conversation.execution_status === 'running')!;
	assert.doesNotMatch(conversationCells(row, conversationColumns(160), Date.now() + listed.connection.clockOffsetMs).rest, /\?/);
});

test('an agent at work that writes nothing while ages are not known is quiet from what the dashboard watched, at least that long', {timeout: 60_000}, async (t) => {
	const {store} = await dashboardOnSimulator(t, {seed: 7, tickMs: 0, conversations: 24, dataClockOffsetMs: skew}, {dashboard: {quietAfterMs: 1500}});
	const first = await waitFor(store, (snapshot) => snapshot.conversationsListed && snapshot.conversations.size > 0, 'the list');
	assert.equal(first.connection.agesUnverified, true);
	assert.deepEqual(quietByAge(first), []);
	// Nothing changes for 1.5 s of polls (our clock): quiet, marked as a lower bound.
	const watched = await waitFor(store, (snapshot) => [...snapshot.conversations.values()].some((row) => row.attention.some((reason) => reason.kind === 'quiet' && reason.atLeast === true)), 'a watched quiet', 20_000);
	assert.deepEqual(quietByAge(watched), [], 'still none from an age');
	const reason = [...watched.conversations.values()].flatMap((row) => row.attention).find((candidate) => candidate.kind === 'quiet')!;
	assert.match(attentionLong(reason, 'unknown'), /^running but quiet for at least \d+s \(watched here; the data clock is not yet known\)$/);
});

test('a Date header three days behind the data: a row written a second ago is seconds old, never earlier than the data already seen', {timeout: 60_000}, async (t) => {
	const sim = await startSimulator({port: 0, seed: 7, tickMs: 0, conversations: 12, clockOffsetMs: -3 * day, dataClockOffsetMs: 0});
	// The agents write once just before the first listing; nothing changes after (no change to learn the clock from).
	sim.step(1);
	// A session of its own: its transport's clock hears only this server's Date headers.
	const session = openSession({baseUrl: sim.baseUrl, apiKey: new Secret(sim.apiKey), label: 'behind', demo: false}, {poll: {budget: fastPolling.budget!, intervals: fastPolling.intervals!}}, () => undefined);
	t.after(async () => {
		await session.close();
		await sim.close();
	});
	const listed = await waitFor(session.store, (snapshot) => snapshot.conversationsListed && snapshot.conversations.size > 0 && snapshot.connection.clockSource === 'date-header', 'the list, on the Date header');
	const serverNow = Date.now() + listed.connection.clockOffsetMs;
	const rows = [...listed.conversations.values()].map((row) => ({row, ageMs: serverNow - parseTime(row.conversation.updated_at)!}));
	const newest = rows.reduce((best, entry) => (entry.ageMs < best.ageMs ? entry : best));
	// The Date header alone would put now three days before the newest row (an age of about -259,199 s).
	assert.ok(newest.ageMs >= -2000 && newest.ageMs < 60_000, `the newest row is ${Math.round(newest.ageMs / 1000)} s old (offset ${listed.connection.clockOffsetMs} ms)`);
	assert.deepEqual(rows.filter((entry) => entry.ageMs < -2000).map((entry) => entry.row.conversation.title), [], 'no row written in the future');
	assert.equal(listed.connection.agesUnverified, undefined, 'the data backs the clock: ages known');
	// The positive half: the header really is three days behind ours.
	assert.ok(Math.abs(session.transport.clock.offsetMs() + 3 * day) < 5000, `the Date header's offset: ${session.transport.clock.offsetMs()} ms`);
});

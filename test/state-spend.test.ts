import assert from 'node:assert/strict';
import {test} from 'node:test';
import {budgetShare, CostHistory, costPerHour, roundRate, sessionCapMs, sessionTimeLeft} from '../source/state/spend.js';
import {probeProgress, spendingWithoutProgress, stampMs, type ProbeClient} from '../source/state/spend-progress.js';
import type {EventSearchParams} from '../source/wire/agent-client.js';
import type {WireEvent} from '../source/wire/schemas/events.js';
import {dashboardOnSimulator} from './helpers/sim-dashboard.js';
import {waitForSnapshot} from './helpers/store-wait.js';
import {eventually} from './helpers/eventually.js';

/**
 * Spend and its progress: cost per hour from the cost's change over time (servers' clock), the
 * share of the task budget, the time left before the 12-hour session cap, and *spending without
 * progress*: the cost rises while no action or observation comes, for --spend-after.
 */

const minute = 60_000;
const t0 = Date.UTC(2026, 10, 20, 12, 0, 0);

test('cost per hour: the rise over the window, per hour; unknown while the span is too short; it falls to 0 when spending stops', () => {
	const history = new CostHistory();
	history.observe('a', 1, t0);
	assert.equal(costPerHour(history.samples('a'), t0 + 10_000), null, '10 s say nothing');
	history.observe('a', 1.5, t0 + 5 * minute);
	history.observe('a', 1.5, t0 + 6 * minute);
	assert.equal(history.samples('a').length, 2, 'an unchanged cost adds no sample');
	history.observe('a', 2, t0 + 10 * minute);
	assert.equal(costPerHour(history.samples('a'), t0 + 10 * minute), 6, '$1 in 10 minutes is $6/h');
	// Nothing spent for the next 15 minutes: the rate over the last 15 minutes is what is left of it.
	assert.ok(Math.abs(costPerHour(history.samples('a'), t0 + 20 * minute)! - 2) < 1e-9, 'only what rose within the window counts: $0.50 in 15 minutes');
	assert.equal(costPerHour(history.samples('a'), t0 + 40 * minute), 0);
	assert.equal(costPerHour(history.samples('a'), t0 + 20 * minute, {windowMs: 5 * minute}), 0);
});

test('a cost polled every 200 ms keeps samples that span the window, not the last few seconds', () => {
	const history = new CostHistory();
	for (let at = 0; at <= 20 * minute; at += 200) history.observe('busy', at / minute, t0 + at);
	const samples = history.samples('busy');
	assert.ok(samples.length <= 128, `${samples.length} samples`);
	assert.ok(samples[0]!.at <= t0 + 20 * minute - 15 * minute, 'the oldest is older than the window');
	assert.ok(Math.abs(costPerHour(samples, t0 + 20 * minute)! - 60) < 1, '$1 a minute is $60/h');
});

test('cost per hour needs two observations that differ: creation is no observation, an unmoving cost has no rate', () => {
	const history = new CostHistory();
	history.observe('new', 0.5, t0 + 10 * minute);
	history.observe('new', 0.5, t0 + 14 * minute);
	// Created 10 minutes before it was first seen, and its cost never moved since: nothing was watched being spent.
	assert.equal(costPerHour(history.samples('new'), t0 + 14 * minute), null, 'one cost, seen twice: no rate');
	assert.equal(costPerHour(history.samples('new'), t0 + 40 * minute), null, 'nor later: a cost that never moved is not $0/h either');
	history.observe('new', 0.7, t0 + 15 * minute);
	assert.ok(Math.abs(costPerHour(history.samples('new'), t0 + 15 * minute)! - 2.4) < 1e-9, 'the second, different cost: $0.20 over the 5 minutes watched');
});

test('cost per hour: none for a conversation whose sandbox is not running, however its cost moved', () => {
	const history = new CostHistory();
	history.observe('a', 1, t0);
	history.observe('a', 2, t0 + 10 * minute);
	assert.equal(costPerHour(history.samples('a'), t0 + 10 * minute, {running: true}), 6);
	assert.equal(costPerHour(history.samples('a'), t0 + 10 * minute, {running: false}), null, 'PAUSED, ERROR, MISSING: no rate');
});

test('a clock that goes back (the data clock learned after the Date header) starts a new series, not a frozen one', () => {
	const history = new CostHistory();
	const skew = -24 * 86_400_000;
	history.observe('a', 1, t0);
	history.observe('a', 1.2, t0 + 10_000 + skew);
	history.observe('a', 1.5, t0 + 40_000 + skew);
	assert.deepEqual(history.samples('a').map((sample) => sample.cost), [1.2, 1.5]);
	assert.ok(costPerHour(history.samples('a'), t0 + 40_000 + skew)! > 0, 'a rate on the new clock');
});

test('rates are rounded to two significant digits, so wobbles make no new row', () => {
	assert.equal(roundRate(null), null);
	assert.equal(roundRate(0.001), 0);
	assert.equal(roundRate(0.1234), 0.12);
	assert.equal(roundRate(4.567), 4.6);
	assert.equal(roundRate(45.67), 46);
	assert.equal(roundRate(456.7), 457);
});

test('budget share and the time left before the 12-hour cap', () => {
	assert.equal(budgetShare(2.5, 10), 0.25);
	assert.equal(budgetShare(2.5, null), null);
	assert.equal(budgetShare(2.5, 0), null);
	assert.deepEqual(sessionTimeLeft({at: t0, exact: true}, t0 + 3 * 60 * minute), {ms: 9 * 60 * minute, atLeast: false});
	assert.deepEqual(sessionTimeLeft({at: t0, exact: false}, t0 + 3 * 60 * minute), {ms: 9 * 60 * minute, atLeast: true}, 'from its creation: at least');
	assert.deepEqual(sessionTimeLeft({at: t0, exact: true}, t0 + sessionCapMs + minute), {ms: 0, atLeast: false}, 'seen start, cap reached');
	assert.equal(sessionTimeLeft({at: t0, exact: false}, t0 + sessionCapMs + minute), null, 'created long ago and running: resumed since, unknown');
	assert.equal(sessionTimeLeft(null, t0), null);
});

test('spending without progress: the last progress at least N old and the cost still rising', () => {
	const history = new CostHistory();
	history.observe('a', 1, t0);
	history.observe('a', 1.4, t0 + 8 * minute);
	history.observe('a', 1.9, t0 + 12 * minute);
	const after = 10 * minute;
	const mark = {checkedAt: t0 + 12 * minute, stamp: 'x', progressAt: t0 + minute};
	assert.deepEqual(spendingWithoutProgress(history, 'a', mark, t0 + 12 * minute, after), {since: t0 + minute, spent: 0.9});
	assert.equal(spendingWithoutProgress(history, 'a', {...mark, progressAt: t0 + 5 * minute}, t0 + 12 * minute, after), null, 'progress 7 minutes ago');
	// A probe 5 minutes after progress knows nothing of the 7 minutes since: no flag until a probe sees 10.
	assert.equal(spendingWithoutProgress(history, 'a', {checkedAt: t0 + 6 * minute, stamp: 'x', progressAt: t0 + minute}, t0 + 12 * minute, after), null, 'what a probe did not see is not assumed');
	assert.equal(spendingWithoutProgress(history, 'a', mark, t0 + 30 * minute, after), null, 'the cost stopped rising 18 minutes ago');
	assert.equal(spendingWithoutProgress(history, 'a', null, t0 + 12 * minute, after), null, 'no probe yet');
});

test('naive stamps: only their differences are used, zoned or not', () => {
	assert.equal(stampMs('2026-11-20T12:00:30.123456')! - stampMs('2026-11-20T12:00:00')!, 30_123);
	assert.equal(stampMs('2026-11-20T12:00:00+01:00'), Date.UTC(2026, 10, 20, 11));
	assert.equal(stampMs('yesterday'), null);
});

function fakeServer(events: Array<Partial<WireEvent> & {kind: string; timestamp: string}>): ProbeClient & {calls: EventSearchParams[]} {
	const calls: EventSearchParams[] = [];
	return {
		calls,
		async searchEvents(params) {
			calls.push(params);
			const matching = events.filter((event) => !params.kind || event.kind === params.kind);
			const sorted = [...matching].sort((a, b) => a.timestamp.localeCompare(b.timestamp));
			if (params.sortOrder === 'TIMESTAMP_DESC') sorted.reverse();
			return {events: sorted.slice(0, params.limit ?? 100) as WireEvent[], invalid: [], nextPageId: null};
		},
	};
}

test('a probe finds the newest valid action or observation; invalid calls are not progress', async () => {
	const at = (second: number) => `2026-11-20T12:00:${String(second).padStart(2, '0')}.000000`;
	const server = fakeServer([
		{kind: 'MessageEvent', timestamp: at(0)},
		{kind: 'ActionEvent', timestamp: at(10), action: {kind: 'TerminalAction'}} as never,
		{kind: 'ObservationEvent', timestamp: at(12)},
		{kind: 'ActionEvent', timestamp: at(30), action: null} as never,
		{kind: 'AgentErrorEvent', timestamp: at(31)},
		{kind: 'ConversationStateUpdateEvent', timestamp: at(50)},
	]);
	assert.deepEqual(await probeProgress(server), {newest: at(50), progress: at(12)});
	assert.deepEqual(
		server.calls.map((call) => [call.kind ?? '*', call.sortOrder, call.limit]),
		[
			['*', 'TIMESTAMP_DESC', 1],
			['ActionEvent', 'TIMESTAMP_DESC', 10],
			['ObservationEvent', 'TIMESTAMP_DESC', 1],
		],
	);
	// An agent that never acted: its first event is where progress stopped.
	const idle = fakeServer([
		{kind: 'SystemPromptEvent', timestamp: at(1)},
		{kind: 'MessageEvent', timestamp: at(2)},
		{kind: 'ConversationStateUpdateEvent', timestamp: at(40)},
	]);
	assert.deepEqual(await probeProgress(idle), {newest: at(40), progress: at(1)});
});

test('against the simulator: the spender is flagged within --spend-after, its cost per hour shows; the long-runner, which acts, is not flagged', {timeout: 60_000}, async (t) => {
	const {sim, store} = await dashboardOnSimulator(t, {seed: 3, tickMs: 100, triageCases: true, sharedSandboxes: true}, {dashboard: {spendAfterMs: 2000}});
	const byScenario = (name: string) => sim.world.conversationList().find((conversation) => conversation.scenario === name)!.id;
	const spender = byScenario('spender');
	const longRunner = byScenario('long-runner');
	const flagged = await waitForSnapshot(store, (snapshot) => snapshot.conversations.get(spender)?.attention.some((reason) => reason.kind === 'spending') === true, 'the spender flagged');
	const reason = flagged.conversations.get(spender)!.attention.find((reason) => reason.kind === 'spending')!;
	assert.ok(reason.kind === 'spending' && reason.spent >= 0, JSON.stringify(reason));
	// Cost per hour once the polls span 20 s of the servers' clock.
	const rated = await waitForSnapshot(store, (snapshot) => (snapshot.conversations.get(spender)?.costPerHour ?? 0) > 0, 'a cost per hour for the spender', 45_000);
	// The long-runner spends too, but acts all the time: probed every few seconds by now, never flagged.
	const runner = rated.conversations.get(longRunner)!;
	assert.ok((runner.costPerHour ?? 0) > 0, 'the long-runner spends too');
	assert.ok(!runner.attention.some((entry) => entry.kind === 'spending'), JSON.stringify(runner.attention));
	assert.ok(rated.conversations.get(spender)!.attention.some((entry) => entry.kind === 'spending'), 'the spender is still flagged');
});

test('against the simulator: a git change is progress; the spender\'s flag goes when a file is written in its repository, and comes back once the writing stops', {timeout: 90_000}, async (t) => {
	const {sim, store} = await dashboardOnSimulator(t, {seed: 3, tickMs: 100, triageCases: true, sharedSandboxes: true}, {dashboard: {spendAfterMs: 2000}});
	const spender = sim.world.conversationList().find((conversation) => conversation.scenario === 'spender')!;
	const flaggedNow = (snapshot: Parameters<Parameters<typeof waitForSnapshot>[1]>[0]) => snapshot.conversations.get(spender.id)?.attention.some((reason) => reason.kind === 'spending') === true;
	await waitForSnapshot(store, flaggedNow, 'the spender flagged (no action, no observation, no git change)');
	// Something writes in its repository (a build, a person): the next probe sees the changed files move.
	sim.world.writeFile(spender, 'pricing/cache.py', 'CACHE = {}\n');
	await waitForSnapshot(store, (snapshot) => !flaggedNow(snapshot), 'the flag gone once the git change is seen', 45_000);
	// Nothing more is written, the cost keeps rising: flagged again after --spend-after.
	await waitForSnapshot(store, flaggedNow, 'flagged again without further progress', 45_000);
});

test('a candidate is probed once at a time: polls while its probe is out do not send another', async () => {
	const {SpendWatch} = await import('../source/state/spend-progress.js');
	const {appConversationSchema} = await import('../source/wire/schemas/app.js');
	let now = t0;
	let searches = 0;
	let release!: () => void;
	const held = new Promise<void>((resolve) => (release = resolve));
	const changed: string[] = [];
	const watch = new SpendWatch({
		afterMs: 60_000,
		now: () => now,
		changed: (key) => changed.push(key),
		client: () => ({
			async searchEvents() {
				searches++;
				await held;
				return {events: [{kind: 'ObservationEvent', id: 'o', source: 'environment', timestamp: '2026-11-20T12:00:00'}] as never, invalid: [], nextPageId: null};
			},
		}),
	});
	const at = (cost: number) => appConversationSchema.parse({id: 'a'.repeat(32), sandbox_status: 'RUNNING', execution_status: 'running', metrics: {accumulated_cost: cost}});
	watch.observe('a', at(1), 'running');
	now += 15_000;
	watch.observe('a', at(2), 'running');
	assert.equal(searches, 3, 'one probe: three reads');
	for (let poll = 0; poll < 5; poll++) {
		now += 1000;
		watch.observe('a', at(2 + poll), 'running');
	}
	assert.equal(searches, 3, 'no second probe while the first is out');
	release();
	// Once it answers, the next probe waits its interval: nothing was queued behind the first. The
	// answer is seen (its row recomputed) from a timer, so anything queued behind it has run by then.
	await eventually(() => changed.includes('a'), 'the probe answered');
	watch.observe('a', at(9), 'running');
	assert.equal(searches, 3, 'polls during the probe queued nothing');
	watch.close();
});

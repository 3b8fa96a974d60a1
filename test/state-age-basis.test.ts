import assert from 'node:assert/strict';
import {test} from 'node:test';
import {createElement} from 'react';
import {formatAgeAt} from '../source/format/time.js';
import {parseClockOffset} from '../source/simulator/clock.js';
import type {SimConversation} from '../source/simulator/world-types.js';
import {countConversations} from '../source/state/conversation-query.js';
import type {DashboardSnapshot} from '../source/state/dashboard-types.js';
import {normalizeId} from '../source/wire/ids.js';
import {attentionShort} from '../source/view/attention-text.js';
import {Header} from '../source/view/Header.js';
import {stillFleet, writingLongRunner} from './helpers/age-fixtures.js';
import {renderSized, waitForFrame} from './helpers/ink.js';
import {dashboardOnSimulator} from './helpers/sim-dashboard.js';
import {waitForSnapshot as waitFor} from './helpers/store-wait.js';

/**
 * One rule for every age (state/age-basis.ts), against the simulator: with its data clock weeks
 * behind its right `Date` header, no frame tells a skewed age as known, and LAST of a watched
 * conversation is on the data clock (so it turns quiet); with both clocks right and nothing
 * moving, ages are told and said to be assumed (not `?`), quiet agents are quiet, and no spend
 * is shown until a cost moves: then a rate after the second differing observation, only for a
 * conversation whose sandbox runs, and the header's total is the sum of the rows' rates.
 */

const skew = parseClockOffset('-24d31s')!;

const rows = (snapshot: DashboardSnapshot) => [...snapshot.conversations.values()];
/** Now as the view reads it for this snapshot (view/Dashboard.tsx). */
const viewNow = (snapshot: DashboardSnapshot) => (snapshot.connection.agesUnverified ? ('unknown' as const) : Date.now() + snapshot.connection.clockOffsetMs);

test('data clock weeks behind the Date header: no frame tells a skewed age unmarked; LAST of a watched conversation is on the data clock and turns quiet', {timeout: 60_000}, async (t) => {
	const {sim, store, controller} = await dashboardOnSimulator(t, {seed: 3, tickMs: 0, conversations: 8, dataClockOffsetMs: skew}, {dashboard: {quietAfterMs: 4000}});
	// Every frame from the first: what the reasons say with their ages, as the view draws them.
	const told: string[] = [];
	const unsubscribe = store.subscribe(() => {
		const snapshot = store.getSnapshot();
		const marked = snapshot.connection.agesUnverified === true || snapshot.connection.agesAssumed === true || snapshot.connection.clockSource === 'data';
		for (const row of rows(snapshot)) {
			for (const reason of row.attention) {
				const text = attentionShort(reason, viewNow(snapshot));
				if (!marked && /\b\d+d\b/.test(text)) told.push(`v${snapshot.version}: ${text}`);
			}
		}
	});
	t.after(unsubscribe);
	const listed = await waitFor(store, (snapshot) => snapshot.conversationsListed && snapshot.conversations.size === 8, 'the list');
	assert.equal(listed.connection.agesUnverified, true, 'agents at work, nothing written in 12 h by the header: ?');
	// The agent works for a while, the stream delivering each step, then stops.
	const {key, stop} = await writingLongRunner(t, {sim, store, controller});
	const learned = await waitFor(store, (snapshot) => snapshot.connection.clockSource === 'data' && (snapshot.conversations.get(key)?.lastActivityAt ?? 0) > 0, 'the data clock', 20_000);
	stop();
	const row = learned.conversations.get(key)!;
	const serverNow = Date.now() + learned.connection.clockOffsetMs;
	assert.ok(row.lastActivityAt! <= serverNow + 2000, `LAST ${row.lastActivityAt! - serverNow} ms in the data's future`);
	assert.ok(serverNow - row.lastActivityAt! < 60_000, 'and seconds old');
	// Nothing more is written: after quietAfterMs the watched conversation is quiet, like any other.
	const quiet = await waitFor(store, (snapshot) => snapshot.conversations.get(key)?.attention.some((reason) => reason.kind === 'quiet') === true, 'the watched conversation quiet', 20_000);
	const reason = quiet.conversations.get(key)!.attention.find((candidate) => candidate.kind === 'quiet')!;
	assert.ok(reason.kind === 'quiet' && reason.quietForMs < 60_000, JSON.stringify(reason));
	assert.deepEqual(told, [], 'no unmarked age of days');
});

test('both clocks right and nothing moving: ages told and marked assumed, quiet agents quiet, no spend; a moving cost gets a rate after its second observation, a PAUSED or ERROR one none', {timeout: 90_000}, async (t) => {
	// The fleet is shaped before the dashboard's first poll (the helper calls this first).
	const shaped: {paused?: SimConversation; errored?: SimConversation} = {};
	const {sim, store} = await dashboardOnSimulator(t, {seed: 7, tickMs: 0, conversations: 24}, {
		dashboard: (simulator) => {
			stillFleet(simulator);
			// A paused and an errored conversation created five minutes ago, with a cost: created in
			// the rate's window, yet nothing was watched being spent.
			const byStatus = (status: string) => simulator.world.conversationList().find((entry) => simulator.world.findSandbox(entry.sandboxId)?.status === status)!;
			shaped.paused = byStatus('PAUSED');
			shaped.errored = byStatus('ERROR');
			for (const entry of [shaped.paused, shaped.errored]) {
				entry.createdAt = Date.now() - 5 * 60_000;
				entry.updatedAt = Date.now() - 4 * 60_000;
			}
			return {};
		},
	});
	const paused = shaped.paused!;
	const errored = shaped.errored!;
	assert.ok(Number(sim.world.usage(paused).metrics.cost) > 0 && Number(sim.world.usage(errored).metrics.cost) > 0, 'both have a cost');
	const listed = await waitFor(store, (snapshot) => snapshot.conversationsListed && snapshot.sandboxesListed && snapshot.conversations.size === 24 && rows(snapshot).every((row) => row.conversation.updated_at !== null), 'the list');
	assert.equal(listed.connection.agesUnverified, undefined, 'not ?: nothing contradicts the Date header');
	assert.equal(listed.connection.agesAssumed, true, 'and nothing confirms it: assumed');
	const atWork = rows(listed).filter((row) => row.conversation.execution_status === 'running' && row.conversation.sandbox_status === 'RUNNING');
	assert.ok(atWork.length >= 3, `agents at work: ${atWork.length}`);
	for (const row of atWork) assert.ok(row.attention.some((reason) => reason.kind === 'quiet' && !reason.atLeast), `${row.conversation.title} quiet from its age`);
	assert.deepEqual(rows(listed).filter((row) => typeof row.costPerHour === 'number').map((row) => `${row.conversation.title} ${row.conversation.sandbox_status} ${row.costPerHour}`), [], 'no cost moved: no rate');
	assert.equal(countConversations(listed).costPerHour ?? null, null, 'and no total');
	const header = renderSized(createElement(Header, {serverLabel: 'sim', demo: false, connection: listed.connection, counts: countConversations(listed), invalidItems: 0, width: 200}), {columns: 200, rows: 2});
	t.after(() => header.unmount());
	const frame = await waitForFrame(header.lastFrame, (text) => text.includes('need you'));
	assert.match(frame, /⏱ ages assumed \(Date header\)/);
	assert.doesNotMatch(frame, /\/h/);

	// One running agent's cost moves, and so does the paused one's (a late report): only the running one gets a rate.
	const mover = sim.world.conversationList().find((entry) => normalizeId(entry.id) === atWork[0]!.key)!;
	const moverKey = atWork[0]!.key;
	sim.world.usage(mover).metrics.cost += 0.5;
	sim.world.usage(paused).metrics.cost += 0.5;
	const moved = await waitFor(store, (snapshot) => Number(snapshot.conversations.get(moverKey)?.conversation.metrics?.accumulated_cost) !== Number(atWork[0]!.conversation.metrics?.accumulated_cost), 'the new cost');
	assert.equal(moved.conversations.get(moverKey)!.costPerHour ?? null, null, 'a change seen once, over less than 20 s: no rate yet');
	const rated = await waitFor(store, (snapshot) => typeof snapshot.conversations.get(moverKey)?.costPerHour === 'number', 'a rate', 40_000);
	const rate = rated.conversations.get(moverKey)!.costPerHour!;
	assert.ok(rate > 0, `rate ${rate}`);
	const withRates = rows(rated).filter((row) => typeof row.costPerHour === 'number');
	assert.deepEqual(withRates.map((row) => row.key), [moverKey], 'only the one whose cost moved in a running sandbox');
	assert.equal(countConversations(rated).costPerHour, rate, 'the total is the sum of the rates shown');
	assert.equal(rated.conversations.get(normalizeId(paused.id))!.costPerHour ?? null, null, 'PAUSED: none');
	assert.equal(rated.conversations.get(normalizeId(errored.id))!.costPerHour ?? null, null, 'ERROR: none');
});

test('data clock weeks behind, the agents at work only on the last page: the first pages tell no age either (no `stuck 27d`, then `?`)', {timeout: 60_000}, async (t) => {
	const {store} = await dashboardOnSimulator(t, {seed: 3, tickMs: 0, conversations: 240, dataClockOffsetMs: parseClockOffset('-27d')!}, {
		dashboard: (simulator) => {
			// Agents at work are what contradicts the header: listed last (the search answers in the
			// world's order), after a stuck one on page 1.
			const list = simulator.world.conversationList() as SimConversation[];
			const atWork = list.filter((entry) => simulator.world.findSandbox(entry.sandboxId)?.status === 'RUNNING' && (simulator.world.agent(entry), entry.executionStatus === 'running'));
			const rest = list.filter((entry) => !atWork.includes(entry));
			list.splice(0, list.length, ...rest, ...atWork);
			return {};
		},
	});
	const told: string[] = [];
	const record = () => {
		const snapshot = store.getSnapshot();
		for (const row of rows(snapshot)) {
			for (const text of [...row.attention.map((reason) => attentionShort(reason, viewNow(snapshot))), formatAgeAt(viewNow(snapshot), row.lastActivityAt)]) {
				if (/\b\d+d\b/.test(text)) told.push(`v${snapshot.version} (${snapshot.conversations.size} rows): ${text}`);
			}
		}
	};
	const unsubscribe = store.subscribe(record);
	t.after(unsubscribe);
	const firstPage = await waitFor(store, (snapshot) => snapshot.conversations.size > 0, 'the first page');
	assert.ok(!firstPage.conversationsListed && firstPage.conversations.size <= 100, `the first page alone: ${firstPage.conversations.size}`);
	assert.ok(rows(firstPage).some((row) => row.attention.some((reason) => reason.kind === 'stuck')), 'a stuck one on it');
	const listed = await waitFor(store, (snapshot) => snapshot.conversationsListed, 'every page');
	assert.equal(listed.connection.agesUnverified, true, 'the last page contradicts the header');
	assert.deepEqual(told.slice(0, 5), [], 'no frame told an age of days');
	// The positive half: the same rows on the header's clock would say days.
	assert.ok(rows(listed).some((row) => /\b2\dd\b/.test(formatAgeAt(Date.now(), row.lastActivityAt))));
});

import assert from 'node:assert/strict';
import {test, type TestContext} from 'node:test';
import {parseClockOffset} from '../source/simulator/clock.js';
import type {Simulator, SimulatorOptions} from '../source/simulator/server.js';
import type {DashboardSnapshot} from '../source/state/dashboard-types.js';
import {qualifyKey} from '../source/state/server-keys.js';
import {conversationCells, conversationColumns} from '../source/view/conversation-cells.js';
import {normalizeId} from '../source/wire/ids.js';
import {twoServers as twoServersPolled} from './helpers/sim-fleet.js';
import {waitForSnapshot} from './helpers/store-wait.js';

/**
 * The all-servers view (state/fleet-store.ts) over real sessions against two simulators: one list
 * with every server's rows, each keyed and tagged by its server; actions go to the server a row
 * came from; one server down marks its own rows stale and nothing else.
 */

const poll = {budget: {perSecond: 200, perMinute: 10_000}, intervals: {refreshMs: 200, sandboxesMs: 300, sandboxesPendingMs: 100, searchMs: 60_000, retryBaseMs: 100, retryCapMs: 400}};
const day = 86_400_000;

const twoServers = (t: TestContext, a: SimulatorOptions, b: SimulatorOptions) => twoServersPolled(t, a, b, poll);

const rowsOf = (snapshot: DashboardSnapshot, server: string) => [...snapshot.conversations.values()].filter((row) => row.server?.name === server);

test('one list holds both servers\' rows, each keyed and tagged by its server, even where the two hold the same ids', {timeout: 60_000}, async (t) => {
	// The same seed: both servers hold the very same conversation and sandbox ids.
	// With sub-agents: a child names its parent by id, and a parent its waiting child.
	const {work, fleet} = await twoServers(t, {seed: 5, conversations: 14, fleetShapes: true}, {seed: 5, conversations: 14, fleetShapes: true});
	const each = work.world.conversationList().length;
	const snapshot = await waitForSnapshot(fleet.store, (s) => s.conversations.size === 2 * each && s.sandboxesListed && s.conversationsListed, 'both servers listed');
	assert.deepEqual(snapshot.servers?.map((server) => server.name), ['work', 'lab']);
	assert.equal(rowsOf(snapshot, 'work').length, each);
	assert.equal(rowsOf(snapshot, 'lab').length, each);
	const child = rowsOf(snapshot, 'lab').find((row) => row.conversation.parent_conversation_id)!;
	assert.ok(child, 'a sub-agent on lab');
	assert.equal(snapshot.conversations.get(String(child.conversation.parent_conversation_id))?.server?.name, 'lab', 'its parent is lab\'s');
	const raised = rowsOf(snapshot, 'lab').flatMap((row) => row.attention).find((reason) => reason.kind === 'sub_agent');
	assert.ok(raised?.kind === 'sub_agent' && snapshot.conversations.get(raised.child.key)?.server?.name === 'lab', 'the raised parent names lab\'s child');
	const id = normalizeId(work.world.conversationList()[0]!.id);
	const ofWork = snapshot.conversations.get(qualifyKey(id, 'work'))!;
	const ofLab = snapshot.conversations.get(qualifyKey(id, 'lab'))!;
	assert.equal(ofWork.server?.name, 'work');
	assert.equal(ofLab.server?.name, 'lab');
	// Each row finds its own server's sandbox.
	const sandboxOf = (row: typeof ofWork) => snapshot.sandboxes.get(String(row.conversation.sandbox_id));
	assert.equal(sandboxOf(ofWork)?.server?.name, 'work');
	assert.equal(sandboxOf(ofLab)?.server?.name, 'lab');
	assert.ok(sandboxOf(ofWork)!.conversationKeys.includes(ofWork.key));
	assert.equal(snapshot.sandboxes.size, 2 * work.world.sandboxList().length);
	assert.equal(snapshot.runningSandboxCap, null, 'no one cap across servers');
});

test('an action goes to the server its row came from, with that server\'s key', {timeout: 60_000}, async (t) => {
	const {work, lab, fleet} = await twoServers(t, {seed: 5, conversations: 14, apiKey: 'work-key'}, {seed: 5, conversations: 14, apiKey: 'lab-key'});
	const waiting = (sim: Simulator) => sim.world.conversationList().find((conversation) => conversation.scenario === 'confirmation')!;
	const id = normalizeId(waiting(work).id);
	assert.equal(id, normalizeId(waiting(lab).id), 'the same conversation id on both');
	await waitForSnapshot(fleet.store, (s) => s.conversations.get(qualifyKey(id, 'lab'))?.agentStatus === 'waiting_for_confirmation' && s.conversations.size === 28, 'lab waiting');
	await fleet.controller.approve!(qualifyKey(id, 'lab'));
	const after = await waitForSnapshot(fleet.store, (s) => s.conversations.get(qualifyKey(id, 'lab'))?.agentStatus !== 'waiting_for_confirmation', 'lab approved');
	assert.notEqual(lab.world.findConversation(id)!.executionStatus, 'waiting_for_confirmation', 'approved on lab');
	assert.equal(work.world.findConversation(id)!.executionStatus, 'waiting_for_confirmation', 'work untouched');
	assert.equal(after.conversations.get(qualifyKey(id, 'work'))?.agentStatus, 'waiting_for_confirmation');
	// A sandbox action too: pause on work only.
	const sandboxId = work.world.findConversation(id)!.sandboxId;
	await fleet.controller.pauseSandbox(qualifyKey(normalizeId(sandboxId), 'work'));
	await waitForSnapshot(fleet.store, (s) => String(s.sandboxes.get(qualifyKey(normalizeId(sandboxId), 'work'))?.sandbox.status) === 'PAUSED', 'work sandbox paused');
	assert.equal(lab.world.findSandbox(sandboxId)!.status, 'RUNNING', 'lab sandbox untouched');
	// A side question too: asked of lab's agent only.
	const asked = {work: work.world.askCount, lab: lab.world.askCount};
	assert.match(await fleet.controller.askAgent!(qualifyKey(id, 'lab'), 'what now?'), /You asked: "what now\?"/);
	assert.deepEqual({work: work.world.askCount, lab: lab.world.askCount}, {work: asked.work, lab: asked.lab + 1});
	// The second server's row: pause then resume go to lab, not to the first server in the list.
	const calls = (sim: Simulator, action: 'pause' | 'resume') => sim.stats.byRoute[`POST /api/v1/sandboxes/:id/${action}`] ?? 0;
	const labKey = qualifyKey(normalizeId(sandboxId), 'lab');
	await fleet.controller.pauseSandbox(labKey);
	assert.deepEqual({work: calls(work, 'pause'), lab: calls(lab, 'pause')}, {work: 1, lab: 1}, 'lab\'s pause reached lab');
	await waitForSnapshot(fleet.store, (s) => String(s.sandboxes.get(labKey)?.sandbox.status) === 'PAUSED', 'lab sandbox paused');
	await fleet.controller.resumeSandbox(labKey);
	assert.deepEqual({work: calls(work, 'resume'), lab: calls(lab, 'resume')}, {work: 0, lab: 1}, 'lab\'s resume reached lab');
	await waitForSnapshot(fleet.store, (s) => String(s.sandboxes.get(labKey)?.sandbox.status) === 'RUNNING', 'lab sandbox running again');
	assert.equal(work.world.findSandbox(sandboxId)!.status, 'PAUSED', 'work sandbox still paused');
	await assert.rejects(async () => fleet.controller.approve!(qualifyKey(id, 'elsewhere')), /not a row of any server/);
});

test('one server down marks its own rows stale and leaves the other updating', {timeout: 60_000}, async (t) => {
	const {work, lab, fleet} = await twoServers(t, {seed: 5, conversations: 10}, {seed: 6, conversations: 10});
	await waitForSnapshot(fleet.store, (s) => s.conversations.size === 20, 'both listed');
	await lab.close();
	const down = await waitForSnapshot(fleet.store, (s) => rowsOf(s, 'lab').every((row) => row.server?.stale), 'lab rows stale');
	assert.equal(rowsOf(down, 'lab').length, 10, 'lab rows kept, as last known');
	assert.ok(rowsOf(down, 'work').every((row) => row.server?.stale === false), 'work rows not stale');
	const labState = down.servers!.find((server) => server.name === 'lab')!.connection;
	assert.ok(labState.health === 'stale' || labState.health === 'offline', labState.health);
	assert.notEqual(down.connection.health, 'offline', 'the view as a whole still answers');
	assert.match(down.connection.lastError ?? '', /^lab: /);
	// work still updates: a step on its server reaches its rows.
	const before = rowsOf(down, 'work').map((row) => row.conversation.updated_at).join();
	work.step(5);
	await waitForSnapshot(fleet.store, (s) => rowsOf(s, 'work').map((row) => row.conversation.updated_at).join() !== before, 'work rows updated');
	const cells = conversationCells(rowsOf(down, 'lab')[0]!, conversationColumns(100, 4), Date.now());
	assert.match(cells.server ?? '', /^! lab/);
	assert.equal(cells.stale, true);
});

test('each server\'s rows are aged by its own clock', {timeout: 60_000}, async (t) => {
	const {fleet} = await twoServers(t, {seed: 5, conversations: 10}, {seed: 6, conversations: 10, clockOffsetMs: parseClockOffset('-21d')!});
	const snapshot = await waitForSnapshot(
		fleet.store,
		(s) => s.conversations.size === 20 && Math.abs((rowsOf(s, 'lab')[0]?.server?.clockOffsetMs ?? 0) + 21 * day) < 5000,
		'lab three weeks behind',
	);
	assert.equal(snapshot.connection.clockOffsetMs, 0, 'no one offset for the whole view');
	assert.ok(Math.abs(rowsOf(snapshot, 'work')[0]!.server!.clockOffsetMs) < 5000);
	// The newest lab conversation is minutes old by lab's clock, not three weeks.
	const newest = rowsOf(snapshot, 'lab').sort((a, b) => String(b.conversation.created_at).localeCompare(String(a.conversation.created_at)))[0]!;
	const cells = conversationCells(newest, conversationColumns(100, 4), Date.now());
	assert.doesNotMatch(cells.rest, /\b2\dd\b/, cells.rest);
});

test('rows a server sent that cannot be read: the all-servers view has them, from each server', async (t) => {
	const {work, lab, fleet} = await twoServers(t, {seed: 3, conversations: 3}, {seed: 4, conversations: 2});
	work.faults.unreadableRows(1);
	lab.faults.unreadableRows(2);
	fleet.controller.refresh();
	const snapshot = await waitForSnapshot(fleet.store, (next) => (next.unreadableRows?.length ?? 0) === 3, 'three unreadable rows');
	const ids = new Set(snapshot.unreadableRows!.map((row) => row.id));
	for (const row of [...work.world.conversationList().slice(0, 1), ...lab.world.conversationList().slice(0, 2)]) assert.ok(ids.has(row.id), row.id);
	assert.equal(snapshot.invalidItems, 3);
});

import assert from 'node:assert/strict';
import diagnostics from 'node:diagnostics_channel';
import {test} from 'node:test';
import {FinalResponses} from '../source/state/final-responses.js';
import {RequestBudget} from '../source/state/request-budget.js';
import {normalizeId} from '../source/wire/ids.js';
import {appConversationSchema, type AppConversation} from '../source/wire/schemas/app.js';
import {eventually} from './helpers/eventually.js';
import {dashboardOnSimulator} from './helpers/sim-dashboard.js';
import {waitForSnapshot} from './helpers/store-wait.js';

/**
 * Ask without disturbing: `ask_agent` answers while the conversation's status and event count
 * stay as they were; a stopped sandbox is refused and never resumed; the agents' last answers
 * (`agent_final_response`) are read only for rows on screen whose sandbox runs, within a share
 * of the request budget.
 */

/** Agent-server paths the process sends from now on (undici's diagnostics channel). */
function recordPaths(t: {after(fn: () => void): void}): string[] {
	const paths: string[] = [];
	const listener = (message: unknown) => paths.push((message as {request: {path: string}}).request.path);
	diagnostics.subscribe('undici:request:create', listener);
	t.after(() => diagnostics.unsubscribe('undici:request:create', listener));
	return paths;
}

test('ask_agent answers; the status and the event count stay the same, on the server and in the list', {timeout: 60_000}, async (t) => {
	const {sim, store, controller} = await dashboardOnSimulator(t, {seed: 7, tickMs: 0, conversations: 14});
	const waiting = sim.world.conversationList().find((conversation) => conversation.scenario === 'confirmation')!;
	const key = normalizeId(waiting.id);
	await waitForSnapshot(store, (snapshot) => snapshot.conversations.get(key)?.agentStatus === 'waiting_for_confirmation', 'the waiting conversation listed');
	const eventsBefore = sim.world.events(waiting).length;
	const asksBefore = sim.world.askCount;

	const answer = await controller.askAgent!(key, 'what are you blocked on?');
	assert.match(answer, /blocked on your approval/);
	assert.match(answer, /rm -rf build/, 'it names what it waits for');
	assert.equal(sim.world.askCount, asksBefore + 1, 'the server was asked');
	assert.equal(sim.world.events(waiting).length, eventsBefore, 'no event recorded');
	assert.equal(sim.world.findConversation(key)!.executionStatus, 'waiting_for_confirmation', 'status untouched');
	// The list agrees after a refresh (a positive check that it is still read: it is waiting).
	controller.refresh();
	await waitForSnapshot(store, (snapshot) => snapshot.conversations.get(key)?.agentStatus === 'waiting_for_confirmation' && snapshot.version > 0, 'still waiting in the list');
	await assert.rejects(controller.askAgent!(key, '   '), /empty question/);
});

test('asking a conversation whose sandbox is paused is refused, and nothing resumes it', {timeout: 60_000}, async (t) => {
	const {sim, store, controller} = await dashboardOnSimulator(t, {seed: 7, tickMs: 0, conversations: 14});
	const paths = recordPaths(t);
	const paused = sim.world.conversationList().find((conversation) => sim.world.findSandbox(conversation.sandboxId)?.status === 'PAUSED')!;
	const key = normalizeId(paused.id);
	await waitForSnapshot(store, (snapshot) => snapshot.conversations.get(key)?.conversation.sandbox_status === 'PAUSED', 'the paused conversation listed');
	await assert.rejects(controller.askAgent!(key, 'are you there?'), /PAUSED, not RUNNING: resume the sandbox first/);
	assert.equal(sim.world.findSandbox(paused.sandboxId)!.status, 'PAUSED');
	assert.ok(!paths.some((path) => path.includes('/resume') || path.includes('ask_agent')), `no resume and no ask sent: ${paths.filter((path) => !path.includes('app-conversations')).join(', ')}`);
});

test('last answers are read for rows on screen with a running sandbox only, and show in the snapshot', {timeout: 60_000}, async (t) => {
	const {sim, store, controller} = await dashboardOnSimulator(t, {seed: 7, tickMs: 0, conversations: 14});
	const paths = recordPaths(t);
	const running = sim.world.conversationList().filter((conversation) => sim.world.findSandbox(conversation.sandboxId)?.status === 'RUNNING');
	// A running conversation that has said something (finished), and one that has not yet been shown.
	const said = running.find((conversation) => conversation.executionStatus === 'finished' || sim.world.events(conversation).some((event) => event.kind === 'MessageEvent' && event.source === 'agent'))!;
	const hidden = running.find((conversation) => conversation !== said)!;
	await waitForSnapshot(store, (snapshot) => snapshot.conversations.size === 14, 'listed');
	controller.setVisibleConversations([normalizeId(said.id)]);
	const snapshot = await waitForSnapshot(store, (s) => (s.answers?.get(normalizeId(said.id)) ?? '') !== '', 'the last answer read');
	assert.ok(snapshot.answers!.get(normalizeId(said.id))!.length > 0);
	const readIds = () => paths.flatMap((path) => /\/api\/conversations\/([^/]+)\/agent_final_response/.exec(path)?.[1] ?? []).map(normalizeId);
	const reads = readIds();
	assert.ok(reads.includes(normalizeId(said.id)), 'the shown running row was read');
	assert.ok(!reads.includes(normalizeId(hidden.id)), 'a row not on screen is not read');
	// Shown again with nothing new: not read again.
	const count = reads.length;
	controller.setVisibleConversations([]);
	controller.setVisibleConversations([normalizeId(said.id)]);
	controller.refresh();
	await waitForSnapshot(store, (s) => s.version > snapshot.version, 'a later snapshot');
	assert.equal(readIds().length, count, 'an unchanged conversation is not read again');
});

const conversation = (id: string, updatedAt: string): AppConversation =>
	appConversationSchema.parse({id, title: id, sandbox_id: `sb-${id}`, sandbox_status: 'RUNNING', conversation_url: `http://agent.test/api/conversations/${id}`, updated_at: updatedAt, created_at: updatedAt});

test('last answers take a bounded share of the budget: at most perMinute reads, background priority, again only after a change', {timeout: 10_000}, async () => {
	let now = 1_000_000;
	const budget = new RequestBudget({now: () => now});
	const rows = new Map(Array.from({length: 8}, (_, index) => [`c${index}`, conversation(`c${index}`, '2026-11-01T00:00:00')]));
	const asked: string[] = [];
	let changes = 0;
	const answers = new FinalResponses({
		budget,
		now: () => now,
		perMinute: 3,
		minIntervalMs: 30_000,
		conversation: (key) => rows.get(key),
		client: (row) => ({finalResponse: async () => (asked.push(row.id), `answer of ${row.id}`)}),
		onChange: () => changes++,
	});
	answers.show([...rows.keys()]);
	await eventually(() => answers.answers.size === 3, 'three answers');
	assert.deepEqual(asked, ['c0', 'c1', 'c2'], 'three reads in the first minute, not eight');
	assert.ok(changes >= 1);
	// A minute later the rest may go, and the ones read do not go again while unchanged.
	now += 61_000;
	answers.changed();
	await eventually(() => asked.length === 6, 'three more');
	assert.deepEqual(asked.slice(3), ['c3', 'c4', 'c5']);
	now += 61_000;
	rows.set('c0', conversation('c0', '2026-11-01T00:05:00'));
	answers.changed();
	await eventually(() => asked.length === 9, 'the two unread, and c0 that changed');
	assert.deepEqual(asked.slice(6), ['c0', 'c6', 'c7'], 'c1-c5 are not read again: unchanged');
	budget.close();
	answers.close();
});

import {test} from 'node:test';
import assert from 'node:assert/strict';
import {createConversationActions} from '../source/state/conversation-actions.js';
import {searchAcross, type SearchHit, type SearchProgress} from '../source/state/event-search.js';
import {normalizeId} from '../source/wire/ids.js';
import {AppClient} from '../source/wire/app-client.js';
import type {AppConversation} from '../source/wire/schemas/app.js';
import {RequestBudget} from '../source/state/request-budget.js';
import type {Simulator} from '../source/simulator/server.js';
import {startTestSimulator} from './helpers/sim-harness.js';

/** Approve, reject, nudge and search across conversations, over real HTTP to the simulator's agent servers. */

async function loaded(simulator: {baseUrl: string; apiKey: string}) {
	const client = new AppClient({baseUrl: simulator.baseUrl, apiKey: simulator.apiKey, maxRetries: 0});
	const conversations = await client.listConversations();
	await client.close();
	return new Map(conversations.map((conversation) => [normalizeId(conversation.id), conversation]));
}

function actionsOver(simulator: {baseUrl: string; apiKey: string}, rows: Map<string, AppConversation>, accepted: string[]) {
	return createConversationActions({appBaseUrl: simulator.baseUrl, secrets: [simulator.apiKey], conversation: (key) => rows.get(key), onAccepted: (key) => accepted.push(key)});
}

test('reject with a reason and nudge reach the agent server; a stopped sandbox is refused with a reason', async (t) => {
	const simulator = await startTestSimulator(t, {seed: 7, conversations: 30});
	const rows = await loaded(simulator);
	const accepted: string[] = [];
	const actions = actionsOver(simulator, rows, accepted);
	const waiting = [...rows.values()].find((conversation) => conversation.execution_status === 'waiting_for_confirmation');
	assert.ok(waiting, 'the seeded world has a conversation waiting for confirmation');
	const key = normalizeId(waiting.id);

	await actions.reject(key, 'not on main');
	const events = JSON.stringify(simulator.world.events(waiting.id));
	assert.match(events, /UserRejectObservation/);
	assert.match(events, /not on main/);
	await actions.nudge(key, 'use a branch instead');
	assert.match(JSON.stringify(simulator.world.events(waiting.id)), /use a branch instead/);
	assert.deepEqual(accepted, [key, key]);

	const stopped = [...rows.values()].find((conversation) => !conversation.conversation_url);
	assert.ok(stopped, 'the seeded world has a conversation whose sandbox is not running');
	await assert.rejects(actions.approve(normalizeId(stopped.id)), /not running/);
	await assert.rejects(actions.nudge(key, '   '), /empty/);
	await assert.rejects(actions.approve('f'.repeat(32)), /not in the list/);
});

test('approve runs the agent on; pendingActions reads what it waits for first', async (t) => {
	const simulator = await startTestSimulator(t, {seed: 7, conversations: 30});
	const rows = await loaded(simulator);
	const waiting = [...rows.values()].find((conversation) => conversation.execution_status === 'waiting_for_confirmation');
	assert.ok(waiting);
	const actions = actionsOver(simulator, rows, []);
	const pending = await actions.pendingActions(normalizeId(waiting.id));
	assert.ok(pending.length > 0, 'the waiting conversation has a pending action');
	for (const action of pending) {
		assert.equal(action.kind, 'ActionEvent');
		assert.ok(action.tool_name.length > 0);
		assert.match(action.security_risk, /^(HIGH|MEDIUM|LOW|UNKNOWN)$/);
	}
	await actions.approve(normalizeId(waiting.id));
	const after = await loaded(simulator);
	assert.notEqual(after.get(normalizeId(waiting.id))?.execution_status, 'waiting_for_confirmation');
});

type SearchOptions = Parameters<typeof searchAcross>[0];

/** Every agent action across `conversations` (the stored copies too, with `stored`): the hits, and the last progress said. */
async function agentActions(simulator: Simulator, conversations: SearchOptions['conversations'], stored?: SearchOptions['stored']): Promise<{hits: SearchHit[]; final: SearchProgress | null}> {
	const hits: SearchHit[] = [];
	let last: SearchProgress | null = null;
	await searchAcross({
		conversations,
		query: 'kind:ActionEvent source:agent',
		appBaseUrl: simulator.baseUrl,
		secrets: [simulator.apiKey],
		signal: new AbortController().signal,
		onHit: (hit) => hits.push(hit),
		onProgress: (progress) => (last = progress),
		...(stored === undefined ? {} : {stored}),
	});
	return {hits, final: last as SearchProgress | null};
}

test('search across: hits from every running conversation, stopped ones counted as skipped, cancel stops it', async (t) => {
	const simulator = await startTestSimulator(t, {seed: 7, conversations: 30});
	const rows = await loaded(simulator);
	const conversations = [...rows].map(([key, conversation]) => ({key, conversation}));
	const {hits, final} = await agentActions(simulator, conversations);
	assert.ok(final?.done);
	assert.equal(final.total, conversations.length);
	assert.equal(final.searched + final.skipped + final.failed, conversations.length);
	assert.ok(final.skipped > 0, 'conversations without a running sandbox are skipped');
	assert.equal(final.failed, 0, final.lastError ?? '');
	assert.ok(hits.length > 0);
	assert.ok(hits.every((hit) => hit.event.kind === 'ActionEvent' && hit.event.source === 'agent'));
	assert.ok(new Set(hits.map((hit) => hit.conversationKey)).size > 1, 'hits from several conversations');

	const abort = new AbortController();
	const few: SearchHit[] = [];
	await searchAcross({
		conversations,
		query: 'kind:ActionEvent',
		appBaseUrl: simulator.baseUrl,
		secrets: [],
		signal: abort.signal,
		onHit: (hit) => {
			few.push(hit);
			abort.abort();
		},
		onProgress: () => undefined,
		concurrency: 1,
	});
	assert.ok(few.length < hits.length, 'a cancelled search stops early');
});

test('search across with the stored copy: stopped conversations are searched too, every request through the budget', async (t) => {
	const simulator = await startTestSimulator(t, {seed: 7, conversations: 30});
	const rows = await loaded(simulator);
	const conversations = [...rows].map(([key, conversation]) => ({key, conversation}));
	const stoppedKeys = new Set(conversations.filter(({conversation}) => conversation.sandbox_status !== 'RUNNING').map(({key}) => key));
	assert.ok(stoppedKeys.size > 0);
	const client = new AppClient({baseUrl: simulator.baseUrl, apiKey: simulator.apiKey, maxRetries: 0});
	t.after(() => client.close());
	const budget = new RequestBudget({perSecond: 50, perMinute: 5000});
	t.after(() => budget.close());
	let paced = 0;
	simulator.stats.reset();
	const {hits, final} = await agentActions(simulator, conversations, {
		client: client.storedEvents,
		pace: (key) => (task) => {
			paced++;
			return budget.schedule(`search-stored:${key}`, task, 'visible');
		},
	});
	assert.ok(final?.done);
	assert.equal(final.skipped, 0, 'nothing skipped');
	assert.equal(final.failed, 0, final.lastError ?? '');
	assert.equal(final.searched, conversations.length);
	assert.equal(final.stored, stoppedKeys.size);
	assert.ok(hits.some((hit) => stoppedKeys.has(hit.conversationKey)), 'hits from stopped conversations');
	assert.ok(hits.every((hit) => hit.event.kind === 'ActionEvent' && hit.event.source === 'agent'));
	// Every stored-copy request went through the budget.
	const storedRequests = simulator.stats.byRoute['GET /api/v1/conversation/:id/events/search'] ?? 0;
	assert.equal(storedRequests, paced);
	assert.ok(storedRequests >= stoppedKeys.size);
	// No sandbox was resumed to search it.
	const after = await loaded(simulator);
	for (const key of stoppedKeys) assert.notEqual(after.get(key)?.sandbox_status, 'RUNNING');
});

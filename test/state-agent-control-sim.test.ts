import {test} from 'node:test';
import assert from 'node:assert/strict';
import {createConversationActions, SandboxNotRunningError} from '../source/state/conversation-actions.js';
import {normalizeId} from '../source/wire/ids.js';
import {AppClient} from '../source/wire/app-client.js';
import type {AppConversation} from '../source/wire/schemas/app.js';
import {startTestSimulator} from './helpers/sim-harness.js';

/** The dashboard's interrupt and continue actions over real HTTP to the simulator's agent servers. */

async function loaded(simulator: {baseUrl: string; apiKey: string}) {
	const client = new AppClient({baseUrl: simulator.baseUrl, apiKey: simulator.apiKey, maxRetries: 0});
	const conversations = await client.listConversations();
	await client.close();
	return new Map(conversations.map((conversation) => [normalizeId(conversation.id), conversation]));
}

test('interrupt stops one agent (or pauses it on an older server); continue runs it; 409 is "already running"', async (t) => {
	const simulator = await startTestSimulator(t, {seed: 7, conversations: 30});
	const rows = await loaded(simulator);
	const accepted: string[] = [];
	const actions = createConversationActions({appBaseUrl: simulator.baseUrl, secrets: [simulator.apiKey], conversation: (key) => rows.get(key), onAccepted: (key) => accepted.push(key)});
	const live = [...rows.values()].filter((row) => row.execution_status === 'running');
	assert.ok(live.length >= 2, 'two running conversations');
	const [first, second] = live.map((row) => normalizeId(row.id)) as [string, string];

	assert.equal(await actions.interrupt(first), 'interrupt');
	assert.equal(simulator.world.findConversation(first)?.executionStatus, 'paused');
	assert.equal(simulator.world.findConversation(second)?.executionStatus, 'running', 'the other agent runs on');
	assert.equal(await actions.continueAgent(first), 'started');
	assert.equal(simulator.world.findConversation(first)?.executionStatus, 'running');
	assert.equal(await actions.continueAgent(first), 'already-running');

	simulator.faults.interruptMissing(405);
	assert.equal(await actions.interrupt(second), 'pause');
	assert.equal(simulator.world.findConversation(second)?.executionStatus, 'paused');
	assert.deepEqual(accepted, [first, first, first, second]);
});

test('a conversation whose sandbox is not RUNNING: SandboxNotRunningError, no request, nothing resumed', async (t) => {
	const simulator = await startTestSimulator(t, {seed: 7, conversations: 30});
	const rows = await loaded(simulator);
	const actions = createConversationActions({appBaseUrl: simulator.baseUrl, secrets: [simulator.apiKey], conversation: (key) => rows.get(key), onAccepted: () => undefined});
	const paused = [...rows.values()].find((row: AppConversation) => row.sandbox_status === 'PAUSED');
	assert.ok(paused);
	const before = simulator.stats.requests;
	for (const action of [actions.interrupt, actions.continueAgent]) {
		await assert.rejects(action(normalizeId(paused.id)), (error: unknown) => error instanceof SandboxNotRunningError && error.sandboxStatus === 'PAUSED');
	}
	assert.equal(simulator.stats.requests, before, 'no request at all');
	assert.equal(simulator.world.findSandbox(paused.sandbox_id!)?.status, 'PAUSED');
});

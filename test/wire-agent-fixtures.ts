import type {TestContext} from 'node:test';
import {Agent} from 'undici';
import {startSimulator, type Simulator, type SimulatorOptions} from '../source/simulator/server.js';
import type {ScenarioName, SimConversation} from '../source/simulator/world-types.js';
import {AgentClient, type AgentClientOptions} from '../source/wire/agent-client.js';
import {type AppConversation, appConversationSchema} from '../source/wire/schemas/app.js';
import {eventually} from './helpers/eventually.js';

/**
 * Shared set-up for the agent-client and stream tests: a real embedded simulator per test on a
 * loopback port, and the conversation rows exactly as the app server hands them out. Each test
 * gets its own undici Agent so nothing pooled outlives it.
 */

export async function startSim(t: TestContext, options: SimulatorOptions = {}): Promise<Simulator> {
	const sim = await startSimulator({port: 0, seed: 1, tickMs: 0, ...options});
	t.after(() => sim.close());
	return sim;
}

export function testDispatcher(t: TestContext): Agent {
	const dispatcher = new Agent({keepAliveTimeout: 1000, connections: 4});
	t.after(() => dispatcher.destroy());
	return dispatcher;
}

/** Every app conversation, through `GET /api/v1/app-conversations/search` (Bearer key), parsed. */
export async function appConversations(sim: Simulator): Promise<AppConversation[]> {
	const rows: AppConversation[] = [];
	let pageId: string | null = null;
	do {
		const url = new URL('/api/v1/app-conversations/search', sim.baseUrl);
		if (pageId) url.searchParams.set('page_id', pageId);
		const response = await fetch(url, {headers: {authorization: `Bearer ${sim.apiKey}`}});
		if (response.status !== 200) throw new Error(`app-conversations/search answered ${response.status}`);
		const body = (await response.json()) as {items: unknown[]; next_page_id?: string | null};
		for (const item of body.items) rows.push(appConversationSchema.parse(item));
		pageId = body.next_page_id ?? null;
	} while (pageId);
	return rows;
}

/** The seeded conversation running a scenario in a RUNNING sandbox, with its app-server row. */
export async function liveConversation(sim: Simulator, scenario: ScenarioName): Promise<{conversation: SimConversation; row: AppConversation}> {
	const conversation = sim.world
		.conversationList()
		.find((entry) => entry.scenario === scenario && sim.world.findSandbox(entry.sandboxId)?.status === 'RUNNING');
	if (!conversation) throw new Error(`no running ${scenario} conversation`);
	const row = (await appConversations(sim)).find((entry) => entry.id === conversation.id);
	if (!row?.conversation_url) throw new Error(`the ${scenario} conversation has no conversation_url`);
	return {conversation, row};
}

export async function clientFor(
	t: TestContext,
	sim: Simulator,
	scenario: ScenarioName,
	options: AgentClientOptions = {},
): Promise<{conversation: SimConversation; row: AppConversation; client: AgentClient}> {
	const {conversation, row} = await liveConversation(sim, scenario);
	const client = AgentClient.fromConversation(row, sim.baseUrl, {dispatcher: testDispatcher(t), maxRetries: 0, ...options});
	return {conversation, row, client};
}

/** The server's own event ids for a conversation, in its order. */
export function serverIds(sim: Simulator, conversation: SimConversation): string[] {
	return sim.world.events(conversation).map((event) => event.id);
}

export async function waitUntil(predicate: () => boolean, timeoutMs = 5000, what = 'condition'): Promise<void> {
	await eventually(predicate, what, {timeoutMs, pollMs: 5});
}

export function delay(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

import type {TestContext} from 'node:test';
import WebSocket from 'ws';
import {startSimulator, type Simulator, type SimulatorOptions} from '../../source/simulator/server.js';
import type {ScenarioName, SimConversation} from '../../source/simulator/world-types.js';
import {eventually} from './eventually.js';

/**
 * Helpers for the simulator's own tests: plain fetch and ws (the project's clients are tested
 * elsewhere), a simulator per test on port 0 with no ticking and short delays.
 */

export type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

export async function startTestSimulator(t: TestContext, options: SimulatorOptions = {}): Promise<Simulator> {
	const simulator = await startSimulator({port: 0, tickMs: 0, startTaskPhaseMs: 10, sandboxTransitionMs: 20, ...options});
	t.after(() => simulator.close());
	return simulator;
}

export type Answer = {status: number; headers: Headers; body: Json; text: string};

async function answer(response: Response): Promise<Answer> {
	const text = await response.text();
	let body: Json = undefined;
	try {
		body = text === '' ? undefined : JSON.parse(text);
	} catch {
		body = undefined;
	}
	return {status: response.status, headers: response.headers, body, text};
}

/** A call to the app server with the simulator's key (or the given headers instead). */
export async function app(simulator: Simulator, path: string, init: RequestInit & {json?: unknown} = {}): Promise<Answer> {
	const headers: Record<string, string> = {authorization: `Bearer ${simulator.apiKey}`, ...(init.headers as Record<string, string> | undefined)};
	if (init.json !== undefined) headers['content-type'] = 'application/json';
	return answer(await fetch(`${simulator.baseUrl}${path}`, {...init, headers, body: init.json === undefined ? init.body : JSON.stringify(init.json)}));
}

/** The AppConversation rows for the given ids (null for unknown), via the batch endpoint. */
export async function appConversations(simulator: Simulator, ids: string[]): Promise<Json[]> {
	const query = ids.map((id) => `ids=${encodeURIComponent(id)}`).join('&');
	const result = await app(simulator, `/api/v1/app-conversations?${query}`);
	if (result.status !== 200) throw new Error(`batch get failed: ${result.status} ${result.text}`);
	return result.body;
}

/** The seeded conversation running a scenario, with its app-server row. */
export async function seeded(simulator: Simulator, scenario: ScenarioName, status = 'RUNNING'): Promise<{conversation: SimConversation; row: Json}> {
	const conversation = simulator.world
		.conversationList()
		.find((row) => row.scenario === scenario && simulator.world.findSandbox(row.sandboxId)?.status === status);
	if (!conversation) throw new Error(`no ${status} ${scenario} conversation`);
	const [row] = await appConversations(simulator, [conversation.id]);
	return {conversation, row};
}

/** `<conversation_url without /api/conversations/...>`: the agent server base, path prefix kept. */
export function agentBase(row: Json): string {
	return String(row.conversation_url).replace(/\/api\/conversations\/[^/]+$/, '');
}

/** A call to the conversation's agent server, with its session key unless headers say otherwise. */
export async function agent(row: Json, path: string, init: RequestInit & {json?: unknown} = {}): Promise<Answer> {
	const headers: Record<string, string> = {'x-session-api-key': row.session_api_key, ...(init.headers as Record<string, string> | undefined)};
	if (init.json !== undefined) headers['content-type'] = 'application/json';
	return answer(await fetch(`${agentBase(row)}${path}`, {...init, headers, body: init.json === undefined ? init.body : JSON.stringify(init.json)}));
}

export function socketUrl(row: Json, id: string = row.id, query = ''): string {
	return `${agentBase(row).replace(/^http/, 'ws')}/sockets/events/${id}${query ? `?${query}` : ''}`;
}

export type SocketProbe = {
	ws: WebSocket;
	frames: Json[];
	/** Raw text of every frame, parseable or not. */
	raw: string[];
	closed: Promise<{code: number; reason: string}>;
	errors: Error[];
	waitFor(predicate: (frames: Json[]) => boolean, timeoutMs?: number): Promise<void>;
};

export function openSocket(url: string, options: WebSocket.ClientOptions = {}): SocketProbe {
	const ws = new WebSocket(url, options);
	const frames: Json[] = [];
	const raw: string[] = [];
	const errors: Error[] = [];
	ws.on('message', (data) => {
		const text = String(data);
		raw.push(text);
		try {
			frames.push(JSON.parse(text));
		} catch {
			// Malformed frames are kept in `raw` only.
		}
	});
	ws.on('error', (error) => errors.push(error));
	const closed = new Promise<{code: number; reason: string}>((resolve) => ws.on('close', (code, reason) => resolve({code, reason: String(reason)})));
	return {
		ws,
		frames,
		raw,
		closed,
		errors,
		waitFor: (predicate, timeoutMs = 2000) => waitUntil(() => predicate(frames), timeoutMs),
	};
}

export async function waitUntil(predicate: () => boolean | Promise<boolean>, timeoutMs = 2000, what = 'condition'): Promise<void> {
	await eventually(predicate, what, {timeoutMs, pollMs: 5});
}

export function opened(ws: WebSocket): Promise<void> {
	return new Promise((resolve, reject) => {
		ws.once('open', () => resolve());
		ws.once('error', reject);
	});
}

/** Event fields that depend on the wall clock, removed to compare two runs. */
export function withoutTime(event: Json): Json {
	const {timestamp: _timestamp, ...rest} = event;
	return rest;
}

import type {IncomingMessage} from 'node:http';
import type {Duplex} from 'node:stream';
import {WebSocketServer, type RawData, type WebSocket} from 'ws';
import {fullState, sendUserMessage} from './agent-runtime.js';
import {naiveQueryTimestamp} from './clock.js';
import type {SimEvent} from './event-factory.js';
import type {FaultState} from './faults.js';
import type {SimConversation, SimSandbox} from './world-types.js';
import type {World} from './world.js';

/**
 * The agent server's event socket, `/runtime/<n>/sockets/events/<id>` (docs/service-behaviour.md §2):
 * auth by header, query or first frame; `full_state` first; optional replay; then live events,
 * one JSON event per text frame. The subscription starts before the replay, and the replay reads
 * the growing log, so an event that lands meanwhile can arrive twice, as on the real server.
 */

const socketPath = /^\/runtime\/(\d+)\/sockets\/events\/([^/]+)\/?$/;
const authTimeoutMs = 10_000;
const replayBatch = 100;

type Client = {
	socket: WebSocket;
	sandbox: SimSandbox;
	conversationId: string;
	unsubscribe: () => void;
	authTimer: NodeJS.Timeout | undefined;
};

export class SocketHub {
	private readonly server = new WebSocketServer({noServer: true, autoPong: false, perMessageDeflate: false});
	private readonly clients = new Set<Client>();

	constructor(
		private readonly world: World,
		private readonly faults: FaultState,
		private readonly countRequest: (key: string) => void,
	) {
		world.runtimeStopped = (sandbox) => this.closeWhere((client) => client.sandbox === sandbox, 1001, 'Sandbox stopped');
		world.conversationRemoved = (conversation) => this.closeWhere((client) => client.conversationId === conversation.id, 4004, 'Conversation deleted');
		faults.onDropSockets = () => this.terminateAll();
	}

	/** Pings that went unanswered because the sockets were silent (a client's heartbeat at work). */
	unansweredPings = 0;

	get openSockets(): number {
		return this.clients.size;
	}

	/**
	 * Handles an HTTP upgrade; answers plain HTTP errors for paths that are not an event socket.
	 * The handshake is counted but not subject to the HTTP faults: "the next N requests get 429"
	 * must mean N REST calls, not whatever a reconnecting socket happens to consume.
	 */
	handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
		// Node's HTTP server takes its own error listener off a socket it hands to 'upgrade'. A
		// client that resets the connection while we refuse it (or before ws takes over) would
		// otherwise raise ECONNRESET as an uncaught exception and take the simulator down.
		socket.on('error', () => socket.destroy());
		const url = new URL(request.url ?? '/', 'http://localhost');
		const match = socketPath.exec(url.pathname);
		this.countRequest(match ? 'GET /runtime/:n/sockets/events/:id' : `GET ${url.pathname}`);
		const sandbox = match ? this.world.sandboxByNumber(Number(match[1])) : undefined;
		if (!match || !sandbox) return refuse(socket, 404, 'Not Found');
		// A paused or missing runtime is not there to answer the handshake.
		if (sandbox.status !== 'RUNNING') return refuse(socket, 503, 'Service Unavailable');
		if (this.faults.refuseSockets) return refuse(socket, 503, 'Service Unavailable');
		this.server.handleUpgrade(request, socket, head, (ws) => this.accept(ws, request, url, sandbox, decodeURIComponent(match[2]!)));
	}

	private accept(ws: WebSocket, request: IncomingMessage, url: URL, sandbox: SimSandbox, rawId: string): void {
		const client: Client = {socket: ws, sandbox, conversationId: '', unsubscribe: () => {}, authTimer: undefined};
		this.clients.add(client);
		ws.on('close', () => this.forget(client));
		ws.on('error', () => ws.terminate());
		// Pings are answered by hand so a "silent" socket can stop answering them too.
		ws.on('ping', (data) => {
			if (!this.faults.silent) ws.pong(data);
			else this.unansweredPings++;
		});
		const header = request.headers['x-session-api-key'];
		const offered = (Array.isArray(header) ? header[0] : header) ?? url.searchParams.get('session_api_key');
		if (offered !== null && offered !== undefined && offered !== '') {
			if (offered !== sandbox.sessionApiKey) return ws.close(4001, 'Unauthorized');
			this.start(client, url, rawId);
			return;
		}
		// No key offered: the first frame must be {"type":"auth","session_api_key":"..."}.
		client.authTimer = setTimeout(() => ws.close(4001, 'Authentication timeout'), authTimeoutMs);
		ws.once('message', (data) => {
			clearTimeout(client.authTimer);
			const frame = parse(data);
			if (frame?.type !== 'auth' || frame.session_api_key !== sandbox.sessionApiKey) return ws.close(4001, 'Unauthorized');
			this.start(client, url, rawId);
		});
	}

	private start(client: Client, url: URL, rawId: string): void {
		const conversation = this.world.findConversation(rawId);
		if (!conversation || conversation.sandboxId !== client.sandbox.id) return client.socket.close(4004, 'Conversation not found');
		client.conversationId = conversation.id;
		client.unsubscribe = this.world.subscribe(conversation.id, (event) => this.send(client, event));
		client.socket.on('message', (data) => this.onClientFrame(client, conversation, data));
		const agent = this.world.agent(conversation);
		this.send(client, {
			kind: 'ConversationStateUpdateEvent',
			id: agent.factory.id(),
			timestamp: agent.log.stamp(),
			source: 'environment',
			key: 'full_state',
			value: fullState(this.world, conversation),
		});
		const mode = url.searchParams.get('resend_mode') ?? (url.searchParams.get('resend_all') === 'true' ? 'all' : null);
		if (mode === 'all') void this.replay(client, agent.log.events, 0);
		else if (mode === 'since') {
			const after = naiveQueryTimestamp(url.searchParams.get('after_timestamp') ?? '');
			if (after !== null) {
				const events = agent.log.events;
				const from = events.findIndex((event) => event.timestamp >= after);
				if (from >= 0) void this.replay(client, events, from);
			}
		}
	}

	/** Replays in batches, yielding between them; reads the live array so newer events are included too. */
	private async replay(client: Client, events: readonly SimEvent[], from: number): Promise<void> {
		for (let index = from; index < events.length; index++) {
			if (client.socket.readyState !== client.socket.OPEN) return;
			this.send(client, events[index]!);
			if ((index - from + 1) % replayBatch === 0) await new Promise((resolve) => setImmediate(resolve));
		}
	}

	private onClientFrame(client: Client, conversation: SimConversation, data: RawData): void {
		const frame = parse(data);
		if (frame === null) return this.serverError(client, 'invalid_json', 'Frame is not valid JSON.');
		// Repeated auth frames are ignored.
		if (frame.type === 'auth') return;
		const content = frame.content;
		if (Array.isArray(content) && content.length > 0 && (frame.role === undefined || frame.role === 'user')) {
			const text = content
				.map((part) => (part && typeof part === 'object' && typeof (part as {text?: unknown}).text === 'string' ? (part as {text: string}).text : ''))
				.filter(Boolean)
				.join('\n');
			// A socket message always runs the agent (docs/service-behaviour.md §2).
			if (this.world.findConversation(conversation.id)) sendUserMessage(this.world, conversation, text, true);
			return;
		}
		this.serverError(client, 'invalid_message', 'Expected {"role":"user","content":[...]} or an auth frame.');
	}

	private serverError(client: Client, code: string, detail: string): void {
		const agent = this.world.findConversation(client.conversationId)?.agent;
		this.send(client, {
			kind: 'ServerErrorEvent',
			id: agent?.factory.id() ?? 'server-error',
			timestamp: agent?.log.stamp() ?? new Date(this.world.now()).toISOString().slice(0, 26),
			source: 'environment',
			code,
			detail,
		});
	}

	/** Every frame goes through here so the frame faults apply to all of them. */
	private send(client: Client, event: SimEvent): void {
		const {socket} = client;
		if (socket.readyState !== socket.OPEN || this.faults.silent) return;
		const text = JSON.stringify(event);
		const fault = this.faults.takeFrameFault();
		if (fault === 'malformed') socket.send(text.slice(0, Math.max(1, Math.floor(text.length / 2))));
		else if (fault === 'invalid-utf8') {
			// ws does not validate outgoing data, so these bytes go out as a text frame: 0xC3 0x28 is an invalid sequence.
			socket.send(Buffer.concat([Buffer.from(text.slice(0, 16)), Buffer.from([0xc3, 0x28, 0xff, 0xfe]), Buffer.from('"}')]), {binary: false});
		} else socket.send(text);
	}

	private forget(client: Client): void {
		clearTimeout(client.authTimer);
		client.unsubscribe();
		this.clients.delete(client);
	}

	private closeWhere(predicate: (client: Client) => boolean, code: number, reason: string): void {
		for (const client of [...this.clients]) if (predicate(client)) client.socket.close(code, reason);
	}

	/** Cuts every socket without a close frame, as a dropped connection does. */
	terminateAll(): void {
		for (const client of [...this.clients]) {
			client.socket.terminate();
			this.forget(client);
		}
	}
}

function parse(data: RawData): Record<string, unknown> | null {
	try {
		const value = JSON.parse(Buffer.isBuffer(data) ? data.toString('utf8') : Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data).toString('utf8')) as unknown;
		return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
	} catch {
		return null;
	}
}

function refuse(socket: Duplex, status: number, text: string): void {
	const body = JSON.stringify({detail: text});
	socket.end(`HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

import type {ClientRequest, IncomingMessage} from 'node:http';
import type WebSocket from 'ws';
import type {RawData} from 'ws';
import type {LoggedEvent} from './schemas/events.js';
import type {Secret} from './secret.js';
import {readTextFrame, type SocketProblem} from './text-frame.js';
import {loadOnce} from './load-once.js';

export type {SocketProblem} from './text-frame.js';

/**
 * One connection to an agent server's event socket (docs/service-behaviour.md §2; docs/security-checklist.md
 * §3). No reconnecting here: the StreamSupervisor decides that from how the connection ended,
 * which this class reports exactly once, classified.
 *
 * - The key goes in a first `{"type":"auth"}` frame, never in the URL (we log URLs) or a message.
 * - ws has no handshake timeout by default: a peer that accepts TCP and never answers would hang.
 * - A heartbeat pings while the socket is quiet and terminates it when neither a pong nor a
 *   frame arrived within interval + grace: a silent dead socket looks exactly like a quiet agent.
 * - On any error we terminate(): otherwise ws waits its 30 s close timeout after a protocol error.
 * - A malformed JSON frame is reported and the socket stays open (one bad frame is not a broken
 *   connection). Invalid UTF-8 and oversized frames are fatal to the connection (ws closes it);
 *   they are reported with their own kinds so the supervisor can resync or avoid a replay loop.
 */

export type ResendMode = {mode: 'none'} | {mode: 'all'} | {mode: 'since'; afterTimestamp: string};

export type SocketEndKind =
	/** Closed by the server or the network with a code that says nothing special. */
	| 'closed'
	/** 4001, or HTTP 401/403 on the upgrade: the session key was refused. Fatal. */
	| 'auth-rejected'
	/** 4004, or HTTP 404 on the upgrade: no such conversation here. Fatal. */
	| 'not-found'
	/** Another HTTP answer to the upgrade (a 503 from a paused runtime, a proxy error). */
	| 'http-error'
	| 'handshake-timeout'
	| 'heartbeat-timeout'
	/** A frame over maxPayload: ws closes the connection (1009). */
	| 'oversized-frame'
	/** A text frame that is not UTF-8: ws closes the connection (1007). */
	| 'invalid-utf8'
	/** Another WebSocket protocol violation by the server. */
	| 'protocol-error'
	/** Could not connect, or the connection broke (refused, reset, DNS). */
	| 'network-error'
	/** close() was called. */
	| 'client-closed';

export type SocketEnd = {
	kind: SocketEndKind;
	/** Retrying cannot help (auth-rejected, not-found). */
	fatal: boolean;
	/** The WebSocket close code, when there was one. */
	code?: number;
	/** The HTTP status of a refused upgrade. */
	httpStatus?: number;
	/** For the person at the terminal; never contains the key. */
	message: string;
	/** Whether the server accepted us (a first frame arrived) before the end. */
	wasReady: boolean;
};

export type EventSocketHandlers = {
	/** The first frame arrived: the server accepted the key and has subscribed us. */
	onReady?(): void;
	onEvent(event: LoggedEvent): void;
	/** Something wrong with one frame; the socket stays open. Reported once per frame. */
	onProblem?(problem: SocketProblem): void;
	/** Exactly once, after which nothing else is called. */
	onEnd(end: SocketEnd): void;
};

export type EventSocketOptions = {
	/** `ws(s)://<base>/sockets/events/<id>` (AgentClient.socketUrl()). */
	url: string;
	sessionApiKey: Secret | null;
	resend?: ResendMode;
	/** Default 10 s. */
	handshakeTimeoutMs?: number;
	/**
	 * Ping after this long without traffic. Default 5 s: with the grace, a socket that went silent
	 * is replaced within 10 s, so a follower still sees a conversation's end within 15 s.
	 */
	heartbeatIntervalMs?: number;
	/** How long a ping may go unanswered. Default 5 s. */
	heartbeatGraceMs?: number;
	/**
	 * After the handshake, how long to wait for the server's first frame (it always starts with a
	 * state update once the key is accepted). Default 10 s.
	 */
	firstFrameTimeoutMs?: number;
	/** Largest frame accepted. Default 16 MiB (ws's own default is 100 MiB). */
	maxPayloadBytes?: number;
	/**
	 * 'on-arrival' (default): each frame's payload is validated as it arrives, and an invalid
	 * one is reported as a problem. 'on-read': only the envelope is read and the payload is
	 * validated when something first needs it (events.ts `PendingEvent`): the dashboard, which
	 * shows a window of a stream that may bring hundreds of events a second.
	 */
	validate?: 'on-arrival' | 'on-read';
	handlers: EventSocketHandlers;
};

export const defaultSocketTimings = {handshakeTimeoutMs: 10_000, firstFrameTimeoutMs: 10_000, heartbeatIntervalMs: 5000, heartbeatGraceMs: 5000};
const defaultMaxPayload = 16 * 1024 * 1024;
/** close() sends a close frame; if the server does not answer it within this, the socket is cut. */
const closeGraceMs = 1000;

export function socketUrlWithResend(url: string, resend: ResendMode = {mode: 'none'}): string {
	const target = new URL(url);
	target.searchParams.delete('resend_mode');
	target.searchParams.delete('after_timestamp');
	target.searchParams.delete('resend_all');
	if (resend.mode === 'all') target.searchParams.set('resend_mode', 'all');
	else if (resend.mode === 'since') {
		target.searchParams.set('resend_mode', 'since');
		// The event's own (naive, server-local) timestamp string, echoed unchanged.
		target.searchParams.set('after_timestamp', resend.afterTimestamp);
	}
	return target.toString();
}

/**
 * ws, loaded with the first socket rather than with the dashboard: it brings node:https, node:tls
 * and node:zlib, none of which the list needs, and start-up is mostly loading code (the launch to
 * the first frame: 1.27 G instructions with it loaded at start, see the commit). The dashboard
 * asks for it right after its first frame (view/app.tsx), so opening a conversation does not wait.
 */
export const loadWebSocket: () => Promise<typeof WebSocket> = loadOnce(async () => (await import('ws')).default);

export class EventSocket {
	#ws: WebSocket | null = null;
	readonly #handlers: EventSocketHandlers;
	readonly #validateOnRead: boolean;
	readonly #intervalMs: number;
	readonly #graceMs: number;
	readonly #firstFrameMs: number;
	#firstFrameTimer: NodeJS.Timeout | undefined;
	#pingTimer: NodeJS.Timeout | undefined;
	#deadTimer: NodeJS.Timeout | undefined;
	#closeTimer: NodeJS.Timeout | undefined;
	/** The first cause wins: later errors and the close event only confirm it. */
	#end: Omit<SocketEnd, 'wasReady'> | null = null;
	#ready = false;
	#ended = false;
	readonly #closed: Promise<void>;
	#resolveClosed!: () => void;

	constructor(options: EventSocketOptions) {
		this.#handlers = options.handlers;
		this.#validateOnRead = options.validate === 'on-read';
		this.#intervalMs = options.heartbeatIntervalMs ?? defaultSocketTimings.heartbeatIntervalMs;
		this.#graceMs = options.heartbeatGraceMs ?? defaultSocketTimings.heartbeatGraceMs;
		this.#firstFrameMs = options.firstFrameTimeoutMs ?? defaultSocketTimings.firstFrameTimeoutMs;
		this.#closed = new Promise((resolve) => {
			this.#resolveClosed = resolve;
		});
		loadWebSocket().then(
			(WebSocketClass) => this.#connect(WebSocketClass, options),
			(error: unknown) => {
				this.#record({kind: 'network-error', fatal: false, message: `cannot open the event socket: ${(error as Error).message}`});
				this.#finish();
			},
		);
	}

	#connect(WebSocketClass: typeof WebSocket, options: EventSocketOptions): void {
		// Closed before ws had loaded: nothing to open.
		if (this.#end) {
			this.#finish();
			return;
		}
		try {
			this.#ws = new WebSocketClass(socketUrlWithResend(options.url, options.resend), {
				handshakeTimeout: options.handshakeTimeoutMs ?? defaultSocketTimings.handshakeTimeoutMs,
				maxPayload: options.maxPayloadBytes ?? defaultMaxPayload,
				followRedirects: false,
			});
		} catch (error) {
			// A malformed URL throws synchronously; report it like any other end.
			this.#record({kind: 'network-error', fatal: false, message: `cannot open the event socket: ${(error as Error).message}`});
			this.#finish();
			return;
		}
		this.#attach(this.#ws, options.sessionApiKey);
	}

	/** Whether the server accepted us (the first frame arrived). */
	get ready(): boolean {
		return this.#ready;
	}

	/** Resolves once the connection is gone and onEnd has been called. */
	get closed(): Promise<void> {
		return this.#closed;
	}

	/** Ends the connection politely; cuts it if the server does not answer the close frame soon. */
	close(): Promise<void> {
		const ws = this.#ws;
		this.#record({kind: 'client-closed', fatal: false, message: 'closed by the client'});
		// Not opened yet: the end is recorded, and #connect finishes instead of opening.
		if (!ws || this.#ended) return this.#closed;
		if (ws.readyState === ws.OPEN) {
			ws.close(1000, 'client closed');
			this.#closeTimer ??= setTimeout(() => ws.terminate(), closeGraceMs);
		} else {
			ws.terminate();
		}
		return this.#closed;
	}

	/** Cuts the connection at once (no close handshake). */
	terminate(): Promise<void> {
		this.#record({kind: 'client-closed', fatal: false, message: 'closed by the client'});
		this.#ws?.terminate();
		return this.#closed;
	}

	#attach(ws: WebSocket, key: Secret | null): void {
		ws.on('open', () => {
			if (key && !key.isEmpty) {
				// Revealed only here, into the frame; the server ignores repeated auth frames.
				ws.send(JSON.stringify({type: 'auth', session_api_key: key.reveal()}));
			}
			this.#startHeartbeat(ws);
			// A peer (or proxy) that answers pings but never speaks is as useless as a dead one.
			if (!this.#ended && this.#firstFrameMs > 0) {
				this.#firstFrameTimer = setTimeout(() => {
					this.#record({kind: 'handshake-timeout', fatal: false, message: 'the agent server accepted the event socket but sent nothing'});
					ws.terminate();
				}, this.#firstFrameMs);
			}
		});
		ws.on('message', (data, isBinary) => this.#onMessage(data, isBinary));
		ws.on('pong', () => this.#alive());
		ws.on('ping', () => this.#alive());
		ws.on('unexpected-response', (_request: ClientRequest, response: IncomingMessage) => {
			const status = response.statusCode ?? 0;
			response.resume();
			this.#record(httpEnd(status));
			ws.terminate();
		});
		ws.on('error', (error: Error & {code?: string}) => {
			this.#record(errorEnd(error));
			ws.terminate();
		});
		ws.on('close', (code, reason) => {
			this.#record(closeEnd(code, reason.toString('utf8')));
			this.#finish();
		});
	}

	#onMessage(data: RawData, isBinary: boolean): void {
		this.#alive();
		if (!this.#ready) {
			this.#ready = true;
			clearTimeout(this.#firstFrameTimer);
			this.#handlers.onReady?.();
		}
		const buffer = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
		if (isBinary) {
			this.#handlers.onProblem?.({kind: 'malformed-frame', message: `ignored a binary frame (${buffer.length} bytes)`, bytes: buffer.length});
			return;
		}
		const {event, problem} = readTextFrame(buffer.toString('utf8'), buffer.length, this.#validateOnRead);
		// An invalid event is reported, and shown (as unknown) all the same.
		if (problem) this.#handlers.onProblem?.(problem);
		if (event) this.#handlers.onEvent(event);
	}

	/**
	 * Two re-armable timers: a ping after `interval` of quiet, and death after interval + grace of
	 * quiet. Any inbound traffic re-arms both (`refresh()` is cheap, so a burst of frames costs nothing).
	 */
	#startHeartbeat(ws: WebSocket): void {
		if (this.#ended || this.#intervalMs <= 0) return;
		this.#pingTimer = setTimeout(() => {
			try {
				ws.ping();
			} catch {
				// Not open any more; the close event follows.
			}
			this.#pingTimer?.refresh();
		}, this.#intervalMs);
		this.#deadTimer = setTimeout(() => {
			this.#record({
				kind: 'heartbeat-timeout',
				fatal: false,
				message: `the event socket went silent (no answer to a ping within ${Math.round((this.#intervalMs + this.#graceMs) / 100) / 10} s)`,
			});
			ws.terminate();
		}, this.#intervalMs + this.#graceMs);
	}

	#alive(): void {
		this.#pingTimer?.refresh();
		this.#deadTimer?.refresh();
	}

	#record(end: Omit<SocketEnd, 'wasReady'>): void {
		this.#end ??= end;
	}

	#finish(): void {
		if (this.#ended) return;
		this.#ended = true;
		clearTimeout(this.#firstFrameTimer);
		clearTimeout(this.#pingTimer);
		clearTimeout(this.#deadTimer);
		clearTimeout(this.#closeTimer);
		const end = this.#end ?? {kind: 'closed', fatal: false, message: 'the event socket closed'};
		try {
			this.#handlers.onEnd({...end, wasReady: this.#ready});
		} finally {
			this.#resolveClosed();
		}
	}
}

function httpEnd(status: number): Omit<SocketEnd, 'wasReady'> {
	if (status === 401 || status === 403) {
		return {kind: 'auth-rejected', fatal: true, httpStatus: status, message: `the agent server refused the session key (HTTP ${status})`};
	}
	if (status === 404) return {kind: 'not-found', fatal: true, httpStatus: status, message: 'the agent server has no event socket for this conversation (HTTP 404)'};
	return {kind: 'http-error', fatal: false, httpStatus: status, message: `the agent server refused the event socket (HTTP ${status})`};
}

function errorEnd(error: Error & {code?: string}): Omit<SocketEnd, 'wasReady'> {
	const code = error.code ?? '';
	if (code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') {
		return {kind: 'oversized-frame', fatal: false, code: 1009, message: 'the agent server sent an event larger than the frame limit; it was skipped'};
	}
	if (code === 'WS_ERR_INVALID_UTF8') return {kind: 'invalid-utf8', fatal: false, code: 1007, message: 'the agent server sent a frame that is not valid UTF-8'};
	if (code.startsWith('WS_ERR_')) return {kind: 'protocol-error', fatal: false, message: `WebSocket protocol error from the agent server (${code})`};
	if (/handshake has timed out/i.test(error.message)) {
		return {kind: 'handshake-timeout', fatal: false, message: 'the agent server accepted the connection but never answered the WebSocket handshake'};
	}
	const status = /Unexpected server response: (\d+)/.exec(error.message)?.[1];
	if (status) return httpEnd(Number(status));
	const reason = code === 'ECONNREFUSED' ? 'connection refused' : code === 'ENOTFOUND' ? 'host not found' : code || error.message;
	return {kind: 'network-error', fatal: false, message: `event socket: ${reason}`};
}

function closeEnd(code: number, reason: string): Omit<SocketEnd, 'wasReady'> {
	const words = reason.trim().slice(0, 120);
	const suffix = words ? `: ${words}` : '';
	if (code === 4001) return {kind: 'auth-rejected', fatal: true, code, message: `the agent server refused the session key (4001${suffix})`};
	if (code === 4004) return {kind: 'not-found', fatal: true, code, message: `the agent server does not know this conversation (4004${suffix})`};
	if (code === 1013) return {kind: 'closed', fatal: false, code, message: tryAgainLater(words)};
	if (code === 1006) return {kind: 'network-error', fatal: false, code, message: 'the event socket connection was lost'};
	return {kind: 'closed', fatal: false, code, message: `the event socket closed (${code}${suffix})`};
}

/**
 * Close 1013 ("try again later") means one of two things on the agent server (SDK
 * agent_server/sockets.py): more than 50 subscribers on the conversation, or a credential the
 * conversation needs is waiting to be activated (`credential_binding_activation_required`).
 * The reason says which when the server gives one; otherwise both are named, never just "busy".
 */
function tryAgainLater(words: string): string {
	if (/credential/i.test(words)) {
		return `the agent server is waiting for a credential to be activated (1013: ${words}); activate it in the OpenHands web UI, the stream retries meanwhile`;
	}
	if (words) return `the agent server asked to try again later (1013: ${words})`;
	return 'the agent server asked to try again later (1013): it is busy (too many viewers of this conversation) or waiting for a credential to be activated';
}

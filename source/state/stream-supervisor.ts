import type {AgentClient} from '../wire/agent-client.js';
import {fullJitterDelay} from '../wire/backoff.js';
import {errorMessage, KeyRejectedError, NotFoundError} from '../wire/errors.js';
import {claimedKind} from '../wire/event-kinds.js';
import {EventSocket, loadWebSocket, type EventSocketOptions, type ResendMode, type SocketEnd, type SocketProblem} from '../wire/event-socket.js';
import type {InvalidItem} from '../wire/schemas/common.js';
import {compareEvents, type LoggedEvent, type WireEvent} from '../wire/schemas/events.js';
import {EventLog} from './event-log.js';
import {shiftNaiveTimestamp} from './naive-timestamp.js';
import {executionStatusOf, transientEvent} from './stream-events.js';

/**
 * Keeps one conversation's EventLog complete and live (docs/security-checklist.md §3, "Resume
 * without loss or duplicates"; docs/service-behaviour.md §2, "Keeping a log complete").
 *
 * One connection cycle:
 *   1. first cycle only: backfill the history over REST, ascending, every page ("backfilling");
 *   2. open the socket with `resend_mode=since&after_timestamp=<watermark>` and hold its frames;
 *   3. once the server has subscribed us (first frame), page `events/search` from the watermark
 *      (minus a small overlap) to the end; merge it with the held frames; dedupe by id ("live").
 * Delivery is at-least-once everywhere (replay, overlap, live frames during the replay), so the
 * EventLog dedupes by id and keeps (timestamp, id) order.
 *
 * The watermark (`log.syncedThrough`) is the timestamp below which the log is known complete. It
 * moves when a history page that starts at or below it lands (an ascending page is complete from
 * its start through its last event, so a connection dropped mid-resync keeps what it read), and
 * when a connection that had a successful resync ends (or the supervisor closes). A failed resync
 * (shown as a gap) is repaired by the next successful one: in the background while the socket
 * stays up, or on reconnect.
 *
 * Order (`order`): 'server' announces an event only once every older one is known, so a listener
 * that prints as it goes (`events --follow --json`) sees server order, each event once. Frames then
 * wait through a failed resync, a repair, and across reconnects (the next resync reads them again
 * over REST). 'arrival' (the dashboard, which shows the ordered log) lets frames in as soon as the
 * connection's first resync has ended, a gap shown meanwhile.
 *
 * Progress does not depend on the socket staying up. A REST read that extends the watermark
 * (backfill, resync, repair from below it) runs one at a time and is cancelled only by close():
 * a socket that drops while its resync pages are in flight leaves them to land, and the next
 * connection's resync waits for them and reads on from where they ended. While no connection
 * holds (after the backfill, after a drop), the history is read onward over REST every
 * `catchUpIntervalMs`, at once after `catchUpAfterFailures` connections in a row ended before
 * their resync did, so events keep arriving (in server order, held frames are merged once a read
 * that began after them has ended) however the sockets behave: refused, never answering, dropping
 * at once. A read that reached the end with nothing held back settles the stream as a live one
 * does: a follower sees a conversation's end even if no socket ever holds.
 *
 * Reconnects go on with full-jitter backoff. The attempt counter resets when a connection brought
 * new events (it made progress: the next drop starts again from the shortest wait) or stayed up
 * for `healthyAfterMs`, so a server that accepts and drops at once keeps backing off. A refused
 * key (4001, HTTP 401/403) or an unknown conversation (4004, HTTP 404) stops everything: retrying
 * cannot fix either.
 */

/** Loads the WebSocket library ahead of the first stream (the dashboard does, once its first frame is out). */
export const preloadStreams = (): Promise<unknown> => loadWebSocket();

export type StreamState = 'backfilling' | 'live' | 'reconnecting' | 'failed' | 'closed';

export type StreamStatus = {
	state: StreamState;
	/** Reconnect attempts since a connection last stayed up for `healthyAfterMs`. */
	attempt: number;
	/**
	 * Every event received so far has been announced and the log is complete up to the newest of
	 * them: live with no gap and nothing held back or being checked, or (while no socket holds) a
	 * REST read reached the end and nothing received before it is held back.
	 */
	settled: boolean;
	/** When reconnecting: the wait before the next attempt. */
	nextRetryInMs?: number;
	/** Why the last connection or resync failed; never contains a key. */
	lastError?: string;
	/** Our clock (ms) when the newest new event arrived. */
	lastEventAt?: number;
	/** The newest event's own timestamp (server time). */
	lastEventTimestamp?: string;
	/** From ConversationStateUpdateEvents (`execution_status`, or `full_state.execution_status`). */
	executionStatus?: string;
	/** A resync failed: events may be missing until the next successful one. */
	gap: boolean;
	/**
	 * No connection holds and the history is read on over REST instead (a read is under way, or
	 * the last one worked and the next is due in `catchUpIntervalMs`): events still arrive, only
	 * not live. False once a connection holds, and while those reads fail too.
	 */
	overRest: boolean;
	/** While `overRest`: our clock when a REST read last reached the end (the log was complete then). */
	restReadAt?: number;
	/** Events in the log. */
	events: number;
};

export type StreamProblem = {
	kind: SocketProblem['kind'] | 'invalid-item' | 'oversized-frame' | 'invalid-utf8' | 'server-error' | 'resync-failed';
	message: string;
	/** For an event that does not match the API: the kind it claims (so a reader can report each kind once), and its id. */
	eventKind?: string;
	eventId?: string;
};

/** What the supervisor needs of an AgentClient (tests may pass a stand-in). */
/** What the supervisor needs of an EventSocket (tests may pass a scripted one). */
export type StreamSocket = {close(): Promise<void>; terminate(): Promise<void>; readonly closed: Promise<void>};

export type StreamClient = Pick<AgentClient, 'allEvents' | 'socketUrl' | 'sessionApiKey'> & Partial<Pick<AgentClient, 'allEventsLater'>>;

export type StreamSupervisorOptions = {
	client: StreamClient;
	/** Defaults to a new, empty log. */
	log?: EventLog;
	/** New events only (deduplicated), in order, one call per page or per burst of frames. */
	onEvents?: (events: readonly LoggedEvent[]) => void;
	onStatus?: (status: StreamStatus) => void;
	/** A bad frame, item or resync; reported once each. The stream carries on. */
	onProblem?: (problem: StreamProblem) => void;
	/** Socket-only events that are never stored: full_state, streaming deltas, server errors. */
	onTransient?: (event: WireEvent) => void;
	/** 'server': announce strictly in server order; 'arrival' (default): see the class comment. */
	order?: 'server' | 'arrival';
	/** Opens the event socket. Default: a real EventSocket. */
	openSocket?: (options: EventSocketOptions) => StreamSocket;
	/** When the socket's events are validated (EventSocketOptions.validate). Default 'on-arrival'. */
	validate?: 'on-arrival' | 'on-read';
	backoff?: {baseMs?: number; capMs?: number};
	/**
	 * Ask the socket to replay events since the watermark (default true). The REST resync alone
	 * also closes every gap; turn this off for servers without `resend_mode`.
	 */
	replay?: boolean;
	/** A connection up this long resets the attempt counter. Default 30 s. */
	healthyAfterMs?: number;
	/**
	 * While no connection holds, the history is read onward over REST every `catchUpIntervalMs`
	 * (default 2 s); at once after this many connections in a row ended before their resync did
	 * (default 2).
	 */
	catchUpAfterFailures?: number;
	catchUpIntervalMs?: number;
	/** How far before the watermark a resync search starts (server timestamps may be stamped out of order). Default 1 s. */
	resyncOverlapMs?: number;
	handshakeTimeoutMs?: number;
	firstFrameTimeoutMs?: number;
	heartbeatIntervalMs?: number;
	heartbeatGraceMs?: number;
	maxPayloadBytes?: number;
	now?: () => number;
	random?: () => number;
};

type Connection = {
	generation: number;
	abort: AbortController;
	socket: StreamSocket | null;
	/** Socket frames are held (not yet in the log) until the resync has merged (order 'server': and no check is outstanding). */
	holding: boolean;
	/** The connection's first resync has ended (well or not): repairs may run. */
	resyncDone: boolean;
	/** The connection brought events the log did not have: the backoff starts again from its minimum. */
	delivered: boolean;
	/** A resync of this connection succeeded: the log is complete while it stays up (repairs aside). */
	complete: boolean;
	readyAt: number | null;
	/**
	 * Where a follow-up REST check must start (a failed resync, or a frame we could not read, which
	 * is an event we lost). undefined: none wanted; null: from the very beginning.
	 */
	repairFrom: string | null | undefined;
	/** The start of the repair in flight, if any. */
	repairing: string | null | undefined;
	repairTimer: NodeJS.Timeout | undefined;
	repairAttempt: number;
	ready: Promise<void>;
	markReady: () => void;
	markEnded: (error: Error) => void;
};

const defaultBackoff = {baseMs: 500, capMs: 30_000};

export class StreamSupervisor {
	readonly log: EventLog;
	readonly #client: StreamClient;
	readonly #options: StreamSupervisorOptions;
	readonly #now: () => number;
	readonly #random: () => number;
	#status: StreamStatus;
	#connection: Connection | null = null;
	#generation = 0;
	#attempt = 0;
	#backfilled = false;
	/** After an oversized frame, replays would send it again: rely on REST instead (also the `replay: false` option). */
	#avoidReplay = false;
	#retryTimer: NodeJS.Timeout | undefined;
	#pending: LoggedEvent[] = [];
	readonly #pendingIds = new Set<string>();
	readonly #strict: boolean;
	#flush: NodeJS.Immediate | undefined;
	#statusFrom: {timestamp: string; id: string} | null = null;
	#started = false;
	#stopped = false;
	/** Aborted by close() or a fatal failure only: the reads that extend the watermark outlive the socket they were started for. */
	readonly #lifetime = new AbortController();
	/** The reads that extend the watermark, one at a time, in the order they were asked for. */
	#reads: Promise<unknown> = Promise.resolve();
	/** Connections in a row that ended before their resync did. */
	#unheld = 0;
	#catchUpTimer: NodeJS.Timeout | undefined;
	#catchingUp = false;
	/** While no connection holds: a REST read reached the end and merged what was held before it. */
	#caughtUp = false;
	/** Reading on over REST while no connection holds (StreamStatus.overRest). */
	#overRest = false;

	constructor(options: StreamSupervisorOptions) {
		this.#options = options;
		this.#client = options.client;
		this.log = options.log ?? new EventLog();
		this.#now = options.now ?? Date.now;
		this.#random = options.random ?? Math.random;
		this.#status = {state: 'backfilling', attempt: 0, gap: false, settled: false, overRest: false, events: this.log.size};
		this.#strict = options.order === 'server';
		this.#avoidReplay = options.replay === false;
	}

	get status(): StreamStatus {
		return this.#status;
	}

	/** Starts the first cycle. Calling it again does nothing. */
	start(): this {
		if (this.#started || this.#stopped) return this;
		this.#started = true;
		void this.#connect();
		return this;
	}

	/** Stops everything: no timer, request or socket is left behind. */
	async close(): Promise<void> {
		if (this.#stopped) {
			await this.#connection?.socket?.closed;
			return;
		}
		this.#stopped = true;
		this.#lifetime.abort();
		const socket = this.#teardown();
		this.#setStatus({state: 'closed', nextRetryInMs: undefined});
		await socket?.close();
	}

	// One connection cycle

	async #connect(): Promise<void> {
		this.#retryTimer = undefined;
		if (this.#stopped) return;
		const connection = this.#newConnection();
		const {signal} = connection.abort;
		try {
			if (!this.#backfilled) {
				this.#setStatus({state: 'backfilling', nextRetryInMs: undefined});
				await this.#readOnward(connection);
				this.#backfilled = true;
				// Read to the end: settled until a frame arrives. If no socket holds soon, read on over REST.
				this.#caughtUp = true;
				this.#setStatus({});
				this.#scheduleCatchUp(this.#catchUpIntervalMs());
			} else {
				this.#setStatus({state: 'reconnecting', nextRetryInMs: undefined});
			}
			if (!this.#current(connection)) return;

			const from = this.log.syncedThrough;
			const resend: ResendMode = this.#avoidReplay ? {mode: 'none'} : from === null ? {mode: 'all'} : {mode: 'since', afterTimestamp: from};
			connection.socket = this.#openSocket(connection, resend);
			// The server subscribes us before its first frame: from then on nothing can slip between REST and socket.
			await connection.ready;
			if (!this.#current(connection)) return;

			const resynced = await this.#resync(connection, from);
			if (!this.#current(connection)) return;
			connection.resyncDone = true;
			// The socket held through a resync: the REST catch-up, if any, is over.
			this.#unheld = 0;
			this.#caughtUp = false;
			this.#overRest = false;
			clearTimeout(this.#catchUpTimer);
			this.#catchUpTimer = undefined;
			// In server order, frames wait until the log is proven complete below them.
			if (!this.#strict || (resynced !== null && connection.repairFrom === undefined)) {
				connection.holding = false;
				this.#merge(resynced ?? []);
			} else {
				this.#hold(resynced ?? []);
			}
			// A failed resync is retried in the background; frames lost meanwhile are checked now.
			if (resynced === null) this.#requestRepair(connection, from, this.#delay(connection.repairAttempt++));
			else this.#requestRepair(connection, undefined, 0);
			// A gap, if the resync failed, keeps its message; otherwise the trouble is over.
			this.#setStatus(this.#status.gap ? {state: 'live', restReadAt: undefined} : {state: 'live', lastError: undefined, restReadAt: undefined});
		} catch (error) {
			if (!this.#current(connection) || signal.aborted) return;
			this.#connectionFailed(connection, error);
		}
	}

	#newConnection(): Connection {
		let markReady!: () => void;
		let markEnded!: (error: Error) => void;
		const ready = new Promise<void>((resolve, reject) => {
			markReady = resolve;
			markEnded = reject;
		});
		// Nobody may be awaiting yet when the socket ends; that is not an unhandled rejection.
		ready.catch(() => {});
		const connection: Connection = {
			generation: ++this.#generation,
			abort: new AbortController(),
			socket: null,
			holding: true,
			resyncDone: false,
			delivered: false,
			complete: false,
			readyAt: null,
			repairFrom: undefined,
			repairing: undefined,
			repairTimer: undefined,
			repairAttempt: 0,
			ready,
			markReady,
			markEnded,
		};
		this.#connection = connection;
		return connection;
	}

	/** `events/search`, page after page, validated as the socket's events are (options.validate). */
	#history(search: {sortOrder: 'TIMESTAMP'; timestampGte: string | undefined; signal: AbortSignal}): AsyncIterable<LoggedEvent> {
		const client = this.#client;
		if (this.#options.validate === 'on-read' && client.allEventsLater) return client.allEventsLater(search);
		return client.allEvents({...search, onInvalid: (items) => this.#invalid(items)});
	}

	#current(connection: Connection): boolean {
		return !this.#stopped && this.#connection === connection && !connection.abort.signal.aborted;
	}

	/**
	 * `events/search` from the watermark (minus the overlap) to the end, after the read already
	 * under way if there is one. Each page joins the log as it lands and moves the watermark. Only
	 * close() cancels it: under a socket that cannot stay up, this read is what makes progress,
	 * and throwing its page in flight away at every drop would make none. `onStart` runs when the
	 * read begins (its first page is asked for after that). A log handed over by an earlier
	 * supervisor resumes where it was complete.
	 */
	#readOnward(credit: Connection | null, onStart?: () => void): Promise<void> {
		const read = this.#reads
			.catch(() => undefined)
			.then(async () => {
				this.#lifetime.signal.throwIfAborted();
				onStart?.();
				const synced = this.log.syncedThrough;
				const gte = synced === null ? undefined : shiftNaiveTimestamp(synced, -(this.#options.resyncOverlapMs ?? 1000));
				await this.#readHistory(gte, this.#lifetime.signal, credit);
			});
		this.#reads = read;
		return read;
	}

	/**
	 * `events/search` ascending from `gte`. Ascending pages are complete from `gte` up to their
	 * last event: when `gte` is at or below the watermark, each page joins the log as it lands and
	 * moves the watermark, so a read cut short (a dropped connection, a failed page) resumes where
	 * it stopped. Otherwise (a repair from past the watermark) the events are returned for the
	 * caller to merge. (Never log.lastTimestamp: the log may hold newer events beyond a range
	 * nobody has verified.)
	 */
	async #readHistory(gte: string | undefined, signal: AbortSignal, credit: Connection | null): Promise<LoggedEvent[]> {
		const synced = this.log.syncedThrough;
		const extendsWatermark = gte === undefined || (synced !== null && gte <= synced);
		const kept: LoggedEvent[] = [];
		let page: LoggedEvent[] = [];
		const pageSize = 100;
		const stored = () => {
			const last = page.at(-1);
			this.#store(page, credit);
			page = [];
			if (last && (this.log.syncedThrough === null || last.timestamp > this.log.syncedThrough)) this.log.syncedThrough = last.timestamp;
		};
		try {
			for await (const event of this.#history({sortOrder: 'TIMESTAMP', timestampGte: gte, signal})) {
				if (!extendsWatermark) {
					kept.push(event);
					continue;
				}
				page.push(event);
				if (page.length >= pageSize) stored();
			}
		} finally {
			// What was read before a failure or a drop is still complete from `gte`.
			if (!this.#stopped) stored();
		}
		return kept;
	}

	/**
	 * Pages `events/search` from `from` (minus the overlap) to the end. Returns the events, or null
	 * when the search failed: the gap is then shown, and the caller schedules a retry.
	 */
	async #resync(connection: Connection, from: string | null): Promise<LoggedEvent[] | null> {
		const overlap = this.#options.resyncOverlapMs ?? 1000;
		const gte = from === null ? undefined : shiftNaiveTimestamp(from, -overlap);
		const synced = this.log.syncedThrough;
		// From at or below the watermark: read onward (the log is complete below it), a read that
		// outlives this connection. From past it (a lost frame's repair): this connection's own.
		const onward = gte === undefined || (synced !== null && gte <= synced);
		const {signal} = connection.abort;
		try {
			const events = onward ? (await this.#readOnward(connection), []) : await this.#readHistory(gte, signal, connection);
			if (!this.#current(connection)) return null;
			connection.complete = true;
			connection.repairAttempt = 0;
			// Proven complete again: the gap and the error that caused it are over.
			if (this.#status.gap && connection.repairFrom === undefined) this.#setStatus({gap: false, lastError: undefined});
			return events;
		} catch (error) {
			if (!this.#current(connection) || signal.aborted) return null;
			if (isFatal(error)) throw error;
			const message = `could not check for missed events: ${errorMessage(error)}`;
			this.#problem({kind: 'resync-failed', message});
			this.#setGap(true, message);
			return null;
		}
	}

	/**
	 * Asks for a REST check from `from` (merged with any already wanted: the earliest wins). One
	 * runs at a time, and none while the connection's own resync is still holding frames.
	 */
	#requestRepair(connection: Connection, from: string | null | undefined, delayMs: number): void {
		if (from !== undefined) connection.repairFrom = earliest(connection.repairFrom, from);
		if (connection.repairFrom === undefined || !connection.resyncDone || connection.repairTimer || connection.repairing !== undefined) return;
		if (!this.#current(connection)) return;
		connection.repairTimer = setTimeout(() => void this.#runRepair(connection), delayMs);
	}

	async #runRepair(connection: Connection): Promise<void> {
		connection.repairTimer = undefined;
		if (!this.#current(connection) || connection.repairFrom === undefined) return;
		const from = connection.repairFrom;
		connection.repairFrom = undefined;
		connection.repairing = from;
		let events: LoggedEvent[] | null;
		try {
			events = await this.#resync(connection, from);
		} catch (error) {
			connection.repairing = undefined;
			if (this.#current(connection)) this.#connectionFailed(connection, error);
			return;
		}
		connection.repairing = undefined;
		if (!this.#current(connection)) return;
		if (events) {
			if (!connection.holding) this.#merge(events);
			else if (connection.repairFrom === undefined) {
				// Server order: the check is over, and nothing else is outstanding.
				connection.holding = false;
				this.#merge(events);
				this.#setStatus({});
			} else this.#hold(events);
			this.#requestRepair(connection, undefined, 0);
		} else {
			this.#requestRepair(connection, from, this.#delay(connection.repairAttempt++));
		}
	}

	/** The newest timestamp received so far (log or frames not yet merged); null when nothing is. */
	#tip(): string | null {
		let tip = this.log.lastTimestamp;
		for (const event of this.#pending) if (tip === null || event.timestamp > tip) tip = event.timestamp;
		return tip;
	}

	// The socket

	#openSocket(connection: Connection, resend: ResendMode): StreamSocket {
		const options = this.#options;
		const open = options.openSocket ?? ((socketOptions: EventSocketOptions) => new EventSocket(socketOptions));
		return open({
			url: this.#client.socketUrl(),
			sessionApiKey: this.#client.sessionApiKey,
			resend,
			handshakeTimeoutMs: options.handshakeTimeoutMs,
			firstFrameTimeoutMs: options.firstFrameTimeoutMs,
			heartbeatIntervalMs: options.heartbeatIntervalMs,
			heartbeatGraceMs: options.heartbeatGraceMs,
			maxPayloadBytes: options.maxPayloadBytes,
			validate: options.validate,
			handlers: {
				onReady: () => {
					if (!this.#current(connection)) return;
					connection.readyAt = this.#now();
					connection.markReady();
				},
				onEvent: (event) => {
					if (this.#current(connection)) this.#receive(connection, event);
				},
				onProblem: (problem) => {
					if (!this.#current(connection)) return;
					this.#problem(problem);
					// An unreadable frame was an event we lost: fetch what came after the last one we have.
					// In server order, nothing newer may be announced before that check.
					if (problem.kind !== 'malformed-frame') return;
					if (this.#strict && !connection.holding) {
						connection.holding = true;
						this.#setStatus({});
					}
					this.#requestRepair(connection, this.#tip(), 0);
				},
				onEnd: (end) => this.#socketEnded(connection, end),
			},
		});
	}

	#receive(connection: Connection, logged: LoggedEvent): void {
		const event = transientEvent(logged);
		if (event) {
			// Newer than the last REST read (a new socket's full_state says the current status): that
			// read no longer settles the stream; the next one, begun after this frame, will.
			if (!connection.resyncDone && this.#caughtUp) {
				this.#caughtUp = false;
				this.#setStatus({});
			}
			this.#trackStatus([event]);
			if (event.kind === 'ServerErrorEvent') {
				this.#problem({kind: 'server-error', message: `the agent server reported: ${[event.code, event.detail].filter(Boolean).join(': ').slice(0, 300)}`});
			}
			this.#options.onTransient?.(event);
			return;
		}
		if (!connection.delivered && !this.log.has(logged.id) && !this.#pendingIds.has(logged.id)) connection.delivered = true;
		this.#pendingIds.add(logged.id);
		this.#pending.push(logged);
		// Frames of one burst arrive in one I/O turn: one log update and one notification for all of them.
		if (!connection.holding) this.#flush ??= setImmediate(() => this.#flushPending());
	}

	#flushPending(): void {
		this.#flush = undefined;
		if (this.#stopped) return;
		// Frames carried over a reconnect, or held for a check, wait for it.
		if (this.#strict && (!this.#connection || this.#connection.holding)) return;
		this.#merge([]);
	}

	#socketEnded(connection: Connection, end: SocketEnd): void {
		connection.markEnded(new Error(end.message));
		if (this.#connection !== connection || this.#stopped) return;
		if (end.kind === 'oversized-frame') {
			this.#avoidReplay = true;
			this.#problem({kind: 'oversized-frame', message: end.message});
		} else if (end.kind === 'invalid-utf8') {
			this.#problem({kind: 'invalid-utf8', message: end.message});
		}
		if (end.fatal) {
			this.#fail(end.message);
			return;
		}
		this.#connectionFailed(connection, new Error(end.message));
	}

	// Outcomes

	#connectionFailed(connection: Connection, error: unknown): void {
		if (this.#connection !== connection || this.#stopped) return;
		if (isFatal(error)) {
			this.#fail(errorMessage(error));
			return;
		}
		const socket = this.#endConnection(connection);
		void socket?.terminate();
		const now = this.#now();
		const healthy = connection.readyAt !== null && now - connection.readyAt >= (this.#options.healthyAfterMs ?? 30_000);
		// Progress (new events) or a long stay: the next wait is the shortest again.
		if (healthy || connection.delivered) this.#attempt = 0;
		const delay = this.#delay(this.#attempt);
		this.#attempt++;
		this.#setStatus({state: 'reconnecting', attempt: this.#attempt, nextRetryInMs: delay, lastError: errorMessage(error)});
		this.#retryTimer = setTimeout(() => void this.#connect(), delay);
		// Read on over REST until a connection holds: soon if this one did not, at once after several.
		this.#unheld = connection.resyncDone ? 0 : this.#unheld + 1;
		this.#scheduleCatchUp(this.#unheld >= (this.#options.catchUpAfterFailures ?? 2) ? 0 : this.#catchUpIntervalMs());
	}

	// Reading on over REST while no socket holds

	#catchUpIntervalMs(): number {
		return this.#options.catchUpIntervalMs ?? 2000;
	}

	#scheduleCatchUp(delayMs: number): void {
		if (this.#stopped || this.#catchingUp) return;
		if (this.#catchUpTimer) {
			if (delayMs > 0) return;
			clearTimeout(this.#catchUpTimer);
		}
		this.#catchUpTimer = setTimeout(() => void this.#catchUp(), delayMs);
	}

	/** One REST read from the watermark to the end; then the next, until a connection holds. */
	async #catchUp(): Promise<void> {
		this.#catchUpTimer = undefined;
		if (this.#stopped || this.#connection?.resyncDone) return;
		this.#catchingUp = true;
		// Frames already received were stored on the server before the read's first page is asked for.
		let before: ReadonlySet<string> = new Set();
		try {
			await this.#readOnward(null, () => {
				before = new Set(this.#pendingIds);
				// Said as the read starts, not when it ends: a long history takes many pages.
				if (!this.#overRest && !this.#connection?.resyncDone) {
					this.#overRest = true;
					this.#setStatus({});
				}
			});
			if (this.#stopped) return;
			this.#mergeHeld(before);
			this.#caughtUp = true;
			// Complete up to its newest event: a gap from a failed resync is closed.
			this.#setStatus({gap: false, restReadAt: this.#now()});
		} catch (error) {
			if (this.#stopped) return;
			if (isFatal(error)) {
				this.#fail(errorMessage(error));
				return;
			}
			this.#caughtUp = false;
			// Nothing is being read: no longer "over REST" until the next read starts.
			this.#overRest = false;
			this.#setStatus({restReadAt: undefined});
		} finally {
			this.#catchingUp = false;
		}
		if (!this.#connection?.resyncDone) this.#scheduleCatchUp(this.#catchUpIntervalMs());
	}

	/** Adds the held frames with these ids to the log (a read that began after them has ended); the rest stay held. */
	#mergeHeld(ids: ReadonlySet<string>): void {
		if (ids.size === 0) return;
		const now = this.#pending.filter((event) => ids.has(event.id));
		if (now.length === 0) return;
		this.#pending = this.#pending.filter((event) => !ids.has(event.id));
		this.#pendingIds.clear();
		for (const event of this.#pending) this.#pendingIds.add(event.id);
		const fresh = this.log.addNew(now);
		if (fresh.length > 0) this.#announce(fresh, null);
	}

	#fail(message: string): void {
		const socket = this.#teardown();
		void socket?.terminate();
		this.#stopped = true;
		this.#lifetime.abort();
		this.#setStatus({state: 'failed', nextRetryInMs: undefined, lastError: message});
	}

	/**
	 * Detaches the current connection and cancels its work; returns its socket to close. Frames
	 * that did arrive are real events and are kept: merged now, or (server order, still held) kept
	 * waiting for the next connection's resync. The watermark moves only if this connection
	 * proved the log complete, and never past a repair still outstanding.
	 */
	#endConnection(connection: Connection): StreamSocket | null {
		if (!this.#strict || !connection.holding) this.#merge([]);
		if (connection.complete && this.#connection === connection) {
			let outstanding = earliest(connection.repairFrom, connection.repairing);
			// Held frames are not in the log: it is known complete only up to its own newest event.
			if (this.#strict && connection.holding && outstanding !== undefined) outstanding = earliest(outstanding, this.log.lastTimestamp);
			this.log.syncedThrough = outstanding !== undefined ? outstanding : (this.log.lastTimestamp ?? this.log.syncedThrough);
		}
		connection.abort.abort();
		clearTimeout(connection.repairTimer);
		connection.repairTimer = undefined;
		if (this.#connection === connection) this.#connection = null;
		return connection.socket;
	}

	#teardown(): StreamSocket | null {
		clearTimeout(this.#retryTimer);
		this.#retryTimer = undefined;
		clearTimeout(this.#catchUpTimer);
		this.#catchUpTimer = undefined;
		if (this.#flush) clearImmediate(this.#flush);
		this.#flush = undefined;
		const connection = this.#connection;
		if (!connection) return null;
		return this.#endConnection(connection);
	}

	// The log

	/** Adds events (plus any frames waiting) to the log and tells the listener about the new ones. */
	#merge(events: readonly LoggedEvent[]): void {
		const waiting = this.#pending;
		this.#pending = [];
		this.#pendingIds.clear();
		if (this.#flush) clearImmediate(this.#flush);
		this.#flush = undefined;
		const fresh = this.log.addNew(waiting.length === 0 ? events : [...events, ...waiting]);
		if (fresh.length > 0) this.#announce(fresh, this.#connection);
	}

	/** Server order: events that must wait with the held frames until the log is complete below them. */
	#hold(events: readonly LoggedEvent[]): void {
		for (const event of events) {
			if (this.#pendingIds.has(event.id) || this.log.has(event.id)) continue;
			this.#pendingIds.add(event.id);
			this.#pending.push(event);
		}
	}

	/** History pages that extend the watermark go straight into the log (they are complete below their end). */
	#store(events: readonly LoggedEvent[], credit: Connection | null): void {
		// A page still being iterated when the stream closed: the log may have moved on (a window reset).
		if (this.#stopped) return;
		const fresh = this.log.addNew(events);
		if (fresh.length > 0) this.#announce(fresh, credit);
	}

	/** `credit`: the connection whose read or frames brought these (its next drop starts the backoff again from its minimum). */
	#announce(fresh: readonly LoggedEvent[], credit: Connection | null): void {
		if (credit) credit.delivered = true;
		this.#trackStatus(fresh);
		this.#setStatus({lastEventAt: this.#now(), lastEventTimestamp: this.log.lastTimestamp ?? undefined});
		this.#options.onEvents?.(fresh);
	}

	/**
	 * The newest state update (by event order, not arrival) decides the execution status. One
	 * report per batch: a backfill replays every past status, and reporting each would make a
	 * conversation waiting for an hour look as if it had just started waiting.
	 */
	#trackStatus(events: readonly LoggedEvent[]): void {
		let newest: string | undefined;
		for (const event of events) {
			const status = executionStatusOf(event);
			if (status === undefined) continue;
			if (this.#statusFrom && compareEvents(event, this.#statusFrom) < 0) continue;
			this.#statusFrom = {timestamp: event.timestamp, id: event.id};
			newest = status;
		}
		if (newest !== undefined && newest !== this.#status.executionStatus) this.#setStatus({executionStatus: newest});
	}

	// Reporting

	#invalid(items: InvalidItem[]): void {
		for (const item of items) this.#problem({kind: 'invalid-item', message: `an event in a history page is invalid (kept as unknown): ${item.message}`, eventKind: claimedKind(item.raw), ...idOf(item.raw)});
	}

	#problem(problem: StreamProblem): void {
		this.#options.onProblem?.(problem);
	}

	#setGap(gap: boolean, message: string): void {
		this.#setStatus({gap, lastError: message});
	}

	#setStatus(patch: Partial<StreamStatus>): void {
		if (this.#status.state === 'failed' || (this.#status.state === 'closed' && patch.state !== undefined)) return;
		const next: StreamStatus = {...this.#status, ...patch, events: this.log.size};
		const connection = this.#connection;
		const holds = next.state === 'live' && connection !== null && !connection.holding && connection.repairFrom === undefined && connection.repairing === undefined;
		const caughtUp = next.state !== 'live' && this.#caughtUp;
		next.settled = !next.gap && this.#pending.length === 0 && (holds || caughtUp);
		next.overRest = next.state !== 'live' && this.#overRest;
		if (!next.overRest || next.restReadAt === undefined) delete next.restReadAt;
		if (next.state !== 'reconnecting') delete next.nextRetryInMs;
		if (next.lastError === undefined) delete next.lastError;
		if (sameStatus(this.#status, next)) return;
		this.#status = next;
		this.#options.onStatus?.(next);
	}

	#delay(attempt: number): number {
		const backoff = {...defaultBackoff, ...this.#options.backoff};
		return fullJitterDelay(attempt, {baseMs: backoff.baseMs, capMs: backoff.capMs, random: this.#random});
	}
}

/** The earlier of two resync starts; undefined is "none", null is "the very beginning". */
function earliest(a: string | null | undefined, b: string | null | undefined): string | null | undefined {
	if (a === undefined) return b;
	if (b === undefined) return a;
	if (a === null || b === null) return null;
	return a < b ? a : b;
}

/** Retrying cannot fix a refused key or a conversation that is not there. */
function isFatal(error: unknown): boolean {
	return error instanceof KeyRejectedError || error instanceof NotFoundError;
}

function sameStatus(a: StreamStatus, b: StreamStatus): boolean {
	return (
		a.state === b.state &&
		a.attempt === b.attempt &&
		a.nextRetryInMs === b.nextRetryInMs &&
		a.lastError === b.lastError &&
		a.lastEventAt === b.lastEventAt &&
		a.lastEventTimestamp === b.lastEventTimestamp &&
		a.executionStatus === b.executionStatus &&
		a.gap === b.gap &&
		a.settled === b.settled &&
		a.overRest === b.overRest &&
		a.restReadAt === b.restReadAt &&
		a.events === b.events
	);
}

function idOf(raw: unknown): {eventId?: string} {
	const id = raw !== null && typeof raw === 'object' ? (raw as {id?: unknown}).id : undefined;
	return typeof id === 'string' ? {eventId: id} : {};
}

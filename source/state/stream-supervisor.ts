import {errorMessage} from '../wire/errors.js';
import {loadWebSocket, type ResendMode, type SocketEnd} from '../wire/event-socket.js';
import type {InvalidItem} from '../wire/schemas/common.js';
import type {LoggedEvent} from '../wire/schemas/events.js';
import {EventLog} from './event-log.js';
import {RestCatchUp} from './stream-catch-up.js';
import {earliest, isFatal, newConnection, openStreamSocket, type Connection} from './stream-connection.js';
import {transientEvent} from './stream-events.js';
import {HeldFrames} from './stream-held-frames.js';
import {HistoryReader} from './stream-history.js';
import {ReconnectPolicy} from './stream-reconnect.js';
import {ConnectionRepairs} from './stream-repair.js';
import {ExecutionStatusTracker, invalidItemProblems, nextStatus} from './stream-status.js';
import type {StreamClient, StreamProblem, StreamSocket, StreamStatus, StreamSupervisorOptions} from './stream-types.js';

export type {StreamClient, StreamProblem, StreamSocket, StreamState, StreamStatus, StreamSupervisorOptions} from './stream-types.js';

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
 * Progress does not depend on the socket staying up: the reads that extend the watermark outlive
 * it (stream-history.ts), and while no connection holds the history is read on over REST
 * (stream-catch-up.ts). Reconnects back off with full jitter (stream-reconnect.ts). A refused
 * key (4001, HTTP 401/403) or an unknown conversation (4004, HTTP 404) stops everything: retrying
 * cannot fix either.
 */

/** Loads the WebSocket library ahead of the first stream (the dashboard does, once its first frame is out). */
export const preloadStreams = (): Promise<unknown> => loadWebSocket();

export class StreamSupervisor {
	readonly log: EventLog;
	readonly #client: StreamClient;
	readonly #options: StreamSupervisorOptions;
	readonly #now: () => number;
	#status: StreamStatus;
	#connection: Connection | null = null;
	#generation = 0;
	#backfilled = false;
	/** After an oversized frame, replays would send it again: rely on REST instead (also the `replay: false` option). */
	#avoidReplay = false;
	#retryTimer: NodeJS.Timeout | undefined;
	readonly #held = new HeldFrames();
	readonly #strict: boolean;
	readonly #executionStatus = new ExecutionStatusTracker();
	#started = false;
	#stopped = false;
	/** Aborted by close() or a fatal failure only: the reads that extend the watermark outlive the socket they were started for. */
	readonly #lifetime = new AbortController();
	readonly #history: HistoryReader;
	readonly #reconnect: ReconnectPolicy;
	readonly #catchUp: RestCatchUp;
	readonly #repairs: ConnectionRepairs;

	constructor(options: StreamSupervisorOptions) {
		this.#options = options;
		this.#client = options.client;
		this.log = options.log ?? new EventLog();
		this.#now = options.now ?? Date.now;
		this.#reconnect = new ReconnectPolicy(options, this.#now, options.random ?? Math.random);
		this.#history = new HistoryReader({
			client: this.#client,
			log: this.log,
			settings: options,
			lifetime: this.#lifetime.signal,
			stopped: () => this.#stopped,
			store: (events, credit) => this.#store(events, credit),
			onInvalid: (items) => this.#invalid(items),
		});
		this.#repairs = new ConnectionRepairs({
			history: this.#history,
			current: (connection) => this.#current(connection),
			gap: () => this.#status.gap,
			setStatus: (patch) => this.#setStatus(patch),
			problem: (problem) => this.#problem(problem),
			delay: (attempt) => this.#reconnect.delay(attempt),
			connectionFailed: (connection, error) => this.#connectionFailed(connection, error),
			merge: (events) => this.#merge(events),
			hold: (events) => this.#hold(events),
		});
		this.#catchUp = new RestCatchUp({
			stopped: () => this.#stopped,
			holds: () => this.#connection?.resyncDone === true,
			read: (onStart) => this.#history.readOnward(null, onStart),
			heldIds: () => this.#held.ids(),
			mergeHeld: (ids) => this.#mergeHeld(ids),
			setStatus: (patch) => this.#setStatus(patch),
			fail: (message) => this.#fail(message),
			now: this.#now,
			intervalMs: () => this.#reconnect.catchUpIntervalMs,
		});
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
				await this.#history.readOnward(connection);
				this.#backfilled = true;
				// Read to the end: settled until a frame arrives. If no socket holds soon, read on over REST.
				this.#catchUp.caughtUp = true;
				this.#setStatus({});
				this.#catchUp.schedule(this.#reconnect.catchUpIntervalMs);
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

			const resynced = await this.#repairs.resync(connection, from);
			if (!this.#current(connection)) return;
			connection.resyncDone = true;
			// The socket held through a resync: the REST catch-up, if any, is over.
			this.#reconnect.held();
			this.#catchUp.stop();
			// In server order, frames wait until the log is proven complete below them.
			if (!this.#strict || (resynced !== null && connection.repairFrom === undefined)) {
				connection.holding = false;
				this.#merge(resynced ?? []);
			} else {
				this.#hold(resynced ?? []);
			}
			// A failed resync is retried in the background; frames lost meanwhile are checked now.
			if (resynced === null) this.#repairs.request(connection, from, this.#reconnect.delay(connection.repairAttempt++));
			else this.#repairs.request(connection, undefined, 0);
			// A gap, if the resync failed, keeps its message; otherwise the trouble is over.
			this.#setStatus(this.#status.gap ? {state: 'live', restReadAt: undefined} : {state: 'live', lastError: undefined, restReadAt: undefined});
		} catch (error) {
			if (!this.#current(connection) || signal.aborted) return;
			this.#connectionFailed(connection, error);
		}
	}

	#newConnection(): Connection {
		const connection = newConnection(++this.#generation);
		this.#connection = connection;
		return connection;
	}

	#current(connection: Connection): boolean {
		return !this.#stopped && this.#connection === connection && !connection.abort.signal.aborted;
	}

	/** The newest timestamp received so far (log or frames not yet merged); null when nothing is. */
	#tip(): string | null {
		return this.#held.tip(this.log.lastTimestamp);
	}

	// The socket

	#openSocket(connection: Connection, resend: ResendMode): StreamSocket {
		return openStreamSocket(this.#options, resend, {
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
				this.#repairs.request(connection, this.#tip(), 0);
			},
			onEnd: (end) => this.#socketEnded(connection, end),
		});
	}

	#receive(connection: Connection, logged: LoggedEvent): void {
		const event = transientEvent(logged);
		if (event) {
			// Newer than the last REST read (a new socket's full_state says the current status): that
			// read no longer settles the stream; the next one, begun after this frame, will.
			if (!connection.resyncDone && this.#catchUp.caughtUp) {
				this.#catchUp.caughtUp = false;
				this.#setStatus({});
			}
			this.#trackStatus([event]);
			if (event.kind === 'ServerErrorEvent') {
				this.#problem({kind: 'server-error', message: `the agent server reported: ${[event.code, event.detail].filter(Boolean).join(': ').slice(0, 300)}`});
			}
			this.#options.onTransient?.(event);
			return;
		}
		if (!connection.delivered && !this.log.has(logged.id) && !this.#held.has(logged.id)) connection.delivered = true;
		this.#held.add(logged);
		// Frames of one burst arrive in one I/O turn: one log update and one notification for all of them.
		if (!connection.holding) this.#held.scheduleFlush(() => this.#flushPending());
	}

	#flushPending(): void {
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
		const next = this.#reconnect.afterDrop(connection);
		this.#setStatus({state: 'reconnecting', attempt: next.attempt, nextRetryInMs: next.delayMs, lastError: errorMessage(error)});
		this.#retryTimer = setTimeout(() => void this.#connect(), next.delayMs);
		this.#catchUp.schedule(next.catchUpInMs);
	}

	/** Adds the held frames with these ids to the log (a read that began after them has ended); the rest stay held. */
	#mergeHeld(ids: ReadonlySet<string>): void {
		const now = this.#held.take(ids);
		if (now.length === 0) return;
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
		this.#catchUp.cancel();
		this.#held.cancelFlush();
		const connection = this.#connection;
		if (!connection) return null;
		return this.#endConnection(connection);
	}

	// The log

	/** Adds events (plus any frames waiting) to the log and tells the listener about the new ones. */
	#merge(events: readonly LoggedEvent[]): void {
		const waiting = this.#held.takeAll();
		const fresh = this.log.addNew(waiting.length === 0 ? events : [...events, ...waiting]);
		if (fresh.length > 0) this.#announce(fresh, this.#connection);
	}

	/** Server order: events that must wait with the held frames until the log is complete below them. */
	#hold(events: readonly LoggedEvent[]): void {
		this.#held.hold(events, this.log);
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

	/** The newest state update (by event order, not arrival) decides the execution status (stream-status.ts). */
	#trackStatus(events: readonly LoggedEvent[]): void {
		const newest = this.#executionStatus.newest(events);
		if (newest !== undefined && newest !== this.#status.executionStatus) this.#setStatus({executionStatus: newest});
	}

	// Reporting

	#invalid(items: InvalidItem[]): void {
		for (const problem of invalidItemProblems(items)) this.#problem(problem);
	}

	#problem(problem: StreamProblem): void {
		this.#options.onProblem?.(problem);
	}

	#setStatus(patch: Partial<StreamStatus>): void {
		const next = nextStatus(this.#status, patch, {events: this.log.size, connection: this.#connection, pending: this.#held.size, caughtUp: this.#catchUp.caughtUp, overRest: this.#catchUp.overRest});
		if (next === null) return;
		this.#status = next;
		this.#options.onStatus?.(next);
	}
}

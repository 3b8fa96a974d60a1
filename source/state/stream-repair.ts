import {errorMessage} from '../wire/errors.js';
import type {LoggedEvent} from '../wire/schemas/events.js';
import {earliest, isFatal, type Connection} from './stream-connection.js';
import type {HistoryReader} from './stream-history.js';
import type {StreamProblem, StreamStatus} from './stream-types.js';

export type ConnectionRepairsOptions = {
	history: HistoryReader;
	/** The connection is still the supervisor's current one, and the supervisor runs. */
	current: (connection: Connection) => boolean;
	/** A gap is shown (StreamStatus.gap). */
	gap: () => boolean;
	setStatus: (patch: Partial<StreamStatus>) => void;
	problem: (problem: StreamProblem) => void;
	/** The wait before retry number `attempt`. */
	delay: (attempt: number) => number;
	/** A repair failed fatally. */
	connectionFailed: (connection: Connection, error: unknown) => void;
	/** Adds events (plus any frames waiting) to the log. */
	merge: (events: readonly LoggedEvent[]) => void;
	/** Server order: events that must wait with the held frames. */
	hold: (events: readonly LoggedEvent[]) => void;
};

/**
 * A connection's REST checks: its resync once the server has subscribed it, and the repairs that
 * follow (a failed resync, retried with backoff; a frame we could not read, an event we lost).
 */
export class ConnectionRepairs {
	readonly #options: ConnectionRepairsOptions;

	constructor(options: ConnectionRepairsOptions) {
		this.#options = options;
	}

	/**
	 * Pages `events/search` from `from` (minus the overlap) to the end. Returns the events, or null
	 * when the search failed: the gap is then shown, and the caller schedules a retry.
	 */
	async resync(connection: Connection, from: string | null): Promise<LoggedEvent[] | null> {
		// From at or below the watermark: read onward (the log is complete below it), a read that
		// outlives this connection. From past it (a lost frame's repair): this connection's own.
		const {gte, onward} = this.#options.history.start(from);
		const {signal} = connection.abort;
		try {
			const events = onward ? (await this.#options.history.readOnward(connection), []) : await this.#options.history.readHistory(gte, signal, connection);
			if (!this.#options.current(connection)) return null;
			connection.complete = true;
			connection.repairAttempt = 0;
			// Proven complete again: the gap and the error that caused it are over.
			if (this.#options.gap() && connection.repairFrom === undefined) this.#options.setStatus({gap: false, lastError: undefined});
			return events;
		} catch (error) {
			if (!this.#options.current(connection) || signal.aborted) return null;
			if (isFatal(error)) throw error;
			const message = `could not check for missed events: ${errorMessage(error)}`;
			this.#options.problem({kind: 'resync-failed', message});
			this.#options.setStatus({gap: true, lastError: message});
			return null;
		}
	}

	/**
	 * Asks for a REST check from `from` (merged with any already wanted: the earliest wins). One
	 * runs at a time, and none while the connection's own resync is still holding frames.
	 */
	request(connection: Connection, from: string | null | undefined, delayMs: number): void {
		if (from !== undefined) connection.repairFrom = earliest(connection.repairFrom, from);
		if (connection.repairFrom === undefined || !connection.resyncDone || connection.repairTimer || connection.repairing !== undefined) return;
		if (!this.#options.current(connection)) return;
		connection.repairTimer = setTimeout(() => void this.#run(connection), delayMs);
	}

	async #run(connection: Connection): Promise<void> {
		connection.repairTimer = undefined;
		if (!this.#options.current(connection) || connection.repairFrom === undefined) return;
		const from = connection.repairFrom;
		connection.repairFrom = undefined;
		connection.repairing = from;
		let events: LoggedEvent[] | null;
		try {
			events = await this.resync(connection, from);
		} catch (error) {
			connection.repairing = undefined;
			if (this.#options.current(connection)) this.#options.connectionFailed(connection, error);
			return;
		}
		connection.repairing = undefined;
		if (!this.#options.current(connection)) return;
		if (events) {
			if (!connection.holding) this.#options.merge(events);
			else if (connection.repairFrom === undefined) {
				// Server order: the check is over, and nothing else is outstanding.
				connection.holding = false;
				this.#options.merge(events);
				this.#options.setStatus({});
			} else this.#options.hold(events);
			this.request(connection, undefined, 0);
		} else {
			this.request(connection, from, this.#options.delay(connection.repairAttempt++));
		}
	}
}

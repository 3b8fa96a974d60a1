import type {InvalidItem} from '../wire/schemas/common.js';
import type {LoggedEvent} from '../wire/schemas/events.js';
import type {EventLog} from './event-log.js';
import {shiftNaiveTimestamp} from './naive-timestamp.js';
import type {Connection} from './stream-connection.js';
import type {StreamClient, StreamSupervisorOptions} from './stream-types.js';

export type HistoryReaderOptions = {
	client: StreamClient;
	log: EventLog;
	/** The supervisor's `validate` ('on-read': pages are not validated yet) and `resyncOverlapMs` (how far before the watermark a read starts, default 1 s); read when needed. */
	settings: Pick<StreamSupervisorOptions, 'validate' | 'resyncOverlapMs'>;
	/** Aborted by the supervisor's close() or a fatal failure only. */
	lifetime: AbortSignal;
	/** The supervisor has closed or failed. */
	stopped: () => boolean;
	/** History pages that extend the watermark, as they land; `credit` is the connection the read was for. */
	store: (events: readonly LoggedEvent[], credit: Connection | null) => void;
	onInvalid: (items: InvalidItem[]) => void;
};

/**
 * A StreamSupervisor's REST reads of `events/search`, ascending: the reads that extend the
 * watermark (`log.syncedThrough`, below which the log is known complete), one at a time, and the
 * repairs from past it.
 */
export class HistoryReader {
	/** The reads that extend the watermark, one at a time, in the order they were asked for. */
	#reads: Promise<unknown> = Promise.resolve();
	readonly #options: HistoryReaderOptions;

	constructor(options: HistoryReaderOptions) {
		this.#options = options;
	}

	/** Where a read from `from` starts (the overlap before it; undefined: the very beginning), and whether it extends the watermark. */
	start(from: string | null): {gte: string | undefined; onward: boolean} {
		const gte = from === null ? undefined : shiftNaiveTimestamp(from, -(this.#options.settings.resyncOverlapMs ?? 1000));
		const synced = this.#options.log.syncedThrough;
		return {gte, onward: gte === undefined || (synced !== null && gte <= synced)};
	}

	/**
	 * `events/search` from the watermark (minus the overlap) to the end, after the read already
	 * under way if there is one. Each page joins the log as it lands and moves the watermark. Only
	 * close() cancels it: under a socket that cannot stay up, this read is what makes progress,
	 * and throwing its page in flight away at every drop would make none. `onStart` runs when the
	 * read begins (its first page is asked for after that). A log handed over by an earlier
	 * supervisor resumes where it was complete.
	 */
	readOnward(credit: Connection | null, onStart?: () => void): Promise<void> {
		const {lifetime} = this.#options;
		const read = this.#reads
			.catch(() => undefined)
			.then(async () => {
				lifetime.throwIfAborted();
				onStart?.();
				await this.readHistory(this.start(this.#options.log.syncedThrough).gte, lifetime, credit);
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
	async readHistory(gte: string | undefined, signal: AbortSignal, credit: Connection | null): Promise<LoggedEvent[]> {
		const {log, store, stopped} = this.#options;
		const synced = log.syncedThrough;
		const extendsWatermark = gte === undefined || (synced !== null && gte <= synced);
		const kept: LoggedEvent[] = [];
		let page: LoggedEvent[] = [];
		const pageSize = 100;
		const stored = () => {
			const last = page.at(-1);
			store(page, credit);
			page = [];
			if (last && (log.syncedThrough === null || last.timestamp > log.syncedThrough)) log.syncedThrough = last.timestamp;
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
			if (!stopped()) stored();
		}
		return kept;
	}

	/** `events/search`, page after page, validated as the socket's events are (options.validate). */
	#history(search: {sortOrder: 'TIMESTAMP'; timestampGte: string | undefined; signal: AbortSignal}): AsyncIterable<LoggedEvent> {
		const {client, settings, onInvalid} = this.#options;
		if (settings.validate === 'on-read' && client.allEventsLater) return client.allEventsLater(search);
		return client.allEvents({...search, onInvalid});
	}
}

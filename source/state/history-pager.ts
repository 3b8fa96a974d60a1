import {type LoggedEvent, mayHoldEncryptedContent} from '../wire/schemas/events.js';
import type {EventLog} from './event-log.js';
import {shiftNaiveTimestamp} from './naive-timestamp.js';

/**
 * Reads a conversation's history back into an EventLog from the newest end, one page at a time,
 * as the view asks: the timeline of a stopped conversation opens on its newest page (one
 * request), and older pages come when the user scrolls up to them, never the whole history up
 * front. The same pager brings back what a long follow dropped to bound memory (the log's floor).
 *
 * A walk is a `TIMESTAMP_DESC` search below the floor (`timestamp__lt` just after the floor's own
 * timestamp, so events sharing it are not skipped; the log drops the repeats), followed page by
 * page through `next_page_id`. The bound keeps offset page ids stable while new events arrive. A
 * trim moves the floor up, so the next walk starts again from there.
 */

export type StoredPageRequest = {
	sortOrder: 'TIMESTAMP_DESC';
	limit: number;
	pageId: string | null;
	/** Only events strictly before this server timestamp. */
	timestampLt?: string;
	signal: AbortSignal;
};

export type StoredPage = {events: readonly LoggedEvent[]; nextPageId: string | null};

/** One page of a conversation's history (the app server's stored copy, through the request budget). */
export type ReadHistoryPage = (request: StoredPageRequest) => Promise<StoredPage>;

export type OlderState = 'none' | 'more' | 'loading' | 'failed';

export type OlderEventsStatus = {
	/** 'none': the log reaches the first event; 'more': older pages exist and are not loaded. */
	state: OlderState;
	/** Pages read so far (the first screen is one). */
	pages: number;
	lastError?: string;
};

const pageSize = 100;
/** Pages of repeats in a row (a server that ignores the bound) before the walk gives up. */
const maxEmptyPages = 3;

export class OlderEvents {
	readonly #log: EventLog;
	readonly #read: ReadHistoryPage;
	readonly #onChange: (fresh: readonly LoggedEvent[]) => void;
	readonly #abort = new AbortController();
	#walk: {below: string; pageId: string | null} | null = null;
	#loading: Promise<void> | null = null;
	#pages = 0;
	#lastError: string | undefined;
	#closed = false;

	constructor(options: {log: EventLog; read: ReadHistoryPage; onChange: (fresh: readonly LoggedEvent[]) => void}) {
		this.#log = options.log;
		this.#read = options.read;
		this.#onChange = options.onChange;
	}

	get status(): OlderEventsStatus {
		const state: OlderState = this.#loading ? 'loading' : this.#lastError ? 'failed' : this.#log.floor ? 'more' : 'none';
		return {state, pages: this.#pages, ...(this.#lastError ? {lastError: this.#lastError} : {})};
	}

	/**
	 * The first screen: the newest page, newest first. Marks the log complete up to its newest
	 * event (so a live stream opened later reads on from there) and sets the floor when older
	 * pages exist.
	 */
	async loadNewest(): Promise<void> {
		await this.#run(async (signal) => {
			const page = compact(await this.#read({sortOrder: 'TIMESTAMP_DESC', limit: pageSize, pageId: null, signal}));
			if (this.#closed) return;
			this.#pages++;
			const oldest = oldestOf(page.events);
			// Older pages: a walk bounded below this page, so events arriving meanwhile cannot shift its offsets.
			if (page.nextPageId && oldest) this.#walk = {below: belowBound(oldest.timestamp), pageId: null};
			const fresh = this.#log.addNew(page.events);
			// Older pages exist unless the log already reaches below this page (a live backfill beat it).
			if (page.nextPageId && oldest && this.#log.events[0]?.id === oldest.id) this.#log.setFloor(oldest);
			const newest = this.#log.lastTimestamp;
			if (newest && (this.#log.syncedThrough === null || newest > this.#log.syncedThrough)) this.#log.syncedThrough = newest;
			this.#onChange(fresh);
		});
	}

	/** The next older page, if any and none is loading; resolves when it is in the log. */
	async loadOlder(): Promise<void> {
		if (this.#loading) return this.#loading;
		if (!this.#log.floor || this.#closed) return;
		await this.#run(async (signal) => {
			let empty = 0;
			for (;;) {
				const floor = this.#log.floor;
				if (!floor) return;
				const below = belowBound(floor.timestamp);
				// A trim moved the floor, or no walk yet: start one below where the log now begins.
				if (!this.#walk || this.#walk.below > below) this.#walk = {below, pageId: null};
				const walk = this.#walk;
				const page = compact(await this.#read({sortOrder: 'TIMESTAMP_DESC', limit: pageSize, pageId: walk.pageId, timestampLt: walk.below, signal}));
				if (this.#closed) return;
				this.#pages++;
				const repeated = page.nextPageId !== null && page.nextPageId === walk.pageId;
				const reachedStart = page.nextPageId === null || page.events.length === 0;
				const fresh = this.#log.addOlder(page.events, reachedStart);
				walk.pageId = page.nextPageId;
				if (reachedStart) this.#walk = null;
				if (repeated) throw new Error('the stored history repeats the same page; stopped reading older events');
				if (fresh.length > 0 || reachedStart) {
					this.#onChange(fresh);
					return;
				}
				// Only repeats of what is held (events sharing the floor's timestamp): read on, a few pages at most.
				if (++empty >= maxEmptyPages) throw new Error('the stored history sends no older events; stopped');
			}
		});
	}

	close(): void {
		this.#closed = true;
		this.#abort.abort();
	}

	async #run(task: (signal: AbortSignal) => Promise<void>): Promise<void> {
		if (this.#closed) return;
		const run = (async () => {
			this.#lastError = undefined;
			this.#onChange([]);
			try {
				await task(this.#abort.signal);
			} catch (error) {
				if (this.#closed) return;
				this.#lastError = error instanceof Error ? error.message : String(error);
			}
		})();
		this.#loading = run;
		try {
			await run;
		} finally {
			this.#loading = null;
			if (!this.#closed) this.#onChange([]);
		}
	}
}

/**
 * A page's unvalidated payloads kept as their JSON text instead of parsed objects, as the socket
 * keeps its frames (events.ts parseEventLater): about a third of the memory, which is what lets
 * a history of 100,000 events be read to its top. A payload that may hold `encrypted_content`
 * stays an object (validation strips it; its text would keep it).
 */
function compact(page: StoredPage): StoredPage {
	for (const event of page.events) {
		if (event.kind !== 'PendingEvent' || typeof event.payload === 'string' || event.settled !== undefined) continue;
		const text = JSON.stringify(event.payload);
		if (!mayHoldEncryptedContent(text)) event.payload = text;
	}
	return page;
}

function oldestOf(events: readonly LoggedEvent[]): LoggedEvent | undefined {
	let oldest: LoggedEvent | undefined;
	for (const event of events) if (!oldest || compareKeys(event, oldest) < 0) oldest = event;
	return oldest;
}

function compareKeys(a: {timestamp: string; id: string}, b: {timestamp: string; id: string}): number {
	if (a.timestamp !== b.timestamp) return a.timestamp < b.timestamp ? -1 : 1;
	return a.id === b.id ? 0 : a.id < b.id ? -1 : 1;
}

/**
 * A `timestamp__lt` bound just after `timestamp`, at its own precision, so the events that share
 * the floor's timestamp are read too (the log drops the ones it has).
 */
export function belowBound(timestamp: string): string {
	const fraction = /\.(\d+)$/.exec(timestamp)?.[1]?.length ?? 0;
	const stepMs = fraction >= 6 ? 0.001 : fraction >= 3 ? 1 : fraction > 0 ? 10 ** (3 - fraction) : 1000;
	return shiftNaiveTimestamp(timestamp, stepMs);
}

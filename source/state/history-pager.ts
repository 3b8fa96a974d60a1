import {compareEvents, holdAsText, type LoggedEvent} from '../wire/schemas/events.js';
import type {EventLog} from './event-log.js';
import {shiftNaiveTimestamp} from './naive-timestamp.js';

/**
 * Reads a conversation's history into an EventLog a page at a time, as the view asks: the
 * timeline of a stopped conversation opens on its newest page (one request), older pages come
 * when the user scrolls up to them, never the whole history up front. The log is a window on the
 * history: what a long follow dropped from the old end (the log's floor), and what reading far
 * back dropped from the new end (its ceiling), are read back the same way when scrolled to.
 *
 * Older: a `TIMESTAMP_DESC` walk below the floor (`timestamp__lt` just after the floor's own
 * timestamp, so events sharing it are not skipped; the log drops the repeats). Newer: a
 * `TIMESTAMP` walk from the ceiling (`timestamp__gte` its timestamp). Each is followed page by
 * page through `next_page_id`; the bound keeps offset page ids stable while new events arrive. A
 * trim that moves the floor up (or the ceiling down) starts the walk again from there.
 */

export type StoredPageRequest = {
	sortOrder: 'TIMESTAMP_DESC' | 'TIMESTAMP';
	limit: number;
	pageId: string | null;
	/** Only events strictly before this server timestamp. */
	timestampLt?: string;
	/** Only events at or after this server timestamp. */
	timestampGte?: string;
	signal: AbortSignal;
};

export type StoredPage = {events: readonly LoggedEvent[]; nextPageId: string | null};

/** One page of a conversation's history (the app server's stored copy, through the request budget). */
export type ReadHistoryPage = (request: StoredPageRequest) => Promise<StoredPage>;

export type HistoryEndState = 'none' | 'more' | 'loading' | 'failed';

/** One end of the window: whether events beyond it exist that are not held. */
export type HistoryEndStatus = {
	/** 'none': the log reaches this end of the history; 'more': pages beyond it exist and are not loaded. */
	state: HistoryEndState;
	/** Pages read so far, both ends (the first screen is one). */
	pages: number;
	lastError?: string;
};

type Direction = 'older' | 'newer';

const pageSize = 100;
/** Pages of repeats in a row (a server that ignores the bound) before the walk gives up. */
const maxEmptyPages = 3;

export class HistoryPager {
	readonly #log: EventLog;
	readonly #read: ReadHistoryPage;
	readonly #onChange: (fresh: readonly LoggedEvent[]) => void;
	#abort = new AbortController();
	#older: {below: string; pageId: string | null} | null = null;
	#newer: {from: string; pageId: string | null} | null = null;
	#loading: {direction: Direction | 'newest'; done: Promise<void>} | null = null;
	#pages = 0;
	#lastError: {direction: Direction | 'newest'; message: string} | null = null;
	#closed = false;

	constructor(options: {log: EventLog; read: ReadHistoryPage; onChange: (fresh: readonly LoggedEvent[]) => void}) {
		this.#log = options.log;
		this.#read = options.read;
		this.#onChange = options.onChange;
	}

	/** The old end: older events not held (below the floor). The first screen's read counts here. */
	get status(): HistoryEndStatus {
		return this.#statusOf('older', this.#log.floor !== null);
	}

	/** The new end: newer events not held (above the ceiling). */
	get newerStatus(): HistoryEndStatus {
		return this.#statusOf('newer', this.#log.ceiling !== null);
	}

	/**
	 * The first screen: the newest page, newest first. Marks the log complete up to its newest
	 * event (so a live stream opened later reads on from there) and sets the floor when older
	 * pages exist.
	 */
	async loadNewest(): Promise<void> {
		await this.#run('newest', async (signal) => {
			const page = compact(await this.#read({sortOrder: 'TIMESTAMP_DESC', limit: pageSize, pageId: null, signal}));
			if (signal.aborted) return;
			this.#pages++;
			const oldest = oldestOf(page.events);
			// Older pages: a walk bounded below this page, so events arriving meanwhile cannot shift its offsets.
			if (page.nextPageId && oldest) this.#older = {below: belowBound(oldest.timestamp), pageId: null};
			const fresh = this.#log.addNew(page.events);
			// Older pages exist unless the log already reaches below this page (a live backfill beat it).
			if (page.nextPageId && oldest && this.#log.events[0]?.id === oldest.id) this.#log.setFloor(oldest);
			const newest = this.#log.lastTimestamp;
			if (newest && (this.#log.syncedThrough === null || newest > this.#log.syncedThrough)) this.#log.syncedThrough = newest;
			this.#onChange(fresh);
		});
	}

	/** The next older page, if any and nothing is loading; resolves when it is in the log. */
	async loadOlder(): Promise<void> {
		if (this.#loading) return this.#loading.done;
		if (!this.#log.floor || this.#closed) return;
		await this.#run('older', async (signal) => {
			await this.#walk(signal, () => {
				const floor = this.#log.floor;
				if (!floor) return null;
				const below = belowBound(floor.timestamp);
				// A trim moved the floor up, or no walk yet: start one below where the log now begins.
				if (!this.#older || this.#older.below > below) this.#older = {below, pageId: null};
				const walk = this.#older;
				return {
					request: {sortOrder: 'TIMESTAMP_DESC', pageId: walk.pageId, timestampLt: walk.below},
					add: (events, reachedEnd) => this.#log.addOlder(events, reachedEnd),
					next: (pageId, reachedEnd) => {
						walk.pageId = pageId;
						if (reachedEnd) this.#older = null;
					},
				};
			});
		});
	}

	/** The next newer page above the ceiling, if any and nothing is loading; resolves when it is in the log. */
	async loadNewer(): Promise<void> {
		if (this.#loading) return this.#loading.done;
		if (!this.#log.ceiling || this.#closed) return;
		await this.#run('newer', async (signal) => {
			await this.#walk(signal, () => {
				const ceiling = this.#log.ceiling;
				if (!ceiling) return null;
				// A trim moved the ceiling down, or no walk yet: start one from where the log now ends.
				if (!this.#newer || this.#newer.from > ceiling.timestamp) this.#newer = {from: ceiling.timestamp, pageId: null};
				const walk = this.#newer;
				return {
					request: {sortOrder: 'TIMESTAMP', pageId: walk.pageId, timestampGte: walk.from},
					add: (events, reachedEnd) => this.#log.addNewer(events, reachedEnd),
					next: (pageId, reachedEnd) => {
						walk.pageId = pageId;
						if (reachedEnd) this.#newer = null;
					},
				};
			});
		});
	}

	/**
	 * Forgets the walks and cancels a read under way: the log was reset (the view jumped to the
	 * newest end), so the next read starts from what the log then holds.
	 */
	reset(): void {
		this.#abort.abort();
		this.#abort = new AbortController();
		this.#older = null;
		this.#newer = null;
		this.#lastError = null;
	}

	close(): void {
		this.#closed = true;
		this.#abort.abort();
	}

	/** Pages in one direction until one brings something new (or the end), a few repeats at most. */
	async #walk(
		signal: AbortSignal,
		step: () => {
			request: Pick<StoredPageRequest, 'sortOrder' | 'pageId' | 'timestampLt' | 'timestampGte'>;
			add(events: readonly LoggedEvent[], reachedEnd: boolean): LoggedEvent[];
			next(pageId: string | null, reachedEnd: boolean): void;
		} | null,
	): Promise<void> {
		let empty = 0;
		for (;;) {
			const walk = step();
			if (!walk) return;
			const page = compact(await this.#read({...walk.request, limit: pageSize, signal}));
			if (signal.aborted) return;
			this.#pages++;
			const repeated = page.nextPageId !== null && page.nextPageId === walk.request.pageId;
			const reachedEnd = page.nextPageId === null || page.events.length === 0;
			const fresh = walk.add(page.events, reachedEnd);
			walk.next(page.nextPageId, reachedEnd);
			if (repeated) throw new Error('the stored history repeats the same page; stopped reading it');
			if (fresh.length > 0 || reachedEnd) {
				this.#onChange(fresh);
				return;
			}
			// Only repeats of what is held (events sharing the bound's timestamp): read on, a few pages at most.
			if (++empty >= maxEmptyPages) throw new Error('the stored history sends no new events past what is held; stopped');
		}
	}

	#statusOf(direction: Direction, more: boolean): HistoryEndStatus {
		const loading = this.#loading !== null && (this.#loading.direction === direction || (direction === 'older' && this.#loading.direction === 'newest'));
		const error = this.#lastError && (this.#lastError.direction === direction || (direction === 'older' && this.#lastError.direction === 'newest')) ? this.#lastError.message : undefined;
		const state: HistoryEndState = loading ? 'loading' : error ? 'failed' : more ? 'more' : 'none';
		return {state, pages: this.#pages, ...(error ? {lastError: error} : {})};
	}

	async #run(direction: Direction | 'newest', task: (signal: AbortSignal) => Promise<void>): Promise<void> {
		if (this.#closed) return;
		const {signal} = this.#abort;
		const done = (async () => {
			this.#lastError = null;
			this.#onChange([]);
			try {
				await task(signal);
			} catch (error) {
				if (this.#closed || signal.aborted) return;
				this.#lastError = {direction, message: error instanceof Error ? error.message : String(error)};
			}
		})();
		const loading = {direction, done};
		this.#loading = loading;
		try {
			await done;
		} finally {
			// A reset meanwhile may have started another read: only this one's own mark is cleared.
			if (this.#loading === loading) this.#loading = null;
			if (!this.#closed && !signal.aborted) this.#onChange([]);
		}
	}
}

/**
 * A page's unvalidated payloads held as their JSON text, as the socket holds its frames (events.ts
 * parseEventLater): a parsed object takes several times the memory, and holding the text is what
 * lets a history of 100,000 events be read to its top. Reading the envelope already removed any
 * `encrypted_content`, so the text written out is clean.
 */
function compact(page: StoredPage): StoredPage {
	for (const event of page.events) {
		if (event.kind !== 'PendingEvent' || typeof event.payload === 'string' || event.settled !== undefined) continue;
		holdAsText(event, JSON.stringify(event.payload));
	}
	return page;
}

function oldestOf(events: readonly LoggedEvent[]): LoggedEvent | undefined {
	let oldest: LoggedEvent | undefined;
	for (const event of events) if (!oldest || compareEvents(event, oldest) < 0) oldest = event;
	return oldest;
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

import {compareEvents, heldBytes, type LoggedEvent} from '../wire/schemas/events.js';

/**
 * One conversation's events: deduplicated by id and kept in (timestamp, id) order.
 *
 * Delivery is at-least-once (history pages, socket replay and resync searches overlap), so the
 * log is where duplicates die. The common case, a live event newer than everything so far, is
 * a push. An older event (a resync reaching back) is placed by binary search, and a large batch
 * of older events is merged in one linear pass, so the array is never re-sorted per event and
 * 100,000 events stay cheap.
 */

/** Above this many out-of-order events in one batch, one linear merge beats repeated splices. */
const mergeThreshold = 32;

export class EventLog {
	#events: LoggedEvent[] = [];
	readonly #byId = new Map<string, LoggedEvent>();
	#version = 0;

	/**
	 * Every event with a timestamp below this is known to be in the log (null: nothing is known).
	 * Kept by the StreamSupervisor that fills the log, so a new supervisor on the same log (the
	 * sandbox came back under a new URL or key) resumes from here: no full re-read, and a gap the
	 * previous one could not close is not papered over.
	 */
	syncedThrough: string | null = null;

	/**
	 * The oldest event held when older ones exist that are not held (the newest page of a stored
	 * history was read, or a long follow dropped its oldest events to bound memory); null when the
	 * log reaches back to the conversation's first event. Events older than this are left to
	 * `addOlder` (the pager that reads them back in order), so a log never holds a hole.
	 */
	#floor: {timestamp: string; id: string} | null = null;

	/**
	 * The newest event held when newer ones exist that are not held: the mirror of the floor, set
	 * when reading far back dropped the newest events to bound memory (`trimNewest`). Events newer
	 * than this come in only through `addNewer` (the pager reading them back in order), so the log
	 * still never holds a hole; a live event meanwhile is left to that read.
	 */
	#ceiling: {timestamp: string; id: string} | null = null;

	/** Events dropped so far to bound memory (by `trimOldest` and `trimNewest`). */
	#trimmed = 0;

	/** Roughly the memory the events take (events.ts heldBytes), as added; `measure` counts it again. */
	#bytes = 0;

	/** Roughly the bytes the events hold, as added (an event validated since takes more; see `measure`). */
	get bytes(): number {
		return this.#bytes;
	}

	/** Counts the bytes again, event by event (validated events included), and returns them. */
	measure(): number {
		let bytes = 0;
		for (const event of this.#events) bytes += heldBytes(event);
		this.#bytes = bytes;
		return bytes;
	}

	/**
	 * How many of the newest events fit in `budget` bytes (at least one), for a trim by memory
	 * rather than by count: a real conversation's events are kilobytes each.
	 */
	newestWithin(budget: number): number {
		let bytes = 0;
		let count = 0;
		for (let index = this.#events.length - 1; index >= 0; index--) {
			bytes += heldBytes(this.#events[index]!);
			if (bytes > budget && count > 0) break;
			count++;
		}
		return count;
	}

	/** How many of the oldest events fit in `budget` bytes (at least one). */
	oldestWithin(budget: number): number {
		let bytes = 0;
		let count = 0;
		for (const event of this.#events) {
			bytes += heldBytes(event);
			if (bytes > budget && count > 0) break;
			count++;
		}
		return count;
	}

	get floor(): {timestamp: string; id: string} | null {
		return this.#floor;
	}

	get ceiling(): {timestamp: string; id: string} | null {
		return this.#ceiling;
	}

	get trimmed(): number {
		return this.#trimmed;
	}

	/** Number of distinct events. */
	get size(): number {
		return this.#events.length;
	}

	/** Increments on every change, so a view can tell "same events" without comparing arrays. */
	get version(): number {
		return this.#version;
	}

	/** The newest event's own timestamp string (server time, never ours), or null when empty. */
	get lastTimestamp(): string | null {
		return this.#events.at(-1)?.timestamp ?? null;
	}

	get last(): LoggedEvent | undefined {
		return this.#events.at(-1);
	}

	/** The live, ordered array. Read-only for callers; use toArray() for a copy that stays put. */
	get events(): readonly LoggedEvent[] {
		return this.#events;
	}

	at(index: number): LoggedEvent | undefined {
		return this.#events.at(index);
	}

	/** Where `key` is, or would go, in the (timestamp, id) order: a binary search. */
	indexOf(key: {timestamp: string; id: string}): number {
		let low = 0;
		let high = this.#events.length;
		while (low < high) {
			const middle = (low + high) >>> 1;
			if (compareEvents(this.#events[middle]!, key) < 0) low = middle + 1;
			else high = middle;
		}
		return low;
	}

	has(id: string): boolean {
		return this.#byId.has(id);
	}

	get(id: string): LoggedEvent | undefined {
		return this.#byId.get(id);
	}

	toArray(): LoggedEvent[] {
		return this.#events.slice();
	}

	[Symbol.iterator](): Iterator<LoggedEvent> {
		return this.#events[Symbol.iterator]();
	}

	/** Adds events; returns how many were new. */
	add(events: Iterable<LoggedEvent>): number {
		if (Array.isArray(events) && events.length === 1) return this.#addOne(events[0] as LoggedEvent);
		return this.addNew(events).length;
	}

	/** One event, the live stream's usual batch: no arrays, a push when it is the newest. */
	#addOne(event: LoggedEvent): number {
		if (this.#byId.has(event.id)) return 0;
		if (this.#floor && compareEvents(event, this.#floor) < 0) return 0;
		if (this.#ceiling && compareEvents(event, this.#ceiling) > 0) return 0;
		this.#byId.set(event.id, event);
		this.#insert(event);
		this.#bytes += heldBytes(event);
		this.#version++;
		return 1;
	}

	/**
	 * Adds events and returns the ones that were new, in (timestamp, id) order. Duplicates (by id,
	 * against the log and within the batch) are dropped: the first copy seen wins.
	 */
	addNew(events: Iterable<LoggedEvent>): LoggedEvent[] {
		return this.#addNew(events, {belowFloor: false, aboveCeiling: false});
	}

	/**
	 * Events older than the floor, read back from a history (newest first or not): they go in
	 * below what is held, and the floor moves down to the oldest of them, or goes away when
	 * `reachedStart` (the history has nothing older). Returns the ones that were new.
	 */
	addOlder(events: readonly LoggedEvent[], reachedStart: boolean): LoggedEvent[] {
		const fresh = this.#addNew(events, {belowFloor: true, aboveCeiling: false});
		let oldest: {timestamp: string; id: string} | null = this.#floor;
		for (const event of events) if (oldest && compareEvents(event, oldest) < 0) oldest = event;
		const floor = reachedStart ? null : oldest;
		if (floor !== this.#floor) {
			this.#floor = floor === null ? null : {timestamp: floor.timestamp, id: floor.id};
			if (fresh.length === 0) this.#version++;
		}
		return fresh;
	}

	/**
	 * Events newer than the ceiling, read back from a history (oldest first or not): they go in
	 * above what is held, and the ceiling moves up to the newest of them, or goes away when
	 * `reachedEnd` (the history has nothing newer). Returns the ones that were new.
	 */
	addNewer(events: readonly LoggedEvent[], reachedEnd: boolean): LoggedEvent[] {
		const fresh = this.#addNew(events, {belowFloor: false, aboveCeiling: true});
		let newest: {timestamp: string; id: string} | null = this.#ceiling;
		for (const event of events) if (newest && compareEvents(event, newest) > 0) newest = event;
		const ceiling = reachedEnd ? null : newest;
		if (ceiling !== this.#ceiling) {
			this.#ceiling = ceiling === null ? null : {timestamp: ceiling.timestamp, id: ceiling.id};
			if (fresh.length === 0) this.#version++;
		}
		return fresh;
	}

	/**
	 * Marks the log as the newest part of a longer history: `oldest` (an event it holds, usually
	 * the oldest) is the floor, and older events come in only through `addOlder`.
	 */
	setFloor(oldest: {timestamp: string; id: string} | null): void {
		this.#floor = oldest === null ? null : {timestamp: oldest.timestamp, id: oldest.id};
		this.#version++;
	}

	/**
	 * Bounded memory for a long follow: drops the oldest events beyond the newest `keep`, but
	 * none at or after `keepFrom` (what is on screen). The dropped ones stay readable from the
	 * history (the floor says where they start). Returns how many were dropped.
	 */
	trimOldest(keep: number, keepFrom: {timestamp: string; id: string} | null = null): number {
		let drop = this.#events.length - keep;
		if (drop <= 0) return 0;
		// Never past the first event the view still shows.
		if (keepFrom) drop = Math.min(drop, this.indexOf(keepFrom));
		if (drop <= 0) return 0;
		const dropped = this.#events.splice(0, drop);
		for (const event of dropped) {
			this.#byId.delete(event.id);
			this.#bytes -= heldBytes(event);
		}
		const oldest = this.#events[0];
		this.#floor = oldest ? {timestamp: oldest.timestamp, id: oldest.id} : (dropped.at(-1) ?? null);
		this.#trimmed += drop;
		this.#version++;
		return drop;
	}

	/**
	 * Drops everything, floor and ceiling included: the view jumped to the newest end of a
	 * history whose window was elsewhere, and the pager reads it again from there. The watermark
	 * is the caller's to set (it knows what the new window will be complete from).
	 */
	reset(): void {
		this.#events = [];
		this.#byId.clear();
		this.#bytes = 0;
		this.#floor = null;
		this.#ceiling = null;
		this.#version++;
	}

	/**
	 * Bounded memory while reading far back: drops the newest events beyond the oldest `keep`,
	 * but none at or before `keepThrough` (what is on screen). The dropped ones stay readable from
	 * the history (the ceiling says where they start). Returns how many were dropped.
	 */
	trimNewest(keep: number, keepThrough: {timestamp: string; id: string} | null = null): number {
		let kept = Math.max(1, keep);
		if (this.#events.length <= kept) return 0;
		if (keepThrough) {
			// Never before the newest event the view still shows: keep up to the first event after it.
			let low = 0;
			let high = this.#events.length;
			while (low < high) {
				const middle = (low + high) >>> 1;
				if (compareEvents(this.#events[middle]!, keepThrough) <= 0) low = middle + 1;
				else high = middle;
			}
			kept = Math.max(kept, low);
		}
		const drop = this.#events.length - kept;
		if (drop <= 0) return 0;
		const dropped = this.#events.splice(kept, drop);
		for (const event of dropped) {
			this.#byId.delete(event.id);
			this.#bytes -= heldBytes(event);
		}
		const newest = this.#events.at(-1)!;
		this.#ceiling = {timestamp: newest.timestamp, id: newest.id};
		this.#trimmed += drop;
		this.#version++;
		return drop;
	}

	#addNew(events: Iterable<LoggedEvent>, allow: {belowFloor: boolean; aboveCeiling: boolean}): LoggedEvent[] {
		const fresh: LoggedEvent[] = [];
		let sorted = true;
		const floor = allow.belowFloor ? null : this.#floor;
		const ceiling = allow.aboveCeiling ? null : this.#ceiling;
		for (const event of events) {
			if (this.#byId.has(event.id)) continue;
			// Below the floor (above the ceiling) lies history not held: only the pager reading it back may add there.
			if (floor && compareEvents(event, floor) < 0) continue;
			if (ceiling && compareEvents(event, ceiling) > 0) continue;
			this.#byId.set(event.id, event);
			this.#bytes += heldBytes(event);
			const previous = fresh.at(-1);
			if (previous && compareEvents(previous, event) > 0) sorted = false;
			fresh.push(event);
		}
		if (fresh.length === 0) return fresh;
		if (!sorted) fresh.sort(compareEvents);

		const last = this.#events.at(-1);
		if (!last || compareEvents(last, fresh[0]!) < 0) {
			// In order: the usual live case, and every history page.
			for (const event of fresh) this.#events.push(event);
		} else if (fresh.length <= mergeThreshold) {
			for (const event of fresh) this.#insert(event);
		} else {
			this.#events = mergeSorted(this.#events, fresh);
		}
		this.#version++;
		return fresh;
	}

	#insert(event: LoggedEvent): void {
		const events = this.#events;
		const last = events.at(-1);
		if (!last || compareEvents(last, event) < 0) {
			events.push(event);
			return;
		}
		// First position whose event sorts after the new one.
		let low = 0;
		let high = events.length;
		while (low < high) {
			const middle = (low + high) >>> 1;
			if (compareEvents(events[middle]!, event) <= 0) low = middle + 1;
			else high = middle;
		}
		events.splice(low, 0, event);
	}
}

/** Merges two arrays that are each in (timestamp, id) order. */
function mergeSorted(left: readonly LoggedEvent[], right: readonly LoggedEvent[]): LoggedEvent[] {
	const out: LoggedEvent[] = new Array(left.length + right.length);
	let i = 0;
	let j = 0;
	let k = 0;
	while (i < left.length && j < right.length) {
		out[k++] = compareEvents(left[i]!, right[j]!) <= 0 ? left[i++]! : right[j++]!;
	}
	while (i < left.length) out[k++] = left[i++]!;
	while (j < right.length) out[k++] = right[j++]!;
	return out;
}

import {type AgeBasis, ageBasisOf, disputeAfterMs} from './age-basis.js';

/**
 * The clock that wrote the data. Every age on screen ("3m", "quiet 12m", "stuck for 4d") and the
 * stream's lag compare a timestamp in the data with now, so now must be read on the clock that
 * wrote that timestamp. The `Date` header of an answer is not always that clock: on the hosted
 * service it can come from a proxy in front of the server, right to the second while the data
 * was written by a clock weeks behind (every age then read `24d`, `quiet 24d` for an agent
 * approved 5 s earlier). So the clock is estimated from the data itself, and the `Date` header
 * estimate (wire/server-clock.ts) is only the fallback until the data has said something.
 *
 * What the data says, as bounds on `offset` (the data's clock minus ours):
 * - a conversation's `updated_at` U that changed between two answers: it was written after the
 *   earlier answer's request was sent (P) and before this answer arrived (R), so
 *   `U - R <= offset <= U - P`;
 * - a live event (the stream delivers it as it is written) with time E on the data's clock,
 *   arriving at A: `offset >= E - A` (it cannot arrive before it was written);
 * - any `updated_at` U on first sight, arriving at R: `offset >= U - R` (nothing is written in the
 *   future). Alone these only keep the fallback from being early; they never replace it.
 * The estimate is the largest lower bound of the recent samples: the freshest sample is the
 * tightest, and ages read a poll's delay young at worst, never negative. An upper bound below it
 * means the clock was set back: the older samples are dropped.
 *
 * Event timestamps are naive, the wall clock of the agent server in a zone it does not say
 * (docs/service-behaviour.md §4). Their offset from the app server's UTC is found by comparing an
 * event with the app server's UTC timestamp of the same moment: the open conversation's
 * `updated_at` as it changes with its newest event (`observeSameMoment`). It is the zone, plus
 * whatever the agent server's clock is off the app server's; it is not rounded to a zone's
 * quarter hours (that would strip a real skew down to its remainder, a lag of 31 s that stayed for
 * 13 minutes). Until a pair is seen, a naive time has no known zone: no lag is shown.
 *
 * Before the data has said anything, the fallback stands in while nothing in the data disputes
 * it, and how far it is trusted is one rule for every age (state/age-basis.ts): `known` when the
 * data backs it (a conversation written within a minute of its now), `unknown` when the data
 * contradicts it (agents at work, nothing written in the 12 hours before its now: a sandbox runs
 * at most 12 hours, so the data is written by a clock far behind), else `assumed`: told, and said
 * to rest on the header. A quiet fleet on a right clock is `assumed`, never `unknown`.
 */

/** The `Date` header estimate the data clock falls back on (ServerClock has this shape). */
/**
 * An agent at work: running, in a RUNNING sandbox. It writes as it goes, so the data's clock can
 * be judged by it (DataClock.observeAtWork); a quiet one is what `quiet` is about.
 */
export function isAtWork(conversation: {execution_status?: unknown; sandbox_status?: unknown}): boolean {
	return String(conversation.execution_status ?? '') === 'running' && String(conversation.sandbox_status ?? '').toUpperCase() === 'RUNNING';
}

export type ClockFallback = {offsetMs(): number; samples(): number};

export type DataClockSource = 'data' | 'date-header' | 'none';

type Sample = {low: number; high: number; at: number};

/** Samples kept: the freshest few minutes of a busy dashboard, a long while of a quiet one. */
const keepSamples = 40;
/** A sample older than this no longer counts (a clock drifts; a change an hour ago says little now). */
const sampleLifeMs = 15 * 60_000;
/** Same-moment pairs kept for the naive timestamps' offset (the median is taken). */
const keepPairs = 9;
/** Live events kept until the naive offset is known, so the first pair can use them. */
const keepPending = 40;
/**
 * How far behind the fallback's now the freshest data may be and still back it: ages are then
 * right to the minute (the header's offset note says nothing under a minute either).
 */
const backedWithinMs = 60_000;

const naivePattern = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?$/;

/**
 * The wall-clock reading of a naive ISO timestamp as if it were UTC (ms), or null when `text` is
 * not naive (it has a zone, or is not a time at all).
 */
export function naiveWallMs(text: string | null | undefined): number | null {
	if (typeof text !== 'string') return null;
	const match = naivePattern.exec(text.trim());
	if (!match) return null;
	const [, year, month, day, hour, minute, second = '0', fraction = ''] = match;
	const ms = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second), Number(fraction.padEnd(3, '0').slice(0, 3)));
	return Number.isFinite(ms) ? ms : null;
}

/** A zoned ISO timestamp (`Z` or an offset) in ms, or null (naive or unreadable). */
export function zonedMs(text: string | null | undefined): number | null {
	if (typeof text !== 'string' || !/(?:Z|[+-]\d{2}:?\d{2})$/i.test(text.trim())) return null;
	const ms = Date.parse(text);
	return Number.isNaN(ms) ? null : ms;
}

/**
 * `UTC+1`, `UTC+5:30`, `UTC-3:30`, `UTC` for a naive clock `offsetMs` ahead of UTC, to the
 * nearest quarter hour: a label for where event times are read, not a figure to compute with.
 */
export function zoneLabel(offsetMs: number): string {
	const quarters = Math.round(offsetMs / 900_000);
	if (quarters === 0) return 'UTC';
	const minutes = Math.abs(quarters) * 15;
	const rest = minutes % 60;
	return `UTC${quarters < 0 ? '-' : '+'}${Math.floor(minutes / 60)}${rest === 0 ? '' : `:${String(rest).padStart(2, '0')}`}`;
}

export type DataClockOptions = {
	/** The `Date` header estimate, used until the data says something (none: offset 0). */
	fallback?: ClockFallback;
	/** Our clock (tests); default Date.now. */
	now?: () => number;
};

export class DataClock {
	readonly #fallback: ClockFallback | null;
	readonly #now: () => number;
	/** Bounds from fresh data (changes, live events), oldest first. */
	#samples: Sample[] = [];
	/** The largest first-sight lower bound (data is never written in the future). */
	#floor = Number.NEGATIVE_INFINITY;
	#floorAt = 0;
	/** Naive wall reading minus the app server's UTC of the same moment, per pair. */
	#pairs: number[] = [];
	#naiveOffset: number | null = null;
	/** Live events seen before the naive offset was known: their bounds once it is. */
	#pending: Array<{wall: number; arrivedAt: number}> = [];
	/** A row was once written within a minute of the fallback's now: the fallback is backed for good. */
	#backedOnce = false;
	/** An answer listed agents at work (what can dispute the fallback, see above). */
	#atWorkSeen = false;

	constructor(options: DataClockOptions = {}) {
		this.#fallback = options.fallback ?? null;
		this.#now = options.now ?? (() => Date.now());
	}

	/**
	 * A conversation's `updated_at` (ms, the app server's UTC) that changed: the answer that still had
	 * the old value was requested at `previousSentAt`, this one arrived at `receivedAt` (our ms).
	 */
	observeChange(updatedAtMs: number, previousSentAt: number, receivedAt: number): void {
		if (!Number.isFinite(updatedAtMs) || previousSentAt > receivedAt) return;
		this.#add({low: updatedAtMs - receivedAt, high: updatedAtMs - previousSentAt, at: receivedAt});
	}

	/** An `updated_at` (ms) seen without a change to compare: a lower bound only. */
	observeSeen(updatedAtMs: number, receivedAt: number): void {
		if (!Number.isFinite(updatedAtMs)) return;
		const low = updatedAtMs - receivedAt;
		if (low > this.#floor || receivedAt - this.#floorAt > sampleLifeMs) {
			this.#floor = low;
			this.#floorAt = receivedAt;
		}
	}

	/** A live event's own timestamp (naive, or zoned) and when it arrived (our ms). */
	observeLiveEvent(timestamp: string, arrivedAt: number): void {
		const zoned = zonedMs(timestamp);
		if (zoned !== null) {
			this.#add({low: zoned - arrivedAt, high: Number.POSITIVE_INFINITY, at: arrivedAt});
			return;
		}
		const wall = naiveWallMs(timestamp);
		if (wall === null) return;
		if (this.#naiveOffset === null) {
			this.#pending.push({wall, arrivedAt});
			if (this.#pending.length > keepPending) this.#pending.shift();
			return;
		}
		this.#add({low: wall - this.#naiveOffset - arrivedAt, high: Number.POSITIVE_INFINITY, at: arrivedAt});
	}

	/** A naive event timestamp and the app server's UTC timestamp (ms) of the same moment. */
	observeSameMoment(naiveTimestamp: string, utcMs: number): void {
		const wall = naiveWallMs(naiveTimestamp);
		if (wall === null || !Number.isFinite(utcMs)) return;
		this.#pairs.push(wall - utcMs);
		if (this.#pairs.length > keepPairs) this.#pairs.shift();
		const sorted = [...this.#pairs].sort((a, b) => a - b);
		const first = this.#naiveOffset === null;
		this.#naiveOffset = sorted[Math.floor(sorted.length / 2)]!;
		if (first) {
			const offset = this.#naiveOffset;
			for (const event of this.#pending) this.#add({low: event.wall - offset - event.arrivedAt, high: Number.POSITIVE_INFINITY, at: event.arrivedAt});
			this.#pending = [];
		}
	}

	/**
	 * An answer listed conversations at work (agent running, sandbox RUNNING), after its `updated_at`
	 * values were observed: from then on, nothing written in the 12 hours before the fallback's now
	 * disputes it (ageBasis).
	 */
	observeAtWork(): void {
		this.#atWorkSeen = true;
	}

	/** How ages are known (state/age-basis.ts): on the data's clock, on the fallback assumed, or not at all. */
	ageBasis(): AgeBasis {
		if (!this.#backedOnce && this.#writtenWithin(backedWithinMs)) this.#backedOnce = true;
		return ageBasisOf({
			fromData: this.#estimate() !== null,
			backed: this.#backedOnce,
			disputed: this.#atWorkSeen && !this.#writtenWithin(disputeAfterMs),
		});
	}

	/** Whether ages can be told at all (known or assumed); `?` otherwise. */
	agesKnown(): boolean {
		return this.ageBasis() !== 'unknown';
	}

	/** The freshest `updated_at` seen is within `withinMs` of the fallback's now. */
	#writtenWithin(withinMs: number): boolean {
		return Number.isFinite(this.#floor) && this.#floor >= this.#fallbackOffset() - withinMs;
	}

	#fallbackOffset(): number {
		return this.#fallback && this.#fallback.samples() > 0 ? this.#fallback.offsetMs() : 0;
	}

	/** The data's clock minus ours (ms): from the data when it said something, else the fallback. */
	offsetMs(): number {
		const fromData = this.#estimate();
		if (fromData !== null) return fromData;
		const fallback = this.#fallbackOffset();
		// Never earlier than data already seen: a timestamp cannot be from the future.
		return Number.isFinite(this.#floor) ? Math.max(fallback, this.#floor) : fallback;
	}

	/** Where `offsetMs` comes from. */
	source(): DataClockSource {
		if (this.#estimate() !== null) return 'data';
		return this.#fallback && this.#fallback.samples() > 0 ? 'date-header' : 'none';
	}

	/** Now, on the data's clock. */
	now(): number {
		return this.#now() + this.offsetMs();
	}

	/** Naive event time minus the app server's UTC for the same moment; null until a pair was seen. */
	naiveOffsetMs(): number | null {
		return this.#naiveOffset;
	}

	/** A naive event timestamp on the app server's UTC clock (zoned ones as they say); null when unknown. */
	eventTimeMs(timestamp: string): number | null {
		const zoned = zonedMs(timestamp);
		if (zoned !== null) return zoned;
		const wall = naiveWallMs(timestamp);
		if (wall === null || this.#naiveOffset === null) return null;
		return wall - this.#naiveOffset;
	}

	/**
	 * How late an event arrived: its arrival (our ms) on the data's clock minus its own time.
	 * Null while the naive timestamps' zone is not known. Never negative.
	 */
	deliveryLagMs(timestamp: string, arrivedAt: number): number | null {
		const time = this.eventTimeMs(timestamp);
		if (time === null) return null;
		return Math.max(0, Math.round(arrivedAt + this.offsetMs() - time));
	}

	#add(sample: Sample): void {
		this.#samples.push(sample);
		if (this.#samples.length > keepSamples) this.#samples.shift();
		// An upper bound below an older lower bound: the clock was set back; the older ones are stale.
		for (let index = this.#samples.length - 2; index >= 0; index--) {
			if (this.#samples[index]!.low > sample.high) {
				this.#samples = this.#samples.slice(index + 1);
				break;
			}
		}
	}

	#estimate(): number | null {
		const cutoff = this.#now() - sampleLifeMs;
		while (this.#samples.length > 1 && this.#samples[0]!.at < cutoff) this.#samples.shift();
		if (this.#samples.length === 0) return null;
		let low = Number.NEGATIVE_INFINITY;
		for (const sample of this.#samples) low = Math.max(low, sample.low);
		return low;
	}
}

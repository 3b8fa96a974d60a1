import type {AppConversation} from '../wire/schemas/app.js';
import type {AnswerTiming} from './conversation-poller.js';
import {conversationKey} from './conversation-rows.js';
import {type DataClock, isAtWork} from './data-clock.js';

/**
 * One server's clocks as the dashboard reads them: the data clock (data-clock.ts) that every age
 * is measured on, whether ages can be told at all, and what each conversation answer says of that
 * clock. Owns, per conversation: when the answer that last brought it was asked for, and since
 * when its `updated_at` has stood still (our clock). Everything here is inference from answers'
 * timing; no server said any of it.
 */

export type ClocksOptions = {
	dataClock: DataClock;
	now: () => number;
	/** The offset as last published (whole seconds): what every age on screen was measured with. */
	publishedOffsetMs: () => number;
	/** The open timeline's newest live event, when it is this conversation's. */
	newestLive: (key: string) => {timestamp: string; arrivedAt: number} | null;
};

export class DashboardClocks {
	readonly dataClock: DataClock;
	readonly #now: () => number;
	readonly #options: ClocksOptions;
	/**
	 * Whether ages can be told (DataClock.agesKnown), as of the last conversation answer: rows and
	 * the connection's `agesUnverified` say the same thing from the same moment.
	 */
	#agesKnown = true;
	/** When the answer that last brought each conversation was asked for (our clock): a change bound. */
	#answeredAt = new Map<string, number>();
	/** Each conversation's `updated_at` and when (our clock) the first answer with it arrived. */
	#held = new Map<string, {updatedAt: string; since: number}>();

	constructor(options: ClocksOptions) {
		this.#options = options;
		this.dataClock = options.dataClock;
		this.#now = options.now;
	}

	get agesKnown(): boolean {
		return this.#agesKnown;
	}

	/**
	 * What a whole answer says of the clock, before any row is built from it: each conversation's
	 * `updated_at` against the last answer, and whether an agent is at work. Then whether ages can
	 * be told (assumed only on the whole listing: a later page may contradict the header). Returns
	 * whether that flipped, so every row's age-based reasons follow at once.
	 */
	observeAnswer(items: readonly AppConversation[], timing: AnswerTiming | undefined, before: (key: string) => AppConversation | undefined, listed: boolean): boolean {
		if (timing) {
			let atWork = false;
			for (const conversation of items) {
				const key = conversationKey(conversation);
				this.observeClock(key, conversation, before(key), timing);
				this.observeHeld(key, conversation, timing);
				atWork ||= isAtWork(conversation);
			}
			if (atWork) this.dataClock.observeAtWork();
		}
		const basis = this.dataClock.ageBasis();
		const agesKnown = basis === 'known' || (basis === 'assumed' && listed);
		const flipped = agesKnown !== this.#agesKnown;
		this.#agesKnown = agesKnown;
		return flipped;
	}

	/**
	 * What an answer says about the data's clock (state/data-clock.ts): an `updated_at` that changed
	 * since the last answer bounds it both ways, one seen the first time from below. For the open
	 * conversation, a change that came with a live event pairs that event's naive time with the app
	 * server's UTC time of the same moment: the zone of the event times.
	 */
	observeClock(key: string, conversation: AppConversation, before: AppConversation | undefined, timing: AnswerTiming): void {
		const updatedAt = parseUtc(conversation.updated_at);
		const askedBefore = this.#answeredAt.get(key);
		this.#answeredAt.set(key, timing.sentAt);
		if (updatedAt === null) return;
		if (!before || askedBefore === undefined) {
			this.dataClock.observeSeen(updatedAt, timing.receivedAt);
			return;
		}
		if (before.updated_at === conversation.updated_at) return;
		this.dataClock.observeChange(updatedAt, askedBefore, timing.receivedAt);
		const newest = this.#options.newestLive(key);
		// The event written last before this answer: it arrived after the previous one was asked for.
		if (newest && newest.arrivedAt >= askedBefore && newest.arrivedAt <= timing.receivedAt) {
			this.dataClock.observeSameMoment(newest.timestamp, updatedAt);
		}
	}

	/**
	 * Since when (our clock) each conversation's `updated_at` has stood still, as answers showed it:
	 * the first answer with the current value arrived then, and every later one still had it.
	 */
	observeHeld(key: string, conversation: AppConversation, timing: AnswerTiming): void {
		const updatedAt = String(conversation.updated_at ?? '');
		if (this.#held.get(key)?.updatedAt !== updatedAt) this.#held.set(key, {updatedAt, since: timing.receivedAt});
	}

	/**
	 * How long we have watched a conversation write nothing (our clock, no server's): from the
	 * arrival of the first answer with its current `updated_at` to the request of the latest one
	 * that still had it. A lower bound of its quiet time that needs no clock of the data.
	 */
	heldFor(key: string): number | null {
		const held = this.#held.get(key);
		const asked = this.#answeredAt.get(key);
		return held && asked !== undefined ? Math.max(0, asked - held.since) : null;
	}

	/**
	 * The offset as published: whole seconds, and moved only when the estimate moved by more than
	 * a second, so the jitter of the estimate never re-renders an idle dashboard.
	 */
	publishedOffset(previous: number): number {
		const estimate = this.dataClock.offsetMs();
		return Math.abs(estimate - previous) > 1000 ? Math.round(estimate / 1000) * 1000 : previous;
	}

	/** Now by the data's clock: what server timestamps (ages, quiet, "for 3m") are compared with. */
	serverNow(): number {
		return this.#now() + this.publishedOffset(this.#options.publishedOffsetMs());
	}

	/** Where a moment of our clock falls on the data clock, or null while ages are not known. */
	onDataClock(localMs: number): number | null {
		return this.#agesKnown ? localMs + (this.serverNow() - this.#now()) : null;
	}

	forget(key: string): void {
		this.#answeredAt.delete(key);
		this.#held.delete(key);
	}
}

/** An app-server datetime (UTC, `Z`) in ms; null when absent or unreadable. */
export function parseUtc(value: string | null | undefined): number | null {
	if (!value) return null;
	const ms = Date.parse(value);
	return Number.isNaN(ms) ? null : ms;
}

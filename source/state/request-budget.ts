import {fullJitterDelay} from '../wire/backoff.js';
import {RateLimitedError} from '../wire/errors.js';
import type {SharedBudget, SharedBudgetView} from './shared-budget.js';
import {firstInside} from './sorted-times.js';
import {WakeTimer} from './wake-timer.js';

/**
 * The one gate every app-server request of the dashboard goes through. The hosted service allows
 * a user 10 requests/s and 100/min (docs/service-behaviour.md §1.4); every poll, look-up and action of
 * one dashboard shares that, so they share one budget:
 * - a sliding window per second and per minute: a request is sent only when both windows have
 *   room, so no 1 s or 60 s window (sliding or fixed, as the server may count) ever sees more.
 *   Each send stays counted `guardMs` longer than its window: the server counts arrival times,
 *   and a request that leaves a millisecond late or travels a little slower must not land in a
 *   window that is already full;
 * - at most one request in flight per endpoint key: a slow poll is never stacked on itself;
 * - priorities: user actions first, then what is on screen, then the background walk;
 * - one shared backoff on 429: while it lasts nothing is sent, whatever its key; Retry-After is
 *   honoured however long it is (the server knows its window; guessing shorter only earns
 *   another 429). Without Retry-After the wait grows with full jitter.
 * - `shared` (state/shared-budget.ts): every send is also reserved in the budget all clients on
 *   this machine share for the server and key, which paces them evenly, keeps a reserve for the
 *   urgent ones ('action' and 'visible' are urgent, 'background' is not) and holds the limit
 *   learned from 429s; its backoff is everyone's.
 * Time comes from `now()` and timers from the global setTimeout, so tests drive it with
 * `mock.timers` or an injected clock.
 */

export type Priority = 'action' | 'visible' | 'background';

const priorityRank: Record<Priority, number> = {action: 0, visible: 1, background: 2};

export type RequestBudgetOptions = {
	perSecond?: number;
	perMinute?: number;
	/** Extra time a send stays counted beyond its window (default 100 ms). */
	guardMs?: number;
	now?: () => number;
	random?: () => number;
	/** Called whenever the budget's visible state changes (backoff starts or ends, a request goes out). */
	onChange?: () => void;
	/** The budget shared with other clients of this server and key; closed with this one. */
	shared?: SharedBudget;
	/** The length of the per-minute window (60 000; shorter in tests that make minutes pass in seconds). */
	minuteMs?: number;
};

export type BudgetState = {
	requestsLastMinute: number;
	perSecond: number;
	perMinute: number;
	/** While a 429 backoff lasts: when it ends (ms since epoch). */
	backoffUntil: number | null;
	queued: number;
	inFlight: number;
};

export class BudgetClosedError extends Error {
	override name = 'BudgetClosedError';
	constructor() {
		super('the request budget was closed');
	}
}

type Job = {
	key: string;
	/** Requests this job sends (a call that walks pages on its own); reserved up front. */
	weight: number;
	priority: number;
	sequence: number;
	run: (signal: AbortSignal) => Promise<unknown>;
	resolve: (value: unknown) => void;
	reject: (error: unknown) => void;
};

export class RequestBudget {
	readonly perSecond: number;
	readonly perMinute: number;
	readonly #guardMs: number;
	readonly #now: () => number;
	readonly #random: () => number;
	readonly #onChange: (() => void) | undefined;
	readonly #shared: SharedBudget | undefined;
	readonly #minuteMs: number;
	/** Send times in the last minute, oldest first. */
	#sent: number[] = [];
	#queue: Job[] = [];
	#inFlight = new Map<string, AbortController>();
	#sequence = 0;
	readonly #timer = new WakeTimer(
		() => this.#now(),
		() => this.#wake(),
	);
	#backoffUntil = 0;
	#rateLimitStreak = 0;
	#closed = false;

	constructor(options: RequestBudgetOptions = {}) {
		this.perSecond = Math.max(1, options.perSecond ?? 10);
		this.perMinute = Math.max(1, options.perMinute ?? 100);
		this.#guardMs = Math.max(0, options.guardMs ?? 100);
		this.#now = options.now ?? (() => Date.now());
		this.#random = options.random ?? Math.random;
		this.#onChange = options.onChange;
		this.#minuteMs = Math.max(1000, options.minuteMs ?? 60_000);
		this.#shared = options.shared;
		if (this.#shared) {
			// Another client's 429 or a new client changes what this one shows and may send. Told
			// from inside a ledger update (under its lock): acted on once that is over.
			this.#shared.onChange = () =>
				queueMicrotask(() => {
					if (this.#closed) return;
					this.#onChange?.();
					this.#pump();
				});
		}
	}

	/**
	 * Runs `task` when the budget allows and no other request with the same `key` is in flight.
	 * The task gets a signal that aborts on `close()`. A RateLimitedError from the task starts the
	 * shared backoff before it is passed on to the caller. `weight` is how many requests the task
	 * sends (an estimate for calls that page internally): that many slots are reserved.
	 */
	schedule<T>(key: string, task: (signal: AbortSignal) => Promise<T>, priority: Priority = 'background', weight = 1): Promise<T> {
		if (this.#closed) return Promise.reject(new BudgetClosedError());
		return new Promise<T>((resolve, reject) => {
			this.#queue.push({
				key,
				// A weight above a window's limit could never fit: it waits for an empty window instead.
				weight: Math.max(1, Math.min(Math.floor(weight), this.perSecond, this.perMinute)),
				priority: priorityRank[priority],
				sequence: this.#sequence++,
				run: task,
				resolve: resolve as (value: unknown) => void,
				reject,
			});
			this.#pump();
		});
	}

	/** Whether a request with this key is in flight or waiting: pollers skip a round instead of stacking. */
	busy(key: string): boolean {
		return this.#inFlight.has(key) || this.#queue.some((job) => job.key === key);
	}

	/**
	 * Counts a request made outside `schedule` (an HTTP client's own retry): it used the server's
	 * budget, so it uses ours.
	 */
	record(): void {
		const now = this.#now();
		this.#sent.push(now);
		this.#shared?.record(1, now);
		this.#pump();
	}

	/**
	 * Starts (or extends) the shared backoff after a 429; `named`: the limit the 429 named, which
	 * the shared budget keeps (it learns one from what was sent when none is named).
	 */
	rateLimited(retryAfterMs?: number, named?: {limit: number; windowMs: number}): void {
		const wait = retryAfterMs ?? fullJitterDelay(this.#rateLimitStreak, {baseMs: 1000, capMs: 60_000, random: this.#random}) + 1000;
		this.#rateLimitStreak++;
		this.#backoffUntil = Math.max(this.#backoffUntil, this.#now() + wait);
		this.#shared?.rateLimited({retryAfterMs: wait, limit: named?.limit, windowMs: named?.windowMs});
		this.#onChange?.();
		this.#pump();
	}

	/** Requests sent in the last minute: by every client sharing the budget, when it is shared. */
	requestsLastMinute(): number {
		if (this.#shared) return this.#shared.view().requestsLastMinute;
		const now = this.#now();
		this.#trim(now);
		return this.#sent.length - firstInside(this.#sent, now - this.#minuteMs);
	}

	/** The length of the per-minute window (60 000 unless tuned for a test). */
	get minuteMs(): number {
		return this.#minuteMs;
	}

	/** Requests a minute that may go: the configured limit, or the one learned from 429s when lower. */
	effectivePerMinute(): number {
		return Math.min(this.perMinute, this.#shared?.view().perMinute ?? this.perMinute);
	}

	/** The shared budget as the header shows it (clients, learned limit); null when not shared. */
	sharedView(): SharedBudgetView | null {
		return this.#shared?.view() ?? null;
	}

	backoffUntil(): number | null {
		const until = Math.max(this.#backoffUntil, this.#shared?.view().backoffUntil ?? 0);
		return until > this.#now() ? until : null;
	}

	state(): BudgetState {
		return {
			requestsLastMinute: this.requestsLastMinute(),
			perSecond: this.perSecond,
			perMinute: this.perMinute,
			backoffUntil: this.backoffUntil(),
			queued: this.#queue.length,
			inFlight: this.#inFlight.size,
		};
	}

	/** Rejects everything queued, aborts everything in flight, clears the timer. */
	close(): void {
		if (this.#closed) return;
		this.#closed = true;
		this.#timer.clear();
		const queued = this.#queue;
		this.#queue = [];
		for (const job of queued) job.reject(new BudgetClosedError());
		for (const controller of this.#inFlight.values()) controller.abort(new BudgetClosedError());
		this.#inFlight.clear();
		this.#shared?.close();
	}

	get closed(): boolean {
		return this.#closed;
	}

	#trim(now: number): void {
		const drop = firstInside(this.#sent, now - this.#minuteMs - this.#guardMs);
		if (drop > 0) this.#sent.splice(0, drop);
	}

	/** 0 when `weight` requests may go now, else ms until they may. */
	#waitMs(now: number, weight: number): number {
		this.#trim(now);
		let wait = Math.max(0, this.#backoffUntil - now);
		const sent = this.#sent;
		const windows: Array<[limit: number, windowMs: number]> = [
			[this.perMinute, this.#minuteMs + this.#guardMs],
			[this.perSecond, 1000 + this.#guardMs],
		];
		for (const [limit, windowMs] of windows) {
			// At most limit - weight sends may remain in the window; wait for the one after them to age out.
			const allowed = limit - weight;
			const inWindow = sent.length - firstInside(sent, now - windowMs);
			if (inWindow > allowed) wait = Math.max(wait, sent[sent.length - allowed - 1]! + windowMs - now);
		}

		return wait;
	}

	/** Index of the most urgent queued job whose key is not in flight, or -1. */
	#nextIndex(): number {
		let best = -1;
		for (let index = 0; index < this.#queue.length; index++) {
			const job = this.#queue[index]!;
			if (this.#inFlight.has(job.key)) continue;
			const current = this.#queue[best];
			if (!current || job.priority < current.priority || (job.priority === current.priority && job.sequence < current.sequence)) {
				best = index;
			}
		}

		return best;
	}

	#pump(): void {
		if (this.#closed) return;
		while (this.#queue.length > 0) {
			const now = this.#now();
			const index = this.#nextIndex();
			// Everything queued waits for a key in flight; its completion pumps again.
			if (index === -1) break;
			const job = this.#queue[index]!;
			// This client's own windows first, then the budget it shares (reserved there when it has room).
			const wait = this.#waitMs(now, job.weight) || (this.#shared?.reserve(job.weight, job.priority <= priorityRank.visible, now) ?? 0);
			if (wait > 0) {
				this.#arm(now + wait);
				return;
			}

			this.#queue.splice(index, 1);
			this.#start(job, now);
		}

		this.#timer.clear();
	}

	#start(job: Job, now: number): void {
		const controller = new AbortController();
		this.#inFlight.set(job.key, controller);
		for (let count = 0; count < job.weight; count++) this.#sent.push(now);
		this.#onChange?.();
		let promise: Promise<unknown>;
		try {
			promise = job.run(controller.signal);
		} catch (error) {
			promise = Promise.reject(error);
		}

		promise.then(
			(value) => {
				this.#finish(job, controller, now);
				this.#rateLimitStreak = 0;
				job.resolve(value);
			},
			(error: unknown) => {
				this.#finish(job, controller, now);
				if (error instanceof RateLimitedError && !this.#closed) this.rateLimited(error.retryAfterMs, error.namedLimit);
				job.reject(error);
			},
		);
	}

	#finish(job: Job, controller: AbortController, startedAt: number): void {
		if (this.#inFlight.get(job.key) === controller) this.#inFlight.delete(job.key);
		if (job.weight > 1) {
			this.#restamp(startedAt, job.weight - 1);
			this.#shared?.restamp(startedAt, job.weight - 1, this.#now());
		}
		this.#pump();
	}

	/**
	 * A weighted job's later requests went out some time after it started (each page after the
	 * previous one): their reservations move to the finish time, so none of them leaves a window
	 * before the real request does.
	 */
	#restamp(startedAt: number, count: number): void {
		const sent = this.#sent;
		const index = firstInside(sent, startedAt - 1);
		let moved = 0;
		while (moved < count && index < sent.length && sent[index] === startedAt) {
			sent.splice(index, 1);
			moved++;
		}

		const now = this.#now();
		for (let added = 0; added < moved; added++) sent.push(now);
	}

	#arm(at: number): void {
		// One timer, for the earliest moment anything could go; re-armed only when that moves.
		if (this.#timer.armed && this.#timer.at <= at) return;
		this.#timer.set(at);
	}

	#wake(): void {
		if (this.#backoffUntil !== 0 && this.#backoffUntil <= this.#now()) {
			this.#backoffUntil = 0;
			this.#onChange?.();
		}

		this.#pump();
	}
}

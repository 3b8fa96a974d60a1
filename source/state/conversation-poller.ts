import {sleepUnlessAborted} from '../wire/abortable-sleep.js';
import {KeyRejectedError, RateLimitedError} from '../wire/errors.js';
import type {AppConversation, Sandbox} from '../wire/schemas/app.js';
import {publicMessage} from './redact.js';
import {keptUnreadableRows, unreadableRow, type UnreadableRow} from './unreadable-rows.js';
import {BudgetClosedError, type Priority, type RequestBudget} from './request-budget.js';
import {defaultPollerIntervals, type AnswerTiming, type PollerClient, type PollerHealth, type PollerIntervals, type PollerOptions, type PollerSink} from './poller-types.js';
import {LookupRounds} from './lookup-round.js';
import {nextOperation, type Operation} from './poller-schedule.js';
import {healthAfterSuccess, healthKeyRejected, healthStopped, retryAt} from './poller-health.js';
import {WakeTimer} from './wake-timer.js';

/**
 * Keeps conversations, sandboxes and specs current with few requests (the service allows
 * 10 requests a second and 100 a minute, docs/service-behaviour.md §1.4):
 * - a full walk of `search` pages at start, then every `searchMs` (60 s) or on `refresh()`:
 *   it is how new conversations are found;
 * - in between, refresh rounds of batched `ids` look-ups (99 ids a request) over every known
 *   conversation, in the order visible rows, rows needing attention, the rest (round-robin from
 *   where the last round left off, so a round cut short still reaches everyone over time);
 * - the full sandbox list every `sandboxesMs` (it pages: its estimated pages are reserved in the
 *   budget); while actions wait for a status change, only the watched sandboxes, in one batched
 *   `id` look-up every `sandboxesPendingMs`; specs rarely.
 * One operation at a time, each request through the shared budget and spaced so polling uses at
 * most `pollShare` of the per-minute budget: user actions always find room. Exactly one timer,
 * for the next thing due. Failures keep the last data: transient ones back off with full jitter
 * and retry until the server answers again; a rejected key stops everything until `refresh()`.
 */

export type {AnswerTiming, PollerClient, PollerHealth, PollerIntervals, PollerOptions, PollerSink} from './poller-types.js';
export {defaultPollerIntervals, lookupBatchSize} from './poller-types.js';

/** Sandbox pages hold 100 items (the server's default limit). */
const sandboxPageSize = 100;

export class ConversationPoller {
	readonly #client: PollerClient;
	readonly #budget: RequestBudget;
	readonly #sink: PollerSink;
	readonly #now: () => number;
	readonly #random: () => number;
	readonly #intervals: PollerIntervals;
	/** Minimum time between two polling requests, from the budget share. */
	readonly #spacingMs: number;

	/** Every known conversation and the order of the look-up rounds (lookup-round.ts). */
	readonly #rounds = new LookupRounds();

	#due: Record<Operation, number>;
	#lastRequestAt = Number.NEGATIVE_INFINITY;
	/** Operations that have sent at least one request (those are spaced from then on). */
	#ranOnce = new Set<Operation>();
	#busy = false;
	readonly #timer = new WakeTimer(
		() => this.#now(),
		() => this.#pump(),
	);
	#started = false;
	#closed = false;
	/** Sandbox ids whose status an action waits for. */
	#watched: readonly string[] = [];
	#sandboxCount: number | null = null;

	#failures = 0;
	#retryAt: number | null = null;
	#health: PollerHealth = {ok: true, lastSuccessAt: null, lastError: null, keyRejected: false, nextRetryAt: null};
	#abort = new AbortController();
	/** The last request's timing (one runs at a time). */
	#timing: AnswerTiming = {sentAt: 0, receivedAt: 0};

	constructor(options: PollerOptions) {
		this.#client = options.client;
		this.#budget = options.budget;
		this.#sink = options.sink;
		this.#now = options.now ?? (() => Date.now());
		this.#random = options.random ?? Math.random;
		this.#intervals = {...defaultPollerIntervals, ...options.intervals};
		const share = options.pollShare ?? 0.6;
		this.#spacingMs = Math.ceil(options.budget.minuteMs / Math.max(1, options.budget.perMinute * share));
		this.#due = {walk: 0, lookup: Number.POSITIVE_INFINITY, sandboxes: 0, watch: Number.POSITIVE_INFINITY, specs: 0};
	}

	start(): void {
		if (this.#started || this.#closed) return;
		this.#started = true;
		const now = this.#now();
		this.#due = {walk: now, lookup: Number.POSITIVE_INFINITY, sandboxes: now, watch: Number.POSITIVE_INFINITY, specs: now};
		this.#pump();
	}

	/** ctrl-r: walk the search pages again and start a fresh round, now (within the budget). */
	refresh(): void {
		if (this.#closed) return;
		if (!this.#started) {
			this.start();
			return;
		}

		const now = this.#now();
		if (this.#health.keyRejected) {
			// The user may have fixed the key (or the server): one more try.
			this.#health = {...this.#health, keyRejected: false};
		}

		this.#retryAt = null;
		// Due now, or earlier if it already was: a refresh never pushes back an operation that was
		// waiting its turn. (Setting \`now\` put the first sandbox list behind the walk and the
		// look-ups again at every refresh, and refreshes come with every accepted action: a quick
		// user saw "Nothing to pause" with every sandbox still unknown.)
		this.#due.walk = Math.min(this.#due.walk, now);
		this.#due.sandboxes = Math.min(this.#due.sandboxes, now);
		this.#rounds.dropRound();
		if (this.#rounds.size > 0) this.#due.lookup = Math.min(this.#due.lookup, now);
		this.#pump();
	}

	/**
	 * The full sandbox list, now (within the budget): after a start or resume the service may have
	 * paused another sandbox (the running cap), and the Sandboxes pane must not wait a minute to say so.
	 */
	refreshSandboxes(): void {
		if (this.#closed || !this.#started) return;
		this.#due.sandboxes = Math.min(this.#due.sandboxes, this.#now());
		this.#pump();
	}

	/** The keys on screen, refreshed first in every round (a screen holds far fewer than two batches). */
	setVisible(keys: readonly string[]): void {
		this.#rounds.setVisible(keys);
	}

	/** The keys needing attention, refreshed right after the visible ones. */
	setAttention(keys: readonly string[]): void {
		this.#rounds.setAttention(keys);
	}

	/**
	 * The sandboxes whose status change an action waits for: looked up every
	 * `sandboxesPendingMs` (one request) until the list is empty again.
	 */
	watchSandboxes(ids: readonly string[]): void {
		const next = [...new Set(ids)].slice(0, 100);
		const same = next.length === this.#watched.length && next.every((id, index) => id === this.#watched[index]);
		if (same) return;
		const wasIdle = this.#watched.length === 0;
		this.#watched = next;
		if (next.length === 0) this.#due.watch = Number.POSITIVE_INFINITY;
		else if (wasIdle) this.#due.watch = this.#now() + Math.min(1000, this.#intervals.sandboxesPendingMs);
		this.#pump();
	}

	/** A conversation the dashboard learned of itself (it started it): looked up from now on. */
	track(conversation: AppConversation): void {
		this.#rounds.remember(conversation);
		if (this.#due.lookup === Number.POSITIVE_INFINITY) this.#due.lookup = this.#now() + this.#intervals.refreshMs;
	}

	get health(): PollerHealth {
		return this.#health;
	}

	close(): void {
		if (this.#closed) return;
		this.#closed = true;
		this.#timer.clear();
		this.#abort.abort();
	}

	/** Chooses and runs the next due operation, or arms the one timer for when it is due. */
	#pump(): void {
		if (!this.#started || this.#closed || this.#busy || this.#health.keyRejected) {
			if (this.#health.keyRejected || this.#closed) this.#timer.clear();
			return;
		}

		const now = this.#now();
		const next = nextOperation(this.#due);
		if (!next) {
			this.#timer.clear();
			return;
		}

		// The first request of each kind is not spaced: the first screen needs the conversations,
		// the sandboxes and the specs at once (three requests, well inside the per-second budget),
		// not one a second; a bulk action planned over a sandbox list still empty would mislead.
		const spacedAfter = this.#ranOnce.has(next.operation) ? this.#lastRequestAt + this.#spacingMs : Number.NEGATIVE_INFINITY;
		const at = Math.max(next.at, this.#retryAt ?? 0, spacedAfter);
		if (at > now) {
			this.#arm(at);
			return;
		}

		this.#timer.clear();
		this.#busy = true;
		this.#ranOnce.add(next.operation);
		void this.#run(next.operation).finally(() => {
			this.#busy = false;
			this.#pump();
		});
	}

	async #run(operation: Operation): Promise<void> {
		try {
			switch (operation) {
				case 'walk': {
					await this.#walk();
					break;
				}

				case 'lookup': {
					await this.#lookupNextBatch();
					break;
				}

				case 'sandboxes': {
					// The call pages on its own: reserve the pages it will probably need.
					const estimate = this.#sandboxCount ?? this.#rounds.size;
					const pages = Math.floor(estimate / sandboxPageSize) + 1;
					const sandboxes = await this.#request('sandboxes:search', (signal) => this.#client.listSandboxes({signal}), 'background', pages);
					this.#sandboxCount = sandboxes.length;
					this.#sink.sandboxes(sandboxes, true);
					this.#due.sandboxes = this.#now() + this.#intervals.sandboxesMs;
					break;
				}

				case 'watch': {
					const ids = this.#watched;
					if (ids.length > 0) {
						const found = await this.#request('sandboxes:ids', (signal) => this.#client.getSandboxes(ids, {signal}), 'visible');
						this.#sink.sandboxes(
							found.filter((sandbox): sandbox is Sandbox => sandbox !== null),
							false,
						);
					}

					this.#due.watch = this.#watched.length > 0 ? this.#now() + this.#intervals.sandboxesPendingMs : Number.POSITIVE_INFINITY;
					break;
				}

				case 'specs': {
					const specs = await this.#request('sandbox-specs:search', (signal) => this.#client.listSandboxSpecs({signal}));
					this.#sink.specs(specs);
					this.#due.specs = this.#now() + this.#intervals.specsMs;
					break;
				}
			}

			this.#succeeded();
		} catch (error) {
			this.#failed(error);
		}
	}

	async #request<T>(key: string, task: (signal: AbortSignal) => Promise<T>, priority: Priority = 'background', weight = 1): Promise<T> {
		return this.#budget.schedule(
			key,
			async (budgetSignal) => {
				// A shared budget may still run a job queued before close: send nothing then.
				if (this.#closed) throw new BudgetClosedError();
				this.#lastRequestAt = this.#now();
				const sentAt = this.#lastRequestAt;
				// Aborted when either the budget or the poller closes: no request outlives them.
				const result = await task(AbortSignal.any([budgetSignal, this.#abort.signal]));
				this.#timing = {sentAt, receivedAt: this.#now()};
				// A call that sent several requests keeps the spacing of that many.
				if (weight > 1) this.#lastRequestAt = this.#now() + (weight - 1) * this.#spacingMs;
				return result;
			},
			priority,
			weight,
		);
	}

	async #walk(): Promise<void> {
		const iterator = this.#client.searchConversationPages({limit: 100, signal: this.#abort.signal})[Symbol.asyncIterator]();
		let invalid = 0;
		const unreadable: UnreadableRow[] = [];
		try {
			for (let asked = 0; ; asked++) {
				// Under a tight limit a walk of several pages takes many seconds: a look-up batch that
				// falls due meanwhile goes between two pages, so the rows are not stale behind it.
				if (asked > 0 && this.#due.lookup <= this.#now()) await this.#lookupNextBatch();
				// Each page is one request, so each goes through the budget on its own and keeps the spacing.
				await this.#waitForSpacing();
				const step = await this.#request('conversations:search', () => iterator.next());
				if (step.done) break;
				const page = step.value;
				invalid += page.invalid?.length ?? 0;
				for (const item of page.invalid ?? []) if (unreadable.length < keptUnreadableRows) unreadable.push(unreadableRow(item));
				for (const conversation of page.items) this.#rounds.remember(conversation);
				if (page.items.length > 0) this.#sink.conversations(page.items, 'search', this.#timing);
				// The last page says so: no need to spend a request (and the spacing) to hear "done".
				if (page.nextPageId === null) break;
			}
		} finally {
			await iterator.return?.();
		}

		// Also 0: rows that became readable are no longer reported.
		this.#sink.invalid(invalid, unreadable);
		const now = this.#now();
		this.#due.walk = now + this.#intervals.searchMs;
		// Look-ups start once there is something to look up; a walk just refreshed everything.
		if (this.#rounds.size > 0 && this.#due.lookup === Number.POSITIVE_INFINITY) this.#due.lookup = now + this.#intervals.refreshMs;
		this.#sink.walkComplete?.();
	}

	#waitForSpacing(): Promise<void> {
		const wait = this.#lastRequestAt + this.#spacingMs - this.#now();
		if (wait <= 0 || this.#closed) return Promise.resolve();
		// Cut short by close(); the wait's listener goes with it either way (abortable-sleep.ts).
		return sleepUnlessAborted(wait, this.#abort.signal);
	}

	async #lookupNextBatch(): Promise<void> {
		const next = this.#rounds.nextBatch(this.#now());
		if (!next) {
			this.#due.lookup = Number.POSITIVE_INFINITY;
			return;
		}

		const {round, batch, ids} = next;
		const results = await this.#request('conversations:ids', (signal) => this.#client.getConversations(ids, {signal}), 'visible');
		this.#rounds.batchAnswered(round, batch);
		const found: AppConversation[] = [];
		const gone: string[] = [];
		batch.forEach((key, index) => {
			const conversation = results[index];
			if (conversation) found.push(conversation);
			else if (conversation === null) gone.push(key);
		});
		this.#rounds.forget(gone);
		if (found.length > 0) this.#sink.conversations(found, 'lookup', this.#timing);
		if (gone.length > 0) this.#sink.removed(gone);
		const now = this.#now();
		const end = this.#rounds.afterBatch(round);
		if (end === null) return;
		if (end.more) {
			this.#due.lookup = now;
		} else {
			this.#sink.roundComplete?.(end.batches);
			this.#due.lookup = this.#rounds.size === 0 ? Number.POSITIVE_INFINITY : Math.max(now, end.startedAt + this.#intervals.refreshMs);
		}
	}

	#succeeded(): void {
		this.#failures = 0;
		this.#retryAt = null;
		this.#health = healthAfterSuccess(this.#health, this.#now());
		this.#sink.health(this.#health);
	}

	#failed(error: unknown): void {
		if (this.#closed) return;
		if (error instanceof BudgetClosedError) {
			// The budget closed under a poller still running (its owner closed the server first):
			// nothing can be sent again. Retrying would refuse at once, forever, in a chain of
			// settled promises that no timer can interrupt: stop, and say so once.
			this.close();
			this.#health = healthStopped(this.#health);
			this.#sink.health(this.#health);
			return;
		}

		if (error instanceof KeyRejectedError) {
			this.#health = healthKeyRejected(this.#health);
			this.#timer.clear();
			this.#sink.health(this.#health);
			return;
		}

		this.#failures++;
		this.#retryAt = retryAt(error, this.#failures, this.#now(), {intervals: this.#intervals, random: this.#random, backoffUntil: () => this.#budget.backoffUntil()});
		this.#health = {
			...this.#health,
			ok: false,
			// The wait is counted down on screen from `nextRetryAt` (the header and the notice alike),
			// not frozen in the words as the 429 first said it.
			lastError: error instanceof RateLimitedError ? publicMessage(error).replace(/; retry in \d+ s$/, '') : publicMessage(error),
			nextRetryAt: this.#retryAt,
		};
		this.#sink.health(this.#health);
	}

	#arm(at: number): void {
		if (this.#timer.armed && this.#timer.at === at) return;
		this.#timer.set(at);
	}
}

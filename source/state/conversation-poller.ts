import {sleepUnlessAborted} from '../wire/abortable-sleep.js';
import {fullJitterDelay} from '../wire/backoff.js';
import {KeyRejectedError, RateLimitedError} from '../wire/errors.js';
import {normalizeId} from '../wire/ids.js';
import type {AppConversation, Sandbox, SandboxSpec} from '../wire/schemas/app.js';
import {publicMessage} from './redact.js';
import {BudgetClosedError, type Priority, type RequestBudget} from './request-budget.js';

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

/** What the poller needs of the AppClient (tests may pass a stand-in). Signals abort on close. */
export type PollerClient = {
	/** Pages of `search`; a page whose `nextPageId` is null is known to be the last. */
	searchConversationPages(params?: {limit?: number; signal?: AbortSignal}): AsyncIterable<{
		items: AppConversation[];
		invalid?: readonly unknown[];
		nextPageId?: string | null;
	}>;
	getConversations(ids: readonly string[], call?: {signal?: AbortSignal}): Promise<Array<AppConversation | null>>;
	/** Every sandbox, all pages (one call, several requests for more than 100 sandboxes). */
	listSandboxes(call?: {signal?: AbortSignal}): Promise<Sandbox[]>;
	/** Aligned with `ids`, null where unknown; at most 100 ids a request. */
	getSandboxes(ids: readonly string[], call?: {signal?: AbortSignal}): Promise<Array<Sandbox | null>>;
	listSandboxSpecs(call?: {signal?: AbortSignal}): Promise<SandboxSpec[]>;
};

export type PollerIntervals = {
	searchMs: number;
	refreshMs: number;
	sandboxesMs: number;
	sandboxesPendingMs: number;
	specsMs: number;
	retryBaseMs: number;
	retryCapMs: number;
};

export const defaultPollerIntervals: PollerIntervals = {
	searchMs: 60_000,
	refreshMs: 5_000,
	sandboxesMs: 60_000,
	sandboxesPendingMs: 5_000,
	specsMs: 10 * 60_000,
	retryBaseMs: 1_000,
	retryCapMs: 60_000,
};

/** The server's limit of ids per look-up (docs/service-behaviour.md §1.2). */
export const lookupBatchSize = 99;

export type PollerHealth = {
	/** The last operation succeeded. */
	ok: boolean;
	lastSuccessAt: number | null;
	lastError: string | null;
	keyRejected: boolean;
	nextRetryAt: number | null;
};

/** When the request of an answer was sent and when the answer arrived (the poller's clock, ms). */
export type AnswerTiming = {sentAt: number; receivedAt: number};

export type PollerSink = {
	/**
	 * Conversations as the server sent them (a search page or a look-up batch), with when they were
	 * asked for and arrived: timestamps that changed between two answers bound the data's clock.
	 */
	conversations(items: readonly AppConversation[], origin: 'search' | 'lookup', timing?: AnswerTiming): void;
	/** Keys the server no longer knows (a look-up answered null). */
	removed(keys: readonly string[]): void;
	/** `complete`: the whole list (rows not in it are gone); otherwise an update of some rows. */
	sandboxes(items: readonly Sandbox[], complete: boolean): void;
	specs(items: readonly SandboxSpec[]): void;
	/** Items in a page that failed validation. */
	invalid(count: number): void;
	health(health: PollerHealth): void;
	/** A search walk went through every page. */
	walkComplete?(): void;
	/** A refresh round looked up every known conversation once (`batches` requests). */
	roundComplete?(batches: number): void;
};

export type PollerOptions = {
	client: PollerClient;
	budget: RequestBudget;
	sink: PollerSink;
	now?: () => number;
	random?: () => number;
	intervals?: Partial<PollerIntervals>;
	/** Share of the per-minute budget polling may use; the rest is kept for actions. */
	pollShare?: number;
};

type Operation = 'walk' | 'lookup' | 'sandboxes' | 'watch' | 'specs';

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

	/** key -> the id to send (the server's own spelling). Insertion order = order first seen. */
	#known = new Map<string, string>();
	#visible: readonly string[] = [];
	#attention: readonly string[] = [];
	#rest: string[] = [];
	#restCursor = 0;
	#round: string[][] | null = null;
	#roundBatches = 0;
	#roundStartedAt = 0;

	#due: Record<Operation, number>;
	#lastRequestAt = Number.NEGATIVE_INFINITY;
	/** Operations that have sent at least one request (those are spaced from then on). */
	#ranOnce = new Set<Operation>();
	#busy = false;
	#timer: ReturnType<typeof setTimeout> | undefined;
	#timerAt = Number.POSITIVE_INFINITY;
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
		this.#round = null;
		if (this.#known.size > 0) this.#due.lookup = Math.min(this.#due.lookup, now);
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
		this.#visible = keys.slice(0, lookupBatchSize * 2);
	}

	/** The keys needing attention, refreshed right after the visible ones. */
	setAttention(keys: readonly string[]): void {
		this.#attention = keys;
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
		this.#remember(conversation);
		if (this.#due.lookup === Number.POSITIVE_INFINITY) this.#due.lookup = this.#now() + this.#intervals.refreshMs;
	}

	get health(): PollerHealth {
		return this.#health;
	}

	close(): void {
		if (this.#closed) return;
		this.#closed = true;
		this.#clearTimer();
		this.#abort.abort();
	}

	#remember(conversation: AppConversation): string {
		const key = normalizeId(String(conversation.id));
		if (!this.#known.has(key)) {
			this.#known.set(key, String(conversation.id));
			this.#rest.push(key);
		}

		return key;
	}

	/** Chooses and runs the next due operation, or arms the one timer for when it is due. */
	#pump(): void {
		if (!this.#started || this.#closed || this.#busy || this.#health.keyRejected) {
			if (this.#health.keyRejected || this.#closed) this.#clearTimer();
			return;
		}

		const now = this.#now();
		const next = this.#nextOperation();
		if (!next) {
			this.#clearTimer();
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

		this.#clearTimer();
		this.#busy = true;
		this.#ranOnce.add(next.operation);
		void this.#run(next.operation).finally(() => {
			this.#busy = false;
			this.#pump();
		});
	}

	#nextOperation(): {operation: Operation; at: number} | null {
		// Fixed precedence among operations that are due at the same time: the walk finds new
		// conversations, look-ups keep visible rows fresh, sandboxes back pending actions.
		const order: Operation[] = ['watch', 'walk', 'lookup', 'sandboxes', 'specs'];
		let best: {operation: Operation; at: number} | null = null;
		for (const operation of order) {
			const at = this.#due[operation];
			if (!Number.isFinite(at)) continue;
			if (!best || at < best.at) best = {operation, at};
		}

		return best;
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
					const estimate = this.#sandboxCount ?? this.#known.size;
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
				for (const conversation of page.items) this.#remember(conversation);
				if (page.items.length > 0) this.#sink.conversations(page.items, 'search', this.#timing);
				// The last page says so: no need to spend a request (and the spacing) to hear "done".
				if (page.nextPageId === null) break;
			}
		} finally {
			await iterator.return?.();
		}

		if (invalid > 0) this.#sink.invalid(invalid);
		const now = this.#now();
		this.#due.walk = now + this.#intervals.searchMs;
		// Look-ups start once there is something to look up; a walk just refreshed everything.
		if (this.#known.size > 0 && this.#due.lookup === Number.POSITIVE_INFINITY) this.#due.lookup = now + this.#intervals.refreshMs;
		this.#sink.walkComplete?.();
	}

	#waitForSpacing(): Promise<void> {
		const wait = this.#lastRequestAt + this.#spacingMs - this.#now();
		if (wait <= 0 || this.#closed) return Promise.resolve();
		// Cut short by close(); the wait's listener goes with it either way (abortable-sleep.ts).
		return sleepUnlessAborted(wait, this.#abort.signal);
	}

	/** The round's order: visible, attention, then the rest round-robin; each key once. */
	#buildRound(): string[][] {
		const seen = new Set<string>();
		const ordered: string[] = [];
		const add = (key: string) => {
			if (!seen.has(key) && this.#known.has(key)) {
				seen.add(key);
				ordered.push(key);
			}
		};

		for (const key of this.#visible) add(key);
		for (const key of this.#attention) add(key);
		// Drop forgotten keys from the rotation, then continue from where the last round stopped.
		this.#rest = this.#rest.filter((key) => this.#known.has(key));
		const count = this.#rest.length;
		const start = count === 0 ? 0 : this.#restCursor % count;
		for (let offset = 0; offset < count; offset++) add(this.#rest[(start + offset) % count]!);
		const batches: string[][] = [];
		for (let index = 0; index < ordered.length; index += lookupBatchSize) batches.push(ordered.slice(index, index + lookupBatchSize));
		return batches;
	}

	async #lookupNextBatch(): Promise<void> {
		if (!this.#round || this.#round.length === 0) {
			this.#round = this.#buildRound();
			this.#roundBatches = 0;
			this.#roundStartedAt = this.#now();
			if (this.#round.length === 0) {
				this.#round = null;
				this.#due.lookup = Number.POSITIVE_INFINITY;
				return;
			}
		}

		const round = this.#round;
		const batch = round[0]!;
		const ids = batch.map((key) => this.#known.get(key) ?? key);
		const results = await this.#request('conversations:ids', (signal) => this.#client.getConversations(ids, {signal}), 'visible');
		// Only now is the batch done: a failure retries the same batch. A refresh meanwhile
		// dropped this round (a new one starts with the walk's results).
		if (this.#round === round) {
			round.shift();
			this.#roundBatches++;
			this.#restCursor += batch.length;
		}

		const found: AppConversation[] = [];
		const gone: string[] = [];
		batch.forEach((key, index) => {
			const conversation = results[index];
			if (conversation) found.push(conversation);
			else if (conversation === null) gone.push(key);
		});
		for (const key of gone) this.#known.delete(key);
		if (found.length > 0) this.#sink.conversations(found, 'lookup', this.#timing);
		if (gone.length > 0) this.#sink.removed(gone);
		const now = this.#now();
		if (this.#round !== round) return;
		if (round.length > 0) {
			this.#due.lookup = now;
		} else {
			this.#round = null;
			this.#restCursor = 0;
			this.#sink.roundComplete?.(this.#roundBatches);
			this.#due.lookup = this.#known.size === 0 ? Number.POSITIVE_INFINITY : Math.max(now, this.#roundStartedAt + this.#intervals.refreshMs);
		}
	}

	#succeeded(): void {
		const now = this.#now();
		this.#failures = 0;
		this.#retryAt = null;
		const health = this.#health;
		if (health.ok && health.lastSuccessAt !== null && now - health.lastSuccessAt < 1000) {
			// Keep the same object while nothing a person would see has changed.
			this.#health = {...health, lastSuccessAt: now};
			this.#sink.health(this.#health);
			return;
		}

		this.#health = {ok: true, lastSuccessAt: now, lastError: null, keyRejected: false, nextRetryAt: null};
		this.#sink.health(this.#health);
	}

	#failed(error: unknown): void {
		if (this.#closed) return;
		if (error instanceof BudgetClosedError) {
			// The budget closed under a poller still running (its owner closed the server first):
			// nothing can be sent again. Retrying would refuse at once, forever, in a chain of
			// settled promises that no timer can interrupt: stop, and say so once.
			this.close();
			this.#health = {...this.#health, ok: false, lastError: 'Polling stopped: the connection to the server was closed.', nextRetryAt: null};
			this.#sink.health(this.#health);
			return;
		}

		if (error instanceof KeyRejectedError) {
			this.#health = {
				...this.#health,
				ok: false,
				keyRejected: true,
				lastError: 'The server rejected the API key; polling stopped. Fix the key, then press ctrl-r.',
				nextRetryAt: null,
			};
			this.#clearTimer();
			this.#sink.health(this.#health);
			return;
		}

		this.#failures++;
		const now = this.#now();
		const jitter = fullJitterDelay(this.#failures, {
			baseMs: this.#intervals.retryBaseMs,
			capMs: this.#intervals.retryCapMs,
			random: this.#random,
		});
		// A 429 set the shared backoff in the budget: retry when it ends, not before.
		const backoff = error instanceof RateLimitedError ? (this.#budget.backoffUntil() ?? now) : now;
		this.#retryAt = Math.max(backoff, now + Math.max(this.#intervals.retryBaseMs / 2, jitter));
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
		if (this.#timer !== undefined && this.#timerAt === at) return;
		this.#clearTimer();
		this.#timerAt = at;
		this.#timer = setTimeout(
			() => {
				this.#timer = undefined;
				this.#timerAt = Number.POSITIVE_INFINITY;
				this.#pump();
			},
			Math.max(0, at - this.#now()),
		);
	}

	#clearTimer(): void {
		if (this.#timer !== undefined) clearTimeout(this.#timer);
		this.#timer = undefined;
		this.#timerAt = Number.POSITIVE_INFINITY;
	}
}

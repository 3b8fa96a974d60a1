import {join} from 'node:path';
import {stateDir} from '../config/paths.js';
import {
	beat,
	effectivePerMinute,
	emptyLedger,
	learnFromRateLimit,
	type LearnedLimit,
	type Ledger,
	type LedgerLimits,
	leave,
	type RateLimitInfo,
	record,
	reserve,
	restamp,
	sentInMinute,
	trimLedger,
} from './budget-ledger.js';
import {budgetFileName, LedgerFile, pidAlive} from './budget-ledger-file.js';

/**
 * The budget a RequestBudget shares with the other clients on this machine that use the same
 * server and key (budget-ledger.ts: what is shared; budget-ledger-file.ts: where). When the state
 * directory cannot be written, the same ledger is kept in memory: this process alone then, with
 * the pacing and the learned limit still, and the caller is told once why.
 *
 * What the header shows (clients, the last minute's requests, the learned limit, the backoff) is
 * kept from the last update, so reading it costs nothing; a heartbeat every few seconds keeps it,
 * and this client's presence in the ledger, current while nothing is sent.
 */

export type SharedBudgetView = {
	/** Live clients sharing the budget, this one included (1 when alone or not shared). */
	clients: number;
	/** Whether the budget is in a file other clients can join. */
	shared: boolean;
	requestsLastMinute: number;
	perMinute: number;
	learned: LearnedLimit | null;
	backoffUntil: number;
};

export type SharedBudgetOptions = {
	origin: string;
	/** The key, only to derive the file's name (hashed, never written). */
	key: string;
	limits: LedgerLimits;
	env?: NodeJS.ProcessEnv;
	now?: () => number;
	/** Told once why the budget is not shared (the state directory cannot be written). */
	warn?: (message: string) => void;
	/** Called when the view changes (clients, learned limit, backoff). */
	onChange?: () => void;
};

/** How often a client says it is alive while it sends nothing. */
const heartbeatMs = 5000;
/** How long to wait when another client holds the lock. */
const lockRetryMs = 15;

export class SharedBudget {
	readonly #file: LedgerFile | null;
	readonly #memory: Ledger = emptyLedger();
	readonly #limits: LedgerLimits;
	readonly #now: () => number;
	#onChange: (() => void) | undefined;
	#view: SharedBudgetView;
	#timer: ReturnType<typeof setInterval> | undefined;
	#closed = false;

	constructor(options: SharedBudgetOptions) {
		this.#limits = options.limits;
		this.#now = options.now ?? Date.now;
		this.#onChange = options.onChange;
		let file: LedgerFile | null = null;
		const dir = join(stateDir(options.env), 'budget');
		try {
			file = new LedgerFile(dir, budgetFileName(options.origin, options.key), this.#now);
		} catch (error) {
			options.warn?.(`cannot keep the request budget in ${dir} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): this process keeps its own, not shared with other agent-tui clients on this key`);
		}
		this.#file = file;
		this.#view = {clients: 1, shared: file !== null, requestsLastMinute: 0, perMinute: this.#limits.perMinute, learned: null, backoffUntil: 0};
		this.#update(() => undefined);
		if (file) {
			this.#timer = setInterval(() => this.#update(() => undefined), heartbeatMs);
			this.#timer.unref?.();
		}
	}

	/** The ledger file's path (null when not shared). */
	get path(): string | null {
		return this.#file?.path ?? null;
	}

	view(): SharedBudgetView {
		return this.#view;
	}

	set onChange(listener: (() => void) | undefined) {
		this.#onChange = listener;
	}

	/** 0 when `weight` requests were reserved for now; otherwise ms to wait before asking again. */
	reserve(weight: number, urgent: boolean, now = this.#now()): number {
		return this.#update((ledger) => reserve(ledger, {now, weight, urgent}, this.#limits), false, now) ?? lockRetryMs;
	}

	record(count = 1, now = this.#now()): void {
		this.#update((ledger) => record(ledger, now, count), true, now);
	}

	restamp(reservedAt: number, count: number, now = this.#now()): void {
		this.#update((ledger) => restamp(ledger, reservedAt, count, now), true, now);
	}

	rateLimited(info: RateLimitInfo): void {
		const now = this.#now();
		this.#update((ledger) => learnFromRateLimit(ledger, info, now, this.#limits), true);
	}

	close(): void {
		if (this.#closed) return;
		this.#closed = true;
		if (this.#timer) clearInterval(this.#timer);
		this.#file?.update((ledger) => leave(ledger, process.pid));
	}

	/**
	 * One update of the ledger (file or memory) with the heartbeat and trimming, and the view
	 * refreshed from it. `mustLand`: a fact (a 429, a retry sent) that must not be lost to a busy
	 * lock: tried a few more times at once, then kept in memory for this process.
	 */
	#update<T>(change: (ledger: Ledger) => T, mustLand = false, now = this.#now()): T | undefined {
		const apply = (ledger: Ledger): T => {
			trimLedger(ledger, now, this.#limits, pidAlive);
			if (!this.#closed) beat(ledger, process.pid, now);
			const result = change(ledger);
			this.#refreshView(ledger, now);
			return result;
		};
		if (!this.#file) return apply(this.#memory);
		for (let attempt = 0; attempt < (mustLand ? 20 : 1); attempt++) {
			try {
				const result = this.#file.update(apply);
				if (result) return result.value;
			} catch {
				// An I/O error mid-update (the disk filled, the directory went away): this process alone.
				return apply(this.#memory);
			}
		}

		return mustLand ? apply(this.#memory) : undefined;
	}

	#refreshView(ledger: Ledger, now: number): void {
		const previous = this.#view;
		const next: SharedBudgetView = {
			clients: Math.max(1, ledger.clients.length),
			shared: this.#file !== null,
			requestsLastMinute: sentInMinute(ledger, now, this.#limits),
			perMinute: effectivePerMinute(ledger, this.#limits),
			learned: ledger.learned,
			backoffUntil: ledger.backoffUntil,
		};
		this.#view = next;
		const changed =
			previous.clients !== next.clients ||
			previous.perMinute !== next.perMinute ||
			previous.backoffUntil !== next.backoffUntil ||
			previous.learned?.limit !== next.learned?.limit ||
			previous.learned?.windowMs !== next.learned?.windowMs;
		if (changed) this.#onChange?.();
	}
}

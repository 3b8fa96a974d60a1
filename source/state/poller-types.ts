import type {UnreadableRow} from './unreadable-rows.js';
import type {PollerIntervals} from '../config/poller-intervals.js';
import type {AppConversation, Sandbox, SandboxSpec} from '../wire/schemas/app.js';
import type {RequestBudget} from './request-budget.js';

/** What the conversation poller (conversation-poller.ts) asks of the server, tells its sink, and is made with. */

export type {PollerIntervals};

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
	/** After each walk: how many rows could not be read, and the first of them (unreadable-rows.ts). */
	invalid(count: number, rows: readonly UnreadableRow[]): void;
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

import {executionStatuses, sandboxStatuses} from '../wire/statuses.js';
import {cachedParser, filterTokens} from './filter-line.js';
import {attentionRank, needsAttentionItself} from './attention.js';
import {causeMatches, causeOf} from './causes.js';
import type {ConversationRow, ConversationSortKey, DashboardSnapshot} from './dashboard-types.js';
import {contextFraction} from './usage-metrics.js';
import {RowsMemo} from './rows-memo.js';

/**
 * View-model selectors for the conversations pane and `conversations --json`: parse the filter
 * line, filter, sort. Pure and memoised on the identity of `snapshot.conversations` (the store
 * makes a new Map only when a row changed), so a re-render with nothing new costs a lookup.
 *
 * Filter language (terms are ANDed, case-insensitive; a value list `a,b` is ORed):
 *   status:stuck            the agent's status as the AGENT column shows it (live, or last known
 *                           while its sandbox is stopped); a prefix is enough (`status:waiting`),
 *                           `none` = no status known; `agent:` is the same
 *   status:waiting,error    either
 *   sandbox:paused          the sandbox's status as the SANDBOX column shows it, same rules
 *   repo:owner/name         selected repository contains the value
 *   server:lab              the all-servers view: rows of that profile (a prefix is enough)
 *   cause:error:rate_limit  the queue's groups (causes.ts): a key or its prefix (`cause:error`,
 *                           `cause:sandbox:error`, `cause:spending`), `cause:retryable`
 *   error:rate_limit        in error, and the cause's classification kind (auth, quota, rate_limit,
 *                           config, transient, agent_action, internal, unknown) or its code
 *                           (`error:MaxBudget`) starts with the value; `error:none` = in error with
 *                           no classification known (an older server, or not read yet)
 *   snoozed, is:snoozed     only the rows snoozed (state/snoozes.ts)
 *   anything else           title, repository or id contains the word; "quoted words" stay together
 * Unknown statuses (`status:archived`) are matched on their raw value, never rejected.
 */

export type ConversationFilter = {
	statuses: string[];
	/** `cause:error:rate_limit`, `cause:spending`, `cause:retryable`: the queue's groups (causes.ts). */
	causes: string[];
	sandboxStatuses: string[];
	repos: string[];
	servers: string[];
	/** `error:` values: a classification kind or an error code (prefix), or `none`. */
	errorKinds: string[];
	/** `snoozed` / `is:snoozed`: only the snoozed rows (state/snoozes.ts). */
	snoozed: boolean;
	words: string[];
	/** The filter line normalised (trimmed); the memo key. */
	text: string;
};

export const parseConversationFilter = cachedParser((text): ConversationFilter => {
	const filter: ConversationFilter = {statuses: [], causes: [], sandboxStatuses: [], repos: [], servers: [], errorKinds: [], snoozed: false, words: [], text};
	for (const {token, field, values} of filterTokens(text)) {
		if (field === 'status' || field === 'state' || field === 'agent') filter.statuses.push(...values);
		else if (field === 'cause') filter.causes.push(...values);
		else if (field === 'sandbox') filter.sandboxStatuses.push(...values);
		else if (field === 'repo' || field === 'repository') filter.repos.push(...values);
		else if (field === 'server' || field === 'profile') filter.servers.push(...values);
		else if (field === 'error') filter.errorKinds.push(...values);
		else if ((field === 'is' && values.includes('snoozed')) || (field === '' && token.toLowerCase() === 'snoozed')) filter.snoozed = true;
		else filter.words.push(token.toLowerCase());
	}

	return filter;
});


/**
 * Status words in a filter that match no status this client knows, even as a prefix (`status:archived_v9`):
 * they still filter (servers add statuses), and the view says they are not known ones.
 */
export function unknownFilterStatuses(filter: ConversationFilter): string[] {
	const unknown = (wanted: readonly string[], known: readonly string[], prefix: string) =>
		wanted.filter((word) => word !== 'none' && !known.some((status) => status.toLowerCase().startsWith(word))).map((word) => `${prefix}${word}`);
	return [...unknown(filter.statuses, executionStatuses, 'status:'), ...unknown(filter.sandboxStatuses, sandboxStatuses, 'sandbox:')];
}

export function isEmptyFilter(filter: ConversationFilter): boolean {
	return filter.statuses.length + filter.causes.length + filter.sandboxStatuses.length + filter.repos.length + filter.servers.length + filter.errorKinds.length + filter.words.length === 0 && !filter.snoozed;
}

/** In error, with a cause whose classification kind or code starts with one of `wanted` (`none`: no classification known). */
function errorMatches(wanted: readonly string[], row: ConversationRow): boolean {
	if ((row.agentStatus ?? '').toLowerCase() !== 'error') return false;
	const cause = row.errorCause ?? null;
	const kind = cause?.classification?.kind ?? null;
	const code = cause?.code?.toLowerCase() ?? null;
	return wanted.some((entry) => (entry === 'none' ? kind === null : (kind !== null && kind.startsWith(entry)) || (code !== null && code.startsWith(entry))));
}

/** `waiting` matches `waiting_for_confirmation`; exact raw values (known or not) always match. */
function statusMatches(wanted: readonly string[], actual: string | null | undefined): boolean {
	const value = (actual ?? '').toLowerCase();
	return wanted.some((entry) => (entry === 'none' ? value === '' : value !== '' && value.startsWith(entry)));
}

export function rowMatches(row: ConversationRow, filter: ConversationFilter): boolean {
	const conversation = row.conversation;
	if (filter.snoozed && !row.snoozed) return false;
	if (filter.statuses.length > 0 && !statusMatches(filter.statuses, row.agentStatus)) return false;
	if (filter.causes.length > 0) {
		const cause = causeOf(row);
		if (!filter.causes.some((word) => causeMatches(cause, word))) return false;
	}
	if (filter.sandboxStatuses.length > 0 && !statusMatches(filter.sandboxStatuses, conversation.sandbox_status)) return false;
	const repo = (conversation.selected_repository ?? '').toLowerCase();
	if (filter.repos.length > 0 && !filter.repos.some((wanted) => repo.includes(wanted))) return false;
	if (filter.servers.length > 0 && !filter.servers.some((wanted) => row.server?.name.toLowerCase().startsWith(wanted))) return false;
	if (filter.errorKinds.length > 0 && !errorMatches(filter.errorKinds, row)) return false;
	if (filter.words.length > 0) {
		const haystack = `${(conversation.title ?? '').toLowerCase()}\n${repo}\n${row.key}\n${String(conversation.id).toLowerCase()}`;
		for (const word of filter.words) if (!haystack.includes(word)) return false;
	}

	return true;
}

function cost(row: ConversationRow): number {
	return row.conversation.metrics?.accumulated_cost ?? 0;
}

function created(row: ConversationRow): number {
	const ms = Date.parse(row.conversation.created_at ?? '');
	return Number.isNaN(ms) ? 0 : ms;
}

const byKey = (a: ConversationRow, b: ConversationRow) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
const desc = (x: number, y: number) => (x === y ? 0 : x > y ? -1 : 1);

/**
 * Comparator per sort key. Every order ends with the key, so equal rows keep one stable order
 * across refreshes (rows must not swap places while the user reads them).
 */
export function compareRows(sort: ConversationSortKey): (a: ConversationRow, b: ConversationRow) => number {
	switch (sort) {
		case 'attention': {
			return (a, b) =>
				// A snoozed row ranks with the ones that need nothing, until it comes back.
				attentionRank(a.snoozed ? [] : a.attention) - attentionRank(b.snoozed ? [] : b.attention) ||
				desc(a.lastActivityAt ?? 0, b.lastActivityAt ?? 0) ||
				byKey(a, b);
		}

		case 'activity': {
			return (a, b) => desc(a.lastActivityAt ?? 0, b.lastActivityAt ?? 0) || byKey(a, b);
		}

		case 'created': {
			return (a, b) => desc(created(a), created(b)) || byKey(a, b);
		}

		case 'cost': {
			return (a, b) => desc(cost(a), cost(b)) || byKey(a, b);
		}

		case 'context': {
			return (a, b) => desc(contextFraction(a.conversation) ?? -1, contextFraction(b.conversation) ?? -1) || byKey(a, b);
		}

		case 'title': {
			return (a, b) => {
				const x = (a.conversation.title ?? '').toLowerCase();
				const y = (b.conversation.title ?? '').toLowerCase();
				return (x < y ? -1 : x > y ? 1 : 0) || byKey(a, b);
			};
		}
	}
}

type Rows = DashboardSnapshot['conversations'];

// Keyed weakly by the conversations Map: a snapshot that is dropped takes its results with it.
const keysMemo = new RowsMemo<Rows, readonly string[]>();

/**
 * The keys of the rows that pass `filter`, in `sort` order. Returns the same array (identity) for
 * the same conversations Map, filter line and sort, so `useMemo`/`React.memo` consumers skip work.
 */
export function selectConversationKeys(
	snapshot: Pick<DashboardSnapshot, 'conversations'>,
	filter: string | ConversationFilter,
	sort: ConversationSortKey = 'attention',
): readonly string[] {
	const rows = snapshot.conversations;
	const parsed = typeof filter === 'string' ? parseConversationFilter(filter) : filter;
	const memoKey = `${sort}\u0000${parsed.text}`;
	return keysMemo.get(rows, memoKey, () => {
		const matching: ConversationRow[] = [];
		const empty = isEmptyFilter(parsed);
		for (const row of rows.values()) if (empty || rowMatches(row, parsed)) matching.push(row);
		matching.sort(compareRows(sort));
		return matching.map((row) => row.key);
	});
}

export type ConversationCounts = {
	total: number;
	/** By the agent's status as the rows show it (live or last known; raw, lower case; `none` when none is known). */
	byStatus: ReadonlyMap<string, number>;
	/** By sandbox status (raw, upper case). */
	bySandbox: ReadonlyMap<string, number>;
	/** Rows that need a person themselves (a parent raised only by its sub-agent is not counted twice). */
	needingAttention: number;
	/** The fleet's spend: the sum of the rows' cost per hour; null while no row has one yet. */
	costPerHour?: number | null;
};

const countsMemo = new WeakMap<Rows, ConversationCounts>();

/** Counts for the header; memoised on the conversations Map like the keys. */
export function countConversations(snapshot: Pick<DashboardSnapshot, 'conversations'>): ConversationCounts {
	const rows = snapshot.conversations;
	const cached = countsMemo.get(rows);
	if (cached) return cached;
	const byStatus = new Map<string, number>();
	const bySandbox = new Map<string, number>();
	let needingAttention = 0;
	let costPerHour: number | null = null;
	for (const row of rows.values()) {
		if (typeof row.costPerHour === 'number') costPerHour = (costPerHour ?? 0) + row.costPerHour;
		const status = (row.agentStatus ?? 'none').toLowerCase();
		byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
		const sandbox = (row.conversation.sandbox_status ?? 'MISSING').toUpperCase();
		bySandbox.set(sandbox, (bySandbox.get(sandbox) ?? 0) + 1);
		if (!row.snoozed && needsAttentionItself(row.attention)) needingAttention++;
	}

	const counts: ConversationCounts = {total: rows.size, byStatus, bySandbox, needingAttention, costPerHour};
	countsMemo.set(rows, counts);
	return counts;
}

/**
 * The next row needing attention after `currentKey` in display order (wrapping), for the `n` key.
 * A parent raised only by a sub-agent is skipped while that sub-agent is shown (`n` goes to the
 * one that needs you); with its children collapsed, the parent is where `n` stops.
 * Null when nothing needs attention.
 */
export function nextNeedingAttention(
	snapshot: Pick<DashboardSnapshot, 'conversations'>,
	keys: readonly string[],
	currentKey: string | null,
): string | null {
	const start = currentKey === null ? -1 : keys.indexOf(currentKey);
	let shown: Set<string> | null = null;
	for (let step = 1; step <= keys.length; step++) {
		const key = keys[(start + step + keys.length) % keys.length];
		if (key === undefined) continue;
		const row = snapshot.conversations.get(key);
		if (!row || row.attention.length === 0 || row.snoozed) continue;
		if (needsAttentionItself(row.attention)) return key;
		shown ??= new Set(keys);
		const children = row.attention.flatMap((reason) => (reason.kind === 'sub_agent' ? [reason.child.key] : []));
		if (!children.some((child) => shown!.has(child))) return key;
	}

	return null;
}

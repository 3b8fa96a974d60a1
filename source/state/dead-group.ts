import type {AgeBasis} from './age-basis.js';
import type {ConversationRow, DashboardSnapshot} from './dashboard-types.js';

/**
 * The dead: conversations whose sandbox is ERROR or MISSING and that have not changed for
 * `deadAfterMs` (default 7 days, `--dead-after`, the config file's `dashboard.deadAfter`). Nothing
 * a person does brings them back, so they are not "need you": they form one collapsed group
 * outside `!`, from which they can be deleted in bulk (state/delete-plan.ts).
 *
 * Ages follow the data clock rule (state/age-basis.ts): only an age on a clock the data confirms
 * (`known`) decides "dead". An age that rests on the `Date` header alone (`assumed`) or that the
 * data contradicts (`unknown`) never does: a clock weeks off would call last hour's failures a
 * month old and offer them for deletion.
 */

export const defaultDeadAfterMs = 7 * 24 * 3_600_000;

/** Sandbox statuses from which a conversation cannot be brought back. */
const deadStatuses: ReadonlySet<string> = new Set(['ERROR', 'MISSING']);

export type DeadInput = {
	sandboxStatus: unknown;
	/** Newest activity known (updated_at or a streamed event), ms on the data's clock. */
	lastActivityAt: number | null;
	/** Now on the data's clock. */
	now: number;
	/** How the data's clock is known; only `known` lets an age decide. Absent: known (headless callers that checked). */
	ageBasis?: AgeBasis;
	deadAfterMs?: number;
};

/** Whether a conversation is dead by the rule above. */
export function isDead(input: DeadInput): boolean {
	if (!deadStatuses.has(String(input.sandboxStatus ?? '').toUpperCase())) return false;
	if ((input.ageBasis ?? 'known') !== 'known' || input.lastActivityAt === null) return false;
	return input.now - input.lastActivityAt >= (input.deadAfterMs ?? defaultDeadAfterMs);
}

export type DeadGroup = {
	/** The dead conversations, the oldest first. */
	keys: string[];
	/** How many per server in the all-servers view (by profile name); empty for one server. */
	byServer: ReadonlyMap<string, number>;
	/** The `--dead-after` they were found by (the longest, when servers differ); null when none. */
	afterMs: number | null;
};

const memo = new WeakMap<DashboardSnapshot['conversations'], DeadGroup>();

/** The dead group of a snapshot (rows the store marked `dead`), memoised on the conversations Map. */
export function deadGroup(snapshot: Pick<DashboardSnapshot, 'conversations'>): DeadGroup {
	const cached = memo.get(snapshot.conversations);
	if (cached) return cached;
	const rows: ConversationRow[] = [];
	for (const row of snapshot.conversations.values()) if (row.dead) rows.push(row);
	rows.sort((a, b) => (a.lastActivityAt ?? 0) - (b.lastActivityAt ?? 0) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
	const byServer = new Map<string, number>();
	for (const row of rows) if (row.server) byServer.set(row.server.name, (byServer.get(row.server.name) ?? 0) + 1);
	const afterMs = rows.reduce<number | null>((longest, row) => Math.max(longest ?? 0, row.dead?.afterMs ?? 0), null);
	// Servers by name: the line reads the same from one render to the next.
	const group = {keys: rows.map((row) => row.key), byServer: new Map([...byServer].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))), afterMs};
	memo.set(snapshot.conversations, group);
	return group;
}

/** The group's line (`☠ 79 dead (ERROR/MISSING, unchanged 7d+) — D to clear`), or null when there are none. */
export function deadGroupLine(group: DeadGroup, key: string): string | null {
	const count = group.keys.length;
	if (count === 0) return null;
	const servers = group.byServer.size > 1 ? ` · ${[...group.byServer].map(([name, n]) => `${name} ${n}`).join(', ')}` : '';
	return `☠ ${count} dead (ERROR/MISSING, unchanged ${durationWords(group.afterMs ?? defaultDeadAfterMs)}+)${servers} — ${key} to clear`;
}

function durationWords(ms: number): string {
	if (ms % 86_400_000 === 0) return `${ms / 86_400_000}d`;
	if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
	return `${Math.round(ms / 60_000)}m`;
}

/** The store's options for the dead group and the STARTING cause (`--dead-after`, `--starting-after`). */
export type DeadOptions = {deadAfterMs?: number; startingAfterMs?: number};

/** Those options as row facts (state/conversation-rows.ts), only the ones given. */
export function deadFacts(options: DeadOptions): DeadOptions {
	return {
		...(options.deadAfterMs === undefined ? {} : {deadAfterMs: options.deadAfterMs}),
		...(options.startingAfterMs === undefined ? {} : {startingAfterMs: options.startingAfterMs}),
	};
}

import type {ErrorCause, FailureKind} from '../wire/error-classification.js';
import type {ConversationRow, DashboardSnapshot, OwnAttentionReason} from './dashboard-types.js';

/**
 * The attention queue by cause: what needs a person, grouped by why, so fifty agents that hit the
 * same rate limit are one line with one remedy, not fifty rows. A conversation's cause is its own
 * most urgent reason (attention.ts), refined: an error by the SDK's classification of the error
 * that ended it (rate limit, quota, auth, config, transient, agent action, internal), a sandbox
 * that is down by its status and the runtime's `status_detail`. A parent raised by a sub-agent is
 * not counted again: the sub-agent's own row carries the cause. Conversations whose sandbox was
 * paused in the middle of their work (the service pauses the oldest at its running-sandbox cap)
 * are a cause of their own, with resume as its remedy.
 *
 * Pure and memoised on the conversations Map, like the list's selectors.
 */

export type CauseKind = 'approval' | 'error' | 'stuck' | 'spending' | 'sandbox_down' | 'quiet' | 'repeating' | 'paused';

export type Cause = {
	/** The group it belongs to: `approval`, `error:rate_limit`, `sandbox:ERROR:ImagePullBackOff`, … */
	key: string;
	kind: CauseKind;
	/** Errors: the classification's kind; `unclassified` when the error names none; `unread` until the error is read. */
	errorKind?: FailureKind | 'unclassified' | 'unread';
	/** Errors: whether the SDK says running again may work (null: it did not say). */
	retryable?: boolean | null;
	/** Errors: the event that ended the run. */
	errorEvent?: 'ConversationErrorEvent' | 'AgentErrorEvent';
	/** Errors: what the person has to change, when the SDK says settings (`raise the budget`). */
	userAction?: 'none' | 'retry' | 'settings';
	/** Sandboxes down or paused: the sandbox's status and the runtime's reason. */
	sandboxStatus?: string;
	detail?: string | null;
	/** When the cause began, on the servers' clock, when known. */
	since: number | null;
};

/**
 * What the store read about the error that ended an errored conversation (ConversationRow's
 * `errorCause`: undefined until it has been read, null when the events hold none).
 */
export function rowErrorCause(row: ConversationRow): ErrorCause | null | undefined {
	return row.errorCause;
}

/** Agent statuses at which a sandbox paused under it interrupted work (not a conversation that had ended). */
const atWork = new Set(['running', 'waiting_for_confirmation']);

/** The conversation's cause, or null when nothing needs a person. */
export function causeOf(row: ConversationRow): Cause | null {
	const reason = row.attention.find((candidate): candidate is OwnAttentionReason => candidate.kind !== 'sub_agent');
	if (reason) return causeOfReason(row, reason);
	// Its sandbox was paused while the agent was at work (by the service's cap, or by hand): its
	// task is cut off mid-way. One paused after it finished or went idle needs nobody.
	const status = String(row.conversation.sandbox_status ?? '').toUpperCase();
	if (status === 'PAUSED' && row.agentStatusLastKnown && atWork.has(String(row.agentStatus))) {
		return {key: 'paused', kind: 'paused', sandboxStatus: 'PAUSED', since: row.lastActivityAt};
	}
	return null;
}

function causeOfReason(row: ConversationRow, reason: OwnAttentionReason): Cause {
	switch (reason.kind) {
		case 'waiting_for_confirmation':
			return {key: 'approval', kind: 'approval', since: reason.since};
		case 'error': {
			const cause = rowErrorCause(row);
			const errorKind = cause === undefined ? 'unread' : (cause?.classification?.kind ?? 'unclassified');
			return {
				key: `error:${errorKind}`,
				kind: 'error',
				errorKind,
				retryable: cause?.classification?.retryable ?? null,
				...(cause ? {errorEvent: cause.eventKind} : {}),
				...(cause?.classification ? {userAction: cause.classification.userAction} : {}),
				since: reason.since,
			};
		}
		case 'stuck':
			return {key: 'stuck', kind: 'stuck', since: reason.since};
		case 'spending':
			return {key: 'spending', kind: 'spending', since: reason.since};
		case 'sandbox_error': {
			const detail = reason.detail ?? row.sandboxDetail ?? null;
			return {key: `sandbox:${reason.status}${detail ? `:${detail}` : ''}`, kind: 'sandbox_down', sandboxStatus: reason.status, detail, since: reason.since};
		}
		case 'quiet':
			return {key: 'quiet', kind: 'quiet', since: row.lastActivityAt};
		case 'repeating':
			return {key: 'repeating', kind: 'repeating', since: row.lastActivityAt};
	}
}

/** A safe remedy for a whole group: run every retryable error again, or resume paused sandboxes. */
export type Remedy = 'run' | 'resume';

export type CauseGroup = {
	key: string;
	kind: CauseKind;
	/** The first cause of the group (all share kind, error kind, status and detail). */
	cause: Cause;
	/** Conversations, the longest-waiting first. */
	keys: string[];
	/** The oldest `since` in the group (the servers' clock; in the all-servers view, ours), when any is known. */
	oldestSince: number | null;
	/** A member's server does not know its data's clock yet (RowServer.agesUnverified): how long is not told. */
	agesUnverified?: boolean;
	remedy: Remedy | null;
};

const kindOrder: Record<CauseKind, number> = {approval: 0, error: 1, stuck: 2, spending: 3, sandbox_down: 4, quiet: 5, repeating: 6, paused: 7};
/** Errors in the order a person fixes them: the ones that retrying fixes, then the ones only settings fix. */
const errorOrder: ReadonlyArray<FailureKind | 'unclassified' | 'unread'> = ['rate_limit', 'transient', 'agent_action', 'internal', 'quota', 'auth', 'config', 'unknown', 'unclassified', 'unread'];

/** Errors that running again cannot fix, whatever a server says of retrying: the person changes a setting first. */
const needsSettings: ReadonlySet<string> = new Set<FailureKind>(['quota', 'auth', 'config']);

/**
 * Whether running a conversation again is a safe remedy for its cause: an error the SDK calls
 * retryable that needs no settings changed first (a spent budget or a refused key stays so).
 */
export function canRunAgain(cause: Cause | null): boolean {
	return cause?.kind === 'error' && cause.retryable === true && cause.userAction !== 'settings' && !needsSettings.has(cause.errorKind ?? '');
}

function remedyOf(cause: Cause): Remedy | null {
	if (canRunAgain(cause)) return 'run';
	if (cause.kind === 'paused') return 'resume';
	return null;
}

type Snapshot = Pick<DashboardSnapshot, 'conversations'>;
const groupsMemo = new WeakMap<Snapshot['conversations'], CauseGroup[]>();

/** The groups, most urgent cause first; within a kind, errors in fixing order, then the biggest group. */
export function causeGroups(snapshot: Snapshot): CauseGroup[] {
	const memo = groupsMemo.get(snapshot.conversations);
	if (memo) return memo;
	const byKey = new Map<string, {cause: Cause; members: Array<{key: string; since: number | null}>; runnable: boolean; unverified: boolean}>();
	for (const row of snapshot.conversations.values()) {
		// Snoozed (state/snoozes.ts): out of the queue until it changes or its time is up.
		const cause = row.snoozed ? null : causeOf(row);
		if (!cause) continue;
		// In the all-servers view each row's times are on its own server's clock: on ours here.
		const since = cause.since === null ? null : cause.since - (row.server?.clockOffsetMs ?? 0);
		const unverified = row.server?.agesUnverified === true;
		const group = byKey.get(cause.key);
		if (group) {
			group.members.push({key: row.key, since});
			group.runnable ||= canRunAgain(cause);
			group.unverified ||= unverified;
		} else byKey.set(cause.key, {cause, members: [{key: row.key, since}], runnable: canRunAgain(cause), unverified});
	}
	const groups: CauseGroup[] = [];
	for (const [key, {cause, members, runnable, unverified}] of byKey) {
		// The longest-waiting first; unknown times last; the key keeps the order stable.
		members.sort((a, b) => (a.since ?? Number.POSITIVE_INFINITY) - (b.since ?? Number.POSITIVE_INFINITY) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
		const times = members.map((member) => member.since).filter((since): since is number => since !== null);
		// One kind of error can be retryable for some and not for others (agent_action): run is
		// offered when any of them is, and acts on those only (the plan checks each, view/triage/remedy-plan.ts).
		const remedy = cause.kind === 'error' ? (runnable ? 'run' : null) : remedyOf(cause);
		groups.push({key, kind: cause.kind, cause, keys: members.map((member) => member.key), oldestSince: times.length > 0 ? Math.min(...times) : null, remedy, ...(unverified ? {agesUnverified: true} : {})});
	}
	groups.sort(
		(a, b) =>
			kindOrder[a.kind] - kindOrder[b.kind] ||
			errorOrder.indexOf(a.cause.errorKind ?? 'unread') - errorOrder.indexOf(b.cause.errorKind ?? 'unread') ||
			b.keys.length - a.keys.length ||
			(a.key < b.key ? -1 : 1),
	);
	groupsMemo.set(snapshot.conversations, groups);
	return groups;
}

/** The cause of one conversation in the headless JSON (`watch --json`, `conversations --json`): stable snake_case fields. */
export type CauseJson = {
	key: string;
	kind: CauseKind;
	error_kind?: string;
	retryable?: boolean | null;
	error_event?: string;
	user_action?: string;
	sandbox_status?: string;
	detail?: string | null;
	/** ISO time the cause began, when known. */
	since: string | null;
};

export function causeJson(cause: Cause | null): CauseJson | null {
	if (!cause) return null;
	return {
		key: cause.key,
		kind: cause.kind,
		...(cause.errorKind === undefined ? {} : {error_kind: cause.errorKind}),
		...(cause.retryable === undefined ? {} : {retryable: cause.retryable}),
		...(cause.errorEvent === undefined ? {} : {error_event: cause.errorEvent}),
		...(cause.userAction === undefined ? {} : {user_action: cause.userAction}),
		...(cause.sandboxStatus === undefined ? {} : {sandbox_status: cause.sandboxStatus}),
		...(cause.detail === undefined ? {} : {detail: cause.detail}),
		since: cause.since === null ? null : new Date(cause.since).toISOString(),
	};
}

/** Whether a row's cause matches a `cause:` filter word (a prefix of its key: `error`, `error:rate_limit`, `sandbox`). */
export function causeMatches(cause: Cause | null, word: string): boolean {
	if (!cause) return word === 'none';
	const key = cause.key.toLowerCase();
	return key === word || key.startsWith(`${word}:`) || (word === 'retryable' && cause.retryable === true);
}

/** The list's filter word for a group (`cause:error:rate_limit`; a sandbox group by its status, since its detail may hold spaces). */
export function causeFilterWord(group: Pick<CauseGroup, 'key' | 'kind' | 'cause'>): string {
	return (group.kind === 'sandbox_down' ? `sandbox:${String(group.cause.sandboxStatus)}` : group.key).toLowerCase();
}

/**
 * How many of a group's conversations each server has, in the all-servers view (`work 3 · lab 1`),
 * servers in the order their rows come; empty for one server (no row names one).
 */
export function groupServers(group: Pick<CauseGroup, 'keys'>, conversations: Pick<DashboardSnapshot, 'conversations'>['conversations']): Array<{name: string; count: number}> {
	const counts = new Map<string, number>();
	for (const key of group.keys) {
		const name = conversations.get(key)?.server?.name;
		if (name !== undefined) counts.set(name, (counts.get(name) ?? 0) + 1);
	}
	return [...counts].map(([name, count]) => ({name, count}));
}

import type {ErrorCause} from '../wire/error-classification.js';
import type {AppConversation} from '../wire/schemas/app.js';
import {type LoggedEvent, peekIf, type WireEvent} from '../wire/schemas/events.js';
import {isKnown, sandboxStatuses} from '../wire/statuses.js';
import type {AttentionReason, OwnAttentionReason} from './dashboard-types.js';
import {sameFields} from './same-fields.js';

/**
 * Why a conversation needs a person, most urgent first. Pure: the store calls it whenever a row's
 * inputs change and keeps the result on the row, so views and selectors never recompute it.
 *
 * Order (most in need of a person first): waiting_for_confirmation > error > stuck > spending
 * without progress > sandbox ERROR/MISSING > quiet > repeating. A conversation can have several reasons (an errored run in a
 * sandbox that then went missing); all are listed, the first decides its rank.
 */

export const defaultQuietAfterMs = 10 * 60_000;
export const defaultRepeatThreshold = 3;
/** A MISSING sandbox is a reason only while its conversation was active this recently. */
export const missingMattersForMs = 60 * 60_000;
/** A sandbox STARTING this long is not starting (`--starting-after`): a cause, with the runtime's reason. */
export const defaultStartingAfterMs = 10 * 60_000;

export type AttentionInput = {
	conversation: AppConversation;
	now: number;
	/** Execution status from a live stream, newer than the polled one; wins when set. */
	executionStatus?: string | null;
	/** The status above is the last one seen before the sandbox stopped, not a live one. */
	executionStatusLastKnown?: boolean;
	/** Sandbox status from the sandbox poll, when it is newer than the conversation's copy. */
	sandboxStatus?: string | null;
	/** Why the sandbox is in that status (`status_detail`), when the sandbox list said. */
	sandboxDetail?: string | null;
	/** The most urgent of its sub-conversations that need a person (subAgentReason), if any. */
	subAgent?: Extract<AttentionReason, {kind: 'sub_agent'}> | null;
	/**
	 * When the store saw the agent's current status appear (ms, the data's clock); preferred for
	 * `since`. A sandbox paused and resumed under it is not a new status: the agent's is kept.
	 */
	statusSince?: number | null;
	/** When the store saw the sandbox's current status appear (ms); preferred for `sandbox_error`'s `since`. */
	sandboxStatusSince?: number | null;
	/** Newest activity known (updated_at or a streamed event), ms since epoch. */
	lastActivityAt?: number | null;
	/** The conversation's events, only when its timeline is streamed (repeating needs them). */
	events?: readonly LoggedEvent[] | null;
	/** Without the events: the run of identical calls at the end of its newest events, as read (state/repeat-scan.ts). */
	repeat?: {tool: string; count: number} | null;
	quietAfterMs?: number;
	/** How long a sandbox may stay STARTING before it is a cause (default defaultStartingAfterMs). */
	startingAfterMs?: number;
	repeatThreshold?: number;
	/** Spending without progress (state/spend-progress.ts), when found. */
	spending?: {since: number; spent: number} | null;
	/** Why it is in error, when known (state/error-causes.ts); carried on the `error` reason. */
	errorCause?: ErrorCause | null;
	/**
	 * False while ages cannot be told (DataClock.agesKnown): `now` is then only the `Date` header's
	 * guess, disputed by the data, and no reason is raised from an age.
	 */
	agesKnown?: boolean;
	/** How long the dashboard watched it write nothing (our clock), used for `quiet` while ages are not known. */
	quietSeenMs?: number | null;
};

/** Rank of each reason kind; lower is more urgent. Rows without reasons rank after all of them. */
const kindRank: Record<OwnAttentionReason['kind'], number> = {
	waiting_for_confirmation: 0,
	error: 1,
	stuck: 2,
	// Money going out for nothing: before the quiet ones, which at least cost nothing.
	spending: 3,
	sandbox_error: 4,
	quiet: 5,
	repeating: 6,
};

export const noAttentionRank = 7;

/** One reason's rank; a sub-agent's is its child's reason's. */
export function reasonRank(reason: AttentionReason): number {
	return kindRank[reason.kind === 'sub_agent' ? reason.reason.kind : reason.kind];
}

export function attentionRank(reasons: readonly AttentionReason[]): number {
	const first = reasons[0];
	return first ? reasonRank(first) : noAttentionRank;
}

/** Whether a row needs a person for itself, not only because a sub-conversation does. */
export function needsAttentionItself(reasons: readonly AttentionReason[]): boolean {
	return reasons.some((reason) => reason.kind !== 'sub_agent');
}

/** Agent statuses that make a sandbox that says nothing (UNKNOWN) worth a look: it was at work, or needed you. */
const mattersWhenUnknown = new Set(['running', 'waiting_for_confirmation', 'error', 'stuck']);

/**
 * The `sub_agent` reason a parent gets from its children's rows: the most urgent child (by rank,
 * then the newest activity), its own reason (unwrapped through a raised grandchild) and how many
 * need you. Null when none does.
 */
export function subAgentReason(
	children: Iterable<{key: string; conversation: Pick<AppConversation, 'title'>; attention: readonly AttentionReason[]; lastActivityAt: number | null}>,
): Extract<AttentionReason, {kind: 'sub_agent'}> | null {
	let best: {key: string; title: string | null; reason: OwnAttentionReason; rank: number; at: number} | null = null;
	let count = 0;
	for (const child of children) {
		const first = child.attention[0];
		if (!first) continue;
		count++;
		const rank = reasonRank(first);
		const at = child.lastActivityAt ?? 0;
		if (best && (rank > best.rank || (rank === best.rank && (at < best.at || (at === best.at && child.key > best.key))))) continue;
		best = {key: child.key, title: child.conversation.title ?? null, reason: first.kind === 'sub_agent' ? first.reason : first, rank, at};
	}
	return best ? {kind: 'sub_agent', child: {key: best.key, title: best.title}, reason: best.reason, count} : null;
}

/** ISO time to ms; null when absent or unreadable (never NaN, so comparisons stay sane). */
export function parseTime(value: string | null | undefined): number | null {
	if (!value) return null;
	const ms = Date.parse(value);
	return Number.isNaN(ms) ? null : ms;
}

export function computeAttention(input: AttentionInput): AttentionReason[] {
	const {conversation, now} = input;
	const reasons: AttentionReason[] = [];
	const execution = (input.executionStatus ?? conversation.execution_status ?? '').toLowerCase();
	const sandbox = (input.sandboxStatus ?? conversation.sandbox_status ?? '').toUpperCase();
	// The store's own observation of the transition is exact; updated_at is the best the server gives.
	const since = input.statusSince ?? parseTime(conversation.updated_at);

	// A conversation that needed a person when its sandbox stopped still does: pausing a sandbox
	// handles nothing. Marked, so the view can say it is the last known status.
	const known = input.executionStatusLastKnown ? {lastKnown: true} : {};
	if (execution === 'waiting_for_confirmation') reasons.push({kind: 'waiting_for_confirmation', since, ...known});
	if (execution === 'error') reasons.push({kind: 'error', since, ...known, ...(input.errorCause === undefined ? {} : {cause: input.errorCause})});
	if (execution === 'stuck') reasons.push({kind: 'stuck', since, ...known});
	if (input.spending) reasons.push({kind: 'spending', since: input.spending.since, spent: input.spending.spent});
	// A sandbox that vanished long after its conversation went quiet was cleaned up, which is
	// routine (the service deletes old sandboxes); only a recent loss needs a person. One still
	// STARTING after `startingAfterMs` is not starting (a pod never scheduled: `insufficient kvm`);
	// told only from an age the data's clock allows (never while ages are unknown). One whose status says nothing
	// (UNKNOWN: the provider is unavailable; or a word this client does not know) matters when
	// its agent was at work or needed you: what it does now cannot be seen.
	const recentlyActive = (input.lastActivityAt ?? parseTime(conversation.updated_at) ?? 0) >= now - missingMattersForMs;
	const detail = input.sandboxDetail?.trim() || null;
	const saysNothing = sandbox !== '' && (sandbox === 'UNKNOWN' || !isKnown(sandboxStatuses, sandbox));
	const startingSince = input.sandboxStatusSince ?? parseTime(conversation.updated_at);
	const notStarting = sandbox === 'STARTING' && input.agesKnown !== false && startingSince !== null && now - startingSince >= (input.startingAfterMs ?? defaultStartingAfterMs);
	if (
		sandbox === 'ERROR' ||
		(sandbox === 'MISSING' && recentlyActive) ||
		notStarting ||
		(saysNothing && mattersWhenUnknown.has(execution))
	) {
		reasons.push({kind: 'sandbox_error', status: sandbox, since: input.sandboxStatusSince ?? parseTime(conversation.updated_at), ...(detail === null ? {} : {detail})});
	}

	const quietAfterMs = input.quietAfterMs ?? defaultQuietAfterMs;
	const lastActivity = input.lastActivityAt ?? parseTime(conversation.updated_at);
	if (sandbox === 'RUNNING' && execution === 'running' && input.agesKnown === false) {
		// The data's clock is not known: `now - updated_at` could be weeks of clock skew (`quiet 24d`
		// for an agent that wrote seconds ago). Only what the dashboard watched itself counts, and
		// it says it is a lower bound.
		const seen = input.quietSeenMs ?? null;
		if (seen !== null && seen >= quietAfterMs) reasons.push({kind: 'quiet', quietForMs: Math.floor(seen / 60_000) * 60_000, atLeast: true});
	} else if (sandbox === 'RUNNING' && execution === 'running' && lastActivity !== null) {
		const quietFor = now - lastActivity;
		if (quietFor >= quietAfterMs) {
			// Whole minutes: the row only changes once a minute as the quiet period grows, so a
			// poll that brings nothing new does not make a new row (and a re-render) every time.
			reasons.push({kind: 'quiet', quietForMs: Math.floor(quietFor / 60_000) * 60_000});
		}
	}

	const repeat = input.events && input.events.length > 0 ? trailingRepeat(input.events) : (input.repeat ?? null);
	if (repeat && repeat.count >= (input.repeatThreshold ?? defaultRepeatThreshold)) {
		reasons.push({kind: 'repeating', count: repeat.count, tool: repeat.tool});
	}

	// The child's reason goes where its rank puts it among the parent's own (reasons are in rank order).
	const child = input.subAgent;
	if (child) {
		const rank = reasonRank(child);
		const at = reasons.findIndex((reason) => reasonRank(reason) > rank);
		reasons.splice(at === -1 ? reasons.length : at, 0, child);
	}

	return reasons;
}

/**
 * The run of identical tool calls at the end of the conversation: same tool and same arguments,
 * consecutive among the ActionEvents (observations in between do not break the run; a different
 * action does). Walks back from the end only as far as the run goes, so 100,000 events cost the
 * length of the run, not of the log.
 */
export function trailingRepeat(events: readonly LoggedEvent[]): {tool: string; count: number} | null {
	let signature: string | null = null;
	let tool = '';
	let count = 0;
	for (let index = events.length - 1; index >= 0; index--) {
		const logged = events[index];
		// Looked at, not kept validated: this runs on every refresh as the stream grows.
		const event = logged && peekIf(logged, 'ActionEvent');
		if (!event) continue;
		const current = actionSignature(event);
		if (signature === null) {
			signature = current;
			tool = event.tool_name;
			count = 1;
		} else if (current === signature) {
			count++;
		} else {
			break;
		}
	}

	return signature === null ? null : {tool, count};
}

function actionSignature(event: Extract<WireEvent, {kind: 'ActionEvent'}>): string {
	// The raw arguments the model produced are the most faithful "same call" test; fall back to
	// the parsed action when a server leaves tool_call out.
	const args = event.tool_call?.arguments ?? safeJson(event.action);
	return `${event.tool_name}\u0000${normalizeArguments(args)}`;
}

/** Arguments JSON with insignificant whitespace removed, so `{"a": 1}` equals `{"a":1}`. */
function normalizeArguments(text: string): string {
	if (text.length > 100_000) return text;
	try {
		return JSON.stringify(JSON.parse(text));
	} catch {
		return text.trim();
	}
}

function safeJson(value: unknown): string {
	try {
		return JSON.stringify(value) ?? '';
	} catch {
		return String(value);
	}
}

/** Structural equality of two reason lists, so the store can keep the old row when nothing changed. */
export function sameAttention(a: readonly AttentionReason[], b: readonly AttentionReason[]): boolean {
	if (a === b) return true;
	if (a.length !== b.length) return false;
	for (let index = 0; index < a.length; index++) if (!sameReason(a[index]!, b[index]!)) return false;
	return true;
}

/** The fields that tell two reasons of these kinds apart; the other kinds are compared in sameReason. */
const reasonFields: Partial<Record<AttentionReason['kind'], readonly string[]>> = {
	quiet: ['quietForMs', 'atLeast'],
	repeating: ['count', 'tool'],
	sandbox_error: ['status', 'since', 'detail'],
	spending: ['since', 'spent'],
};

function sameReason(x: AttentionReason, y: AttentionReason): boolean {
	if (x.kind !== y.kind) return false;
	const fields = reasonFields[x.kind];
	if (fields) return sameFields(x as Record<string, unknown>, y as Record<string, unknown>, fields);
	switch (x.kind) {
		case 'sub_agent': {
			const other = y as typeof x;
			return x.child.key === other.child.key && x.child.title === other.child.title && x.count === other.count && sameAttention([x.reason], [other.reason]);
		}

		case 'error': {
			const other = y as typeof x;
			if (x.since !== other.since || Boolean(x.lastKnown) !== Boolean(other.lastKnown)) return false;
			// The same error event is the same cause (undefined: not known yet, null: none).
			return (x.cause === undefined ? undefined : (x.cause?.eventId ?? null)) === (other.cause === undefined ? undefined : (other.cause?.eventId ?? null));
		}

		default: {
			// The kinds with fields of their own were compared above: what is left is when and whether last known.
			const own = x as Extract<AttentionReason, {lastKnown?: boolean}>;
			const other = y as typeof own;
			return own.since === other.since && Boolean(own.lastKnown) === Boolean(other.lastKnown);
		}
	}
}

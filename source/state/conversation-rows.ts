import {normalizeId} from '../wire/ids.js';
import type {ErrorCause} from '../wire/error-classification.js';
import type {GoalState} from '../wire/goal.js';
import type {AppConversation} from '../wire/schemas/app.js';
import type {LoggedEvent} from '../wire/schemas/events.js';
import {secretValue} from '../wire/secret.js';
import {computeAttention, parseTime, sameAttention} from './attention.js';
import type {AttentionReason, ConversationRow} from './dashboard-types.js';
import type {AgeBasis} from './age-basis.js';
import {defaultDeadAfterMs, isDead} from './dead-group.js';

/**
 * Turning conversations from the server into rows. The rule that keeps rendering cheap: a row
 * object is replaced only when something shown in it changed, so a poll that brings the same
 * data back changes nothing, and memoised rows and selectors skip all work.
 */

export function conversationKey(conversation: Pick<AppConversation, 'id'>): string {
	return normalizeId(String(conversation.id));
}

/**
 * Whether two copies of a conversation are the same for the dashboard. JSON covers every field
 * (Secret serialises as `[redacted]`), so the session key is compared on its own: when it
 * changes (sandbox restarted) the stream must use the new one.
 */
export function sameConversation(a: AppConversation, b: AppConversation): boolean {
	return sameWireObject(a, b);
}

/** Same, for any parsed resource with an optional `session_api_key` Secret (sandboxes too). */
export function sameWireObject<T extends {session_api_key?: unknown}>(a: T, b: T): boolean {
	if (a === b) return true;
	const keyA = a.session_api_key as Parameters<typeof secretValue>[0];
	const keyB = b.session_api_key as Parameters<typeof secretValue>[0];
	if (secretValue(keyA) !== secretValue(keyB)) return false;
	return JSON.stringify(a) === JSON.stringify(b);
}

/** What the store knows about a conversation beyond the server's copy. */
export type RowFacts = {
	now: number;
	quietAfterMs: number;
	/** False while ages cannot be told (DataClock.agesKnown); absent: they can. */
	agesKnown?: boolean;
	/** How long the dashboard watched it write nothing (our clock): `quiet` while ages are not known. */
	quietSeenMs?: number | null;
	/** Identical tool calls in a row that make `repeating` (default in attention.ts). */
	repeatThreshold?: number;
	/** Execution status from the open timeline's stream (newer than the poll), if this row is open. */
	streamStatus?: string | null;
	/** The open timeline's events, if this row is open (for `repeating`). */
	events?: readonly LoggedEvent[] | null;
	/** Any other running row: the repeated call at the end of its newest events (state/repeat-scan.ts). */
	repeat?: {tool: string; count: number} | null;
	/** Newest activity seen on the stream (ms). */
	streamActivityAt?: number | null;
	/** When the store saw the agent's current status appear (ms). */
	statusSince?: number | null;
	/** When the store saw the sandbox's current status appear (ms). */
	sandboxStatusSince?: number | null;
	/** The agent's last execution status seen (kept while the server sends none: sandbox stopped). */
	lastKnownStatus?: string | null;
	/** Why it is in error, when known (state/error-causes.ts); undefined while unknown. */
	errorCause?: ErrorCause | null;
	/** Its goal loop as its events last said (null: none), when its timeline was read. */
	goal?: GoalState | null;
	unseenEvents: number;
	/** Its sandbox's `status_detail`, when the sandbox list has it for the status this conversation shows. */
	sandboxDetail?: string | null;
	/** Its most urgent sub-conversation needing a person (attention.ts subAgentReason). */
	subAgent?: Extract<AttentionReason, {kind: 'sub_agent'}> | null;
	/** USD per hour (state/spend.ts), rounded so wobbles make no new row. */
	costPerHour?: number | null;
	/** Spending without progress, when found (state/spend-progress.ts). */
	spending?: {since: number; spent: number} | null;
	/** When its sandbox's session started (for the 12-hour cap). */
	sessionStart?: {at: number; exact: boolean} | null;
	/** How the data's clock is known: only `known` lets an age call a row dead (state/dead-group.ts). */
	ageBasis?: AgeBasis;
	/** `--dead-after`: ERROR/MISSING rows unchanged this long are dead (default in dead-group.ts). */
	deadAfterMs?: number;
	/** `--starting-after`: a sandbox STARTING this long is a cause (default in attention.ts). */
	startingAfterMs?: number;
};

/** The key of a conversation's parent (normalised), or null for a top-level one. */
export function parentKeyOf(conversation: Pick<AppConversation, 'parent_conversation_id'>): string | null {
	const parent = conversation.parent_conversation_id;
	return parent ? normalizeId(String(parent)) : null;
}

/** The row for `conversation`, or `previous` itself when nothing visible changed. */
export function buildRow(previous: ConversationRow | undefined, conversation: AppConversation, facts: RowFacts): ConversationRow {
	const key = previous?.key ?? conversationKey(conversation);
	// The stream's status is newer than the poll's for the open conversation: show it, but only
	// while the sandbox runs. A paused or missing sandbox has no execution status, whatever the
	// last frame of a now-dead stream said.
	const shown =
		facts.streamStatus && conversation.sandbox_status === 'RUNNING' && facts.streamStatus !== conversation.execution_status
			? {...conversation, execution_status: facts.streamStatus}
			: conversation;
	const sameData = previous !== undefined && sameConversation(previous.conversation, shown);
	const updatedAt = parseTime(conversation.updated_at);
	const lastActivityAt = maxOrNull(updatedAt, facts.streamActivityAt ?? null);
	const live = shown.execution_status ? String(shown.execution_status) : null;
	const agentStatus = live ?? facts.lastKnownStatus ?? null;
	const agentStatusLastKnown = live === null && agentStatus !== null;
	const sandboxDetail = facts.sandboxDetail ?? null;
	// A dead row needs nobody: it leaves `!` for the dead group (its sub-agents' own rows still count).
	const dead = isDead({sandboxStatus: shown.sandbox_status, lastActivityAt, now: facts.now, ageBasis: facts.ageBasis ?? (facts.agesKnown === false ? 'unknown' : 'assumed'), ...(facts.deadAfterMs === undefined ? {} : {deadAfterMs: facts.deadAfterMs})});
	const attention = dead ? [] : computeAttention({
		conversation: shown,
		executionStatus: agentStatus,
		executionStatusLastKnown: agentStatusLastKnown,
		now: facts.now,
		statusSince: facts.statusSince ?? null,
		sandboxStatusSince: facts.sandboxStatusSince ?? null,
		lastActivityAt,
		events: facts.events ?? null,
		repeat: facts.repeat ?? null,
		quietAfterMs: facts.quietAfterMs,
		...(facts.agesKnown === false ? {agesKnown: false, quietSeenMs: facts.quietSeenMs ?? null} : {}),
		...(facts.repeatThreshold === undefined ? {} : {repeatThreshold: facts.repeatThreshold}),
		...(facts.startingAfterMs === undefined ? {} : {startingAfterMs: facts.startingAfterMs}),
		sandboxDetail,
		subAgent: facts.subAgent ?? null,
		spending: facts.spending ?? null,
		...(facts.errorCause === undefined ? {} : {errorCause: facts.errorCause}),
	});
	const costPerHour = facts.costPerHour ?? null;
	const sessionStart = facts.sessionStart ?? null;
	const errorCause = agentStatus === 'error' ? facts.errorCause : undefined;
	if (
		previous &&
		sameData &&
		previous.lastActivityAt === lastActivityAt &&
		previous.unseenEvents === facts.unseenEvents &&
		previous.agentStatus === agentStatus &&
		previous.agentStatusLastKnown === agentStatusLastKnown &&
		(previous.sandboxDetail ?? null) === sandboxDetail &&
		(previous.costPerHour ?? null) === costPerHour &&
		sameStart(previous.sessionStart ?? null, sessionStart) &&
		previous.errorCause === errorCause &&
		Boolean(previous.dead) === dead &&
		sameGoal(previous.goal, facts.goal) &&
		sameAttention(previous.attention, attention)
	) {
		return previous;
	}

	return {
		key,
		conversation: sameData && previous ? previous.conversation : shown,
		agentStatus,
		agentStatusLastKnown,
		attention: previous && sameAttention(previous.attention, attention) ? previous.attention : attention,
		lastActivityAt,
		unseenEvents: facts.unseenEvents,
		...(sandboxDetail === null ? {} : {sandboxDetail}),
		costPerHour,
		sessionStart: previous && sameStart(previous.sessionStart ?? null, sessionStart) ? (previous.sessionStart ?? null) : sessionStart,
		...(errorCause === undefined ? {} : {errorCause}),
		...(dead ? {dead: {afterMs: facts.deadAfterMs ?? defaultDeadAfterMs}} : {}),
		...(facts.goal === undefined ? {} : {goal: previous && sameGoal(previous.goal, facts.goal) ? previous.goal : facts.goal}),
	};
}

/** Two goal states that read the same (a poll must not make a new row for an equal copy). */
function sameGoal(a: GoalState | null | undefined, b: GoalState | null | undefined): boolean {
	if (a === b) return true;
	if (!a || !b) return false;
	return a.status === b.status && a.iteration === b.iteration && a.maxIterations === b.maxIterations && a.active === b.active && a.objective === b.objective;
}

function sameStart(a: {at: number; exact: boolean} | null, b: {at: number; exact: boolean} | null): boolean {
	return a === b || (a !== null && b !== null && a.at === b.at && a.exact === b.exact);
}

function maxOrNull(a: number | null, b: number | null): number | null {
	if (a === null) return b;
	if (b === null) return a;
	return Math.max(a, b);
}

/**
 * What marks a transition, for attention's `since`: the agent's status (the last one known while
 * its sandbox sends none, so pausing and resuming the sandbox is no new status of the agent) and
 * the sandbox's, apart.
 */
export function statusSignature(conversation: AppConversation, agentStatus: string | null): {agent: string; sandbox: string} {
	return {agent: agentStatus ?? '', sandbox: String(conversation.sandbox_status ?? '')};
}

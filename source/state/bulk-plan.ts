import {sandboxKeyOf} from './sandbox-rows.js';
import type {DashboardSnapshot} from './dashboard-types.js';

export type SandboxBulkAction = 'pause' | 'resume';
/** `P` / `R` act on sandboxes; `I` on the agents of conversations (their sandboxes keep running). */
export type BulkAction = SandboxBulkAction | 'interrupt';

const eligible: Record<SandboxBulkAction, ReadonlySet<string>> = {
	pause: new Set(['RUNNING', 'STARTING']),
	// Only a paused sandbox can be resumed: ERROR and MISSING ones answer 404.
	resume: new Set(['PAUSED']),
};

export type BulkPlan = {
	/** Sandboxes the action would apply to, in list order, each once. */
	sandboxKeys: string[];
	/** Sandboxes of the matching conversations left out: wrong status, or an action in flight. */
	skipped: number;
};

/**
 * `P` / `R`: the sandboxes of the conversations the current filter shows that the action can
 * apply to (a running sandbox to pause, a paused one to resume), each once.
 */
export function planBulk(snapshot: Pick<DashboardSnapshot, 'sandboxes' | 'conversations'>, action: SandboxBulkAction, conversationKeys: readonly string[]): BulkPlan {
	const seen = new Set<string>();
	const sandboxKeys: string[] = [];
	let skipped = 0;
	for (const key of conversationKeys) {
		const sandboxId = snapshot.conversations.get(key)?.conversation.sandbox_id;
		if (!sandboxId) continue;
		const sandboxKey = sandboxKeyOf(snapshot.sandboxes, sandboxId);
		if (seen.has(sandboxKey)) continue;
		seen.add(sandboxKey);
		const row = snapshot.sandboxes.get(sandboxKey);
		const busy = row?.pending && !row.pending.error;
		if (row && !busy && eligible[action].has(String(row.sandbox.status))) sandboxKeys.push(sandboxKey);
		else skipped++;
	}
	return {sandboxKeys, skipped};
}

/** The typed confirmation: the number of sandboxes, or the action's name. */
export function confirmationMatches(typed: string, action: BulkAction, count: number): boolean {
	const text = typed.trim().toLowerCase();
	return text === String(count) || text === action;
}

export type InterruptPlan = {
	/** Conversations whose agent can be stopped, in list order. */
	conversationKeys: string[];
	/** Matching conversations left out: sandbox not running, or no agent at work. */
	skipped: number;
};

const idle = new Set(['paused', 'idle', 'finished']);

/**
 * `I`: the conversations the current filter shows whose agent is at work in a running sandbox.
 * The others are counted as skipped (a stopped sandbox is never resumed to stop its agent).
 */
export function planBulkInterrupt(snapshot: Pick<DashboardSnapshot, 'conversations'>, conversationKeys: readonly string[]): InterruptPlan {
	const keys: string[] = [];
	let skipped = 0;
	for (const key of conversationKeys) {
		const conversation = snapshot.conversations.get(key)?.conversation;
		if (!conversation) continue;
		const working = String(conversation.sandbox_status) === 'RUNNING' && !idle.has(String(conversation.execution_status ?? 'idle'));
		if (working) keys.push(key);
		else skipped++;
	}
	return {conversationKeys: keys, skipped};
}

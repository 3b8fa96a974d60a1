import {sanitizeLine} from '../../format/sanitize.js';
import {sandboxKeyOf} from '../../state/sandbox-rows.js';
import type {DashboardSnapshot} from '../../state/dashboard-types.js';

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

export type BulkItemState = {text: string; color: string | undefined; settled: boolean};

/** One sandbox's line: what it is and, once asked, how the action went (read from the live snapshot). */
export function bulkItemLine(snapshot: Pick<DashboardSnapshot, 'sandboxes' | 'conversations'>, action: SandboxBulkAction, key: string, asked: boolean): BulkItemState {
	const row = snapshot.sandboxes.get(key);
	const name = key.slice(0, 12);
	if (!row) return {text: `${name}  gone from the list`, color: 'yellow', settled: true};
	const status = String(row.sandbox.status);
	const users = row.conversationKeys
		.map((conversationKey) => snapshot.conversations.get(conversationKey)?.conversation.title)
		.filter((title): title is string => typeof title === 'string')
		.map((title) => sanitizeLine(title));
	const label = `${name}  ${status.toLowerCase().padEnd(8)} ${users.join(', ') || '(no conversation)'}`;
	if (!asked) return {text: label, color: undefined, settled: false};
	if (row.pending?.error) return {text: `✗ ${name}  failed: ${sanitizeLine(row.pending.error)}`, color: 'red', settled: true};
	if (row.pending) return {text: `… ${name}  ${row.pending.kind}`, color: 'yellow', settled: false};
	const done = action === 'pause' ? status === 'PAUSED' : status === 'RUNNING';
	return done ? {text: `✓ ${name}  ${status.toLowerCase()}`, color: 'green', settled: true} : {text: `… ${label}`, color: 'yellow', settled: false};
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

/** Where one conversation's interrupt stands, kept by the panel (the store has no row for it). */
export type InterruptResult = {state: 'sending'} | {state: 'done'; how: 'interrupt' | 'pause'} | {state: 'failed'; reason: string};

export function interruptItemLine(snapshot: Pick<DashboardSnapshot, 'conversations'>, key: string, result: InterruptResult | undefined): BulkItemState {
	const conversation = snapshot.conversations.get(key)?.conversation;
	const title = conversation?.title ? sanitizeLine(conversation.title) : key.slice(0, 8);
	const label = `${key.slice(0, 8)}  ${String(conversation?.execution_status ?? 'unknown').padEnd(8)} ${title}`;
	if (!result) return {text: label, color: undefined, settled: false};
	if (result.state === 'sending') return {text: `… ${label}`, color: 'yellow', settled: false};
	if (result.state === 'failed') return {text: `✗ ${key.slice(0, 8)}  failed: ${sanitizeLine(result.reason)}`, color: 'red', settled: true};
	return {text: `✓ ${key.slice(0, 8)}  ${result.how === 'interrupt' ? 'stopped' : 'pausing after its step'}  ${title}`, color: 'green', settled: true};
}

import {sanitizeLine} from '../../format/sanitize.js';
import type {SandboxBulkAction} from '../../state/bulk-plan.js';
import type {DashboardSnapshot} from '../../state/dashboard-types.js';

/**
 * The lines of the bulk and remedy panels (BulkPanel.tsx, RemedyPanel.tsx): each sandbox or
 * conversation a plan (state/bulk-plan.ts) acts on, and once asked, how its action went, read
 * from the live snapshot.
 */

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

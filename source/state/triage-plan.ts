import {sanitizeLine} from '../format/sanitize.js';
import type {DashboardController, DashboardSnapshot} from './dashboard-types.js';
import {truncateToWidth} from '../format/width.js';

export type TriageVerb = 'approve' | 'reject' | 'nudge';

export type TriagePlan = {kind: 'go'; conversationKey: string; title: string} | {kind: 'refuse'; text: string};

/** The newest execution status known: the stream's (live) over the polled one. */
export function executionStatusOf(snapshot: Pick<DashboardSnapshot, 'conversations' | 'timeline'>, key: string): string | null {
	if (snapshot.timeline?.conversationKey === key && snapshot.timeline.executionStatus) return snapshot.timeline.executionStatus;
	const status = snapshot.conversations.get(key)?.conversation.execution_status;
	return status == null ? null : String(status);
}

/** A conversation's title as sent (sanitized), or the start of its key when it has none. */
export function conversationTitle(snapshot: Pick<DashboardSnapshot, 'conversations'>, key: string): string {
	const title = snapshot.conversations.get(key)?.conversation.title;
	return title ? sanitizeLine(title) : key.slice(0, 8);
}

/** A conversation's title for prompts and notices: sanitized and short. */
export function shortTitle(snapshot: Pick<DashboardSnapshot, 'conversations'>, key: string): string {
	const row = snapshot.conversations.get(key);
	const short = truncateToWidth(conversationTitle(snapshot, key), 32);
	// The all-servers view: a question says which server it goes to.
	return row?.server ? `${short} on ${sanitizeLine(row.server.name)}` : short;
}

/**
 * Whether `a`, `x` or `m` can act on a conversation, or why not: approving or rejecting needs a
 * conversation that waits for confirmation, and each needs the controller to support it.
 */
export function planTriage(
	snapshot: Pick<DashboardSnapshot, 'conversations' | 'timeline'>,
	controller: Pick<DashboardController, TriageVerb>,
	verb: TriageVerb,
	key: string | null | undefined,
): TriagePlan {
	if (!key) return {kind: 'refuse', text: 'No conversation selected.'};
	// Planned once the conversation list has arrived (view/awaited-key.ts): a row missing then is not in it.
	if (!snapshot.conversations.has(key)) return {kind: 'refuse', text: 'That conversation is not in the list (ctrl-r refreshes it).'};
	if (typeof controller[verb] !== 'function') return {kind: 'refuse', text: `This server connection cannot ${verb} yet.`};
	const title = shortTitle(snapshot, key);
	if (verb !== 'nudge' && executionStatusOf(snapshot, key) !== 'waiting_for_confirmation') {
		return {kind: 'refuse', text: `${title} is not waiting for confirmation: nothing to ${verb}.`};
	}
	return {kind: 'go', conversationKey: key, title};
}

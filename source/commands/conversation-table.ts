import type {AgeBasis} from '../state/age-basis.js';
import {causeShort} from '../format/error-cause.js';
import {formatCost, missing} from '../format/numbers.js';
import type {ErrorCause} from '../wire/error-classification.js';
import {executionStatusStyle, sandboxStatusStyle} from '../format/status-style.js';
import {formatAgeAt, formatAgeSince, parseTimestamp, type AgeNow} from '../format/time.js';
import {normalizeId} from '../wire/ids.js';
import type {AppConversation} from '../wire/schemas/app.js';
import {renderTable, type Column} from './table.js';

/**
 * The human form of `conversations`: short id (enough to tell rows apart; `events` accepts the
 * full id from --json), sandbox and execution status as words, title, repository, age, cost.
 */

export function shortId(id: string): string {
	return normalizeId(id).slice(0, 8);
}

/** `3m`, `2d`, or `—` when the server gave no time or an unreadable one. */
export function ageOf(iso: string | null | undefined, now: AgeNow): string {
	return now === 'unknown' ? formatAgeAt(now, parseTimestamp(iso)) : formatAgeSince(iso, now);
}

export function conversationTable(rows: readonly AppConversation[], now: AgeNow, width?: number, causes?: ReadonlyMap<string, ErrorCause | null>, repeats?: ReadonlyMap<string, {tool: string; count: number}>): string[] {
	return renderTable(rows, columnsOf((row) => row, () => now, (row) => causes?.get(normalizeId(row.id)), rows, () => '', (row) => repeats?.get(normalizeId(row.id))), width);
}

/** A row of the all-profiles table: the conversation, the profile it came from, now by that server's clock, and why it failed if it did. */
export type ProfileConversation = {profile: string; conversation: AppConversation; now: AgeNow; basis?: AgeBasis; cause?: ErrorCause | null; snoozedUntil?: string | null};

/**
 * `conversations --all-profiles`: one table, a SERVER column first, each row's age by its own
 * server's clock. A sub-conversation's parent is looked for on its own server: two servers can
 * hold the same ids. (The caller orders each server's rows as a tree.)
 */
export function profileConversationTable(rows: readonly ProfileConversation[], width?: number): string[] {
	const server: Column<ProfileConversation> = {header: 'SERVER', value: (row) => row.profile, max: 16};
	return renderTable(rows, [server, ...columnsOf<ProfileConversation>((row) => row.conversation, (row) => row.now, (row) => row.cause, rows, (row) => row.profile)], width);
}

function columnsOf<T>(
	conversation: (row: T) => AppConversation,
	now: (row: T) => AgeNow,
	cause: (row: T) => ErrorCause | null | undefined,
	rows: readonly T[] = [],
	server: (row: T) => string = () => '',
	repeat: (row: T) => {tool: string; count: number} | undefined = () => undefined,
): Array<Column<T>> {
	const parents = new Set(rows.map((row) => `${server(row)}\n${normalizeId(conversation(row).id)}`));
	return [
		{header: 'ID', value: (row) => shortId(conversation(row).id)},
		// Words with a symbol, readable without colour; unknown values are shown raw.
		// With its reason when the sandbox gave one: `✗ error: ImagePullBackOff`.
		{header: 'SANDBOX', value: (row) => sandboxCell(conversation(row)), max: 56},
		// Null unless the sandbox runs: shown as such rather than left blank.
		// An errored agent says why, when its error event says (`✗ error · quota: raise the budget`).
		// A model re-sending the same call says so (`▸ running · repeating apply_patch 4×`), as `!` does.
		{header: 'AGENT', value: (row) => (conversation(row).execution_status ? agentCell(conversation(row), cause(row), repeat(row)) : missing), max: 48},
		// A sub-conversation under its parent (`└ `), or marked when its parent is not in the list (`↳ `).
		{header: 'TITLE', value: (row) => subAgentMark(conversation(row), parents, server(row)) + (conversation(row).title ?? '(untitled)'), max: 60, flexible: true},
		{header: 'REPO', value: (row) => conversation(row).selected_repository ?? missing, max: 40},
		{header: 'AGE', value: (row) => ageOf(conversation(row).created_at, now(row)), align: 'right'},
		{header: 'COST', value: (row) => formatCost(conversation(row).metrics?.accumulated_cost), align: 'right'},
	];
}

function sandboxCell(conversation: AppConversation): string {
	const label = sandboxStatusStyle(conversation.sandbox_status).label;
	const detail = conversation.sandbox_status_detail;
	return typeof detail === 'string' && detail.trim() ? `${label}: ${detail}` : label;
}

function subAgentMark(conversation: AppConversation, listed: ReadonlySet<string>, server: string): string {
	const parent = conversation.parent_conversation_id;
	if (!parent) return '';
	return listed.has(`${server}\n${normalizeId(parent)}`) ? '└ ' : '↳ ';
}

function agentCell(row: AppConversation, cause: ErrorCause | null | undefined, repeat?: {tool: string; count: number}): string {
	const label = executionStatusStyle(row.execution_status).label;
	if (cause) return `${label} · ${causeShort(cause)}`;
	return repeat ? `${label} · repeating ${repeat.tool} ${repeat.count}×` : label;
}

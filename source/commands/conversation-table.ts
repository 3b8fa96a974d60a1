import {formatCost, missing} from '../format/numbers.js';
import {executionStatusStyle, sandboxStatusStyle} from '../format/status-style.js';
import {formatAgeSince} from '../format/time.js';
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
export function ageOf(iso: string | null | undefined, now: number): string {
	return formatAgeSince(iso, now);
}

export function conversationTable(rows: readonly AppConversation[], now: number, width?: number): string[] {
	const columns: Array<Column<AppConversation>> = [
		{header: 'ID', value: (row) => shortId(row.id)},
		// Words with a symbol, readable without colour; unknown values are shown raw.
		{header: 'SANDBOX', value: (row) => sandboxStatusStyle(row.sandbox_status).label},
		// Null unless the sandbox runs: shown as such rather than left blank.
		{header: 'AGENT', value: (row) => (row.execution_status ? executionStatusStyle(row.execution_status).label : missing)},
		{header: 'TITLE', value: (row) => row.title ?? '(untitled)', max: 60, flexible: true},
		{header: 'REPO', value: (row) => row.selected_repository ?? missing, max: 40},
		{header: 'AGE', value: (row) => ageOf(row.created_at, now), align: 'right'},
		{header: 'COST', value: (row) => formatCost(row.metrics?.accumulated_cost), align: 'right'},
	];
	return renderTable(rows, columns, width);
}

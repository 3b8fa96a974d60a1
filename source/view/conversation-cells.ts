import {formatCost, formatPercent} from '../format/numbers.js';
import {sanitizeLine} from '../format/sanitize.js';
import {formatAge} from '../format/time.js';
import {cellWidth} from '../format/width.js';
import {parseTime} from '../state/attention.js';
import type {ConversationRow} from '../state/dashboard-types.js';
import {attentionShort} from './attention-text.js';
import {cellLeft, cellRight} from './cells.js';
import {conversationStatus} from './status-look.js';
import {contextFraction, usageColor} from './triage/usage-look.js';

/**
 * Column widths of the conversations list and the precomputed strings of one row. Rows are built
 * once per (row object, widths, clock tick) and cached, because a redraw of 30 rows should cost
 * string look-ups, not sanitizing and measuring.
 */

export type ConversationColumns = {
	width: number;
	marker: number;
	status: number;
	title: number;
	repo: number;
	age: number;
	activity: number;
	cost: number;
	/** Context use (`73%`), on wide terminals only; the preview shows it otherwise. */
	context: number;
	unseen: number;
};

export function conversationColumns(width: number): ConversationColumns {
	const marker = 2;
	const status = 11;
	const age = 4;
	const activity = 4;
	const cost = width >= 56 ? 6 : 0;
	const unseen = width >= 48 ? 4 : 0;
	const context = width >= 100 ? 4 : 0;
	// The repository goes first when space runs short; the title keeps at least ~20 cells.
	const repo = width >= 64 ? Math.min(28, Math.max(12, Math.floor(width * 0.2))) : 0;
	const gaps = [status, repo, age, activity, cost, context, unseen].filter((value) => value > 0).length;
	const title = Math.max(4, width - marker - status - repo - age - activity - cost - context - unseen - gaps);
	return {width, marker, status, title, repo, age, activity, cost, context, unseen};
}

export type ConversationCells = {
	key: string;
	status: string;
	statusColor: string | undefined;
	/** `stuck 4m · ` before the title for rows that need a person; empty otherwise. */
	reason: string;
	reasonColor: string | undefined;
	title: string;
	/** Right of the title, already padded: ` repo  age last`. */
	rest: string;
	/** ` cost  ctx`, coloured when over a warning threshold. */
	usage: string;
	usageColor: string | undefined;
	/** ` new`. */
	tail: string;
};

export function columnHeader(columns: ConversationColumns): string {
	const parts = [
		' '.repeat(columns.marker),
		cellLeft('STATUS', columns.status),
		' ',
		cellLeft('TITLE', columns.title),
	];
	if (columns.repo) parts.push(' ', cellLeft('REPOSITORY', columns.repo));
	parts.push(' ', cellRight('AGE', columns.age), ' ', cellRight('LAST', columns.activity));
	if (columns.cost) parts.push(' ', cellRight('COST', columns.cost));
	if (columns.context) parts.push(' ', cellRight('CTX', columns.context));
	if (columns.unseen) parts.push(' ', cellRight('NEW', columns.unseen));
	return parts.join('');
}

const reasonColors: Record<string, string> = {
	waiting_for_confirmation: 'yellow',
	error: 'red',
	stuck: 'red',
	sandbox_error: 'red',
	quiet: 'yellow',
	repeating: 'magenta',
};

function age(now: number, then: number | null): string {
	return then === null ? '—' : formatAge(Math.max(0, now - then));
}

export function conversationCells(row: ConversationRow, columns: ConversationColumns, now: number): ConversationCells {
	const conversation = row.conversation;
	const look = conversationStatus(conversation);
	const firstReason = row.attention[0];
	const rawTitle = conversation.title ? sanitizeLine(conversation.title) : `(untitled ${row.key.slice(0, 6)})`;
	let reason = '';
	if (firstReason) {
		// The reason takes at most half the title column; the title keeps the rest.
		reason = cellLeft(`! ${sanitizeLine(attentionShort(firstReason, now))} · `, Math.floor(columns.title / 2)).trimEnd();
		reason = reason.length > 0 ? `${reason} ` : '';
	}
	const titleWidth = Math.max(0, columns.title - cellWidth(reason));
	const parts = [''];
	if (columns.repo) parts.push(' ', cellLeft(conversation.selected_repository ? sanitizeLine(conversation.selected_repository) : '—', columns.repo));
	parts.push(' ', cellRight(age(now, parseTime(conversation.created_at)), columns.age));
	parts.push(' ', cellRight(age(now, row.lastActivityAt), columns.activity));
	const cost = conversation.metrics?.accumulated_cost;
	const usage: string[] = [];
	if (columns.cost) usage.push(' ', cellRight(typeof cost === 'number' ? formatCost(cost) : '—', columns.cost));
	if (columns.context) usage.push(' ', cellRight(formatPercent(contextFraction(conversation)), columns.context));
	const tail = columns.unseen ? ` ${cellRight(row.unseenEvents > 0 ? `+${row.unseenEvents}` : '', columns.unseen)}` : '';
	return {
		key: row.key,
		status: cellLeft(`${look.symbol} ${look.word}`, columns.status) + ' ',
		statusColor: look.color,
		reason,
		reasonColor: firstReason ? reasonColors[firstReason.kind] : undefined,
		title: cellLeft(rawTitle, titleWidth),
		rest: parts.join(''),
		usage: usage.join(''),
		usageColor: usageColor(conversation),
		tail,
	};
}

const cache = new WeakMap<ConversationRow, {columns: ConversationColumns; now: number; cells: ConversationCells}>();

/** `conversationCells`, cached on the (immutable) row object. */
export function cachedConversationCells(row: ConversationRow, columns: ConversationColumns, now: number): ConversationCells {
	const hit = cache.get(row);
	if (hit && hit.columns === columns && hit.now === now) return hit.cells;
	const cells = conversationCells(row, columns, now);
	cache.set(row, {columns, now, cells});
	return cells;
}

import {formatCost, formatPercent, formatRate} from '../format/numbers.js';
import {sanitizeLine} from '../format/sanitize.js';
import {formatAgeAt, type AgeNow} from '../format/time.js';
import {cellWidth, truncateToWidth} from '../format/width.js';
import {parseTime} from '../state/attention.js';
import type {TreeNode} from '../state/conversation-tree.js';
import type {AttentionReason, ConversationRow} from '../state/dashboard-types.js';
import {attentionShort, attentionVariants} from './attention-text.js';
import {goalShort} from '../format/goal.js';
import {cellLeft, cellRight} from './cells.js';
import {sandboxStatusStyle} from '../format/status-style.js';
import {agentStatusLook} from './status-look.js';
import {contextFraction, usageColor} from './triage/usage-look.js';

/**
 * Column widths of the conversations list and the precomputed strings of one row. Rows are built
 * once per (row object, widths, clock tick) and cached, because a redraw of 30 rows should cost
 * string look-ups, not sanitizing and measuring.
 */

export type ConversationColumns = {
	width: number;
	marker: number;
	/** The agent's status (`▸ running`, `✗ was error`). */
	status: number;
	/** The sandbox's status (`● running`, `□ paused`): another thing, another column. */
	sandbox: number;
	title: number;
	repo: number;
	age: number;
	activity: number;
	cost: number;
	/** Context use (`73%`), on wide terminals only; the preview shows it otherwise. */
	context: number;
	/** USD per hour (`4.20`), from 86 columns (at 80 the title keeps its 30 cells; the preview says it). */
	rate: number;
	unseen: number;
	/** The all-servers view's SERVER column (the profile a row came from); 0 otherwise. */
	server: number;
};

/**
 * `server`: the widest profile name of the all-servers view (0: one server, no column). The column
 * takes at most 12 cells, and two more for a stale server's `! ` mark.
 */
export function conversationColumns(width: number, server = 0): ConversationColumns {
	const marker = 2;
	const serverColumn = server > 0 ? Math.min(14, Math.max(6, server + 2)) : 0;
	const status = 13;
	const sandbox = width >= 72 ? 10 : 2;
	const age = 4;
	const activity = 4;
	const cost = width >= 56 ? 6 : 0;
	const unseen = width >= 48 ? 4 : 0;
	const context = width >= 100 ? 4 : 0;
	const rate = width >= 86 ? 5 : 0;
	// The repository goes first when space runs short (the preview shows it): at 80 columns the
	// title keeps ~30 cells, enough to tell rows apart.
	const repo = width >= 110 ? Math.min(28, Math.max(12, Math.floor(width * 0.2))) : 0;
	const gaps = [serverColumn, status, sandbox, repo, age, activity, cost, context, rate, unseen].filter((value) => value > 0).length;
	const title = Math.max(4, width - marker - serverColumn - status - sandbox - repo - age - activity - cost - context - rate - unseen - gaps);
	return {width, marker, status, sandbox, title, repo, age, activity, cost, context, rate, unseen, server: serverColumn};
}

export type ConversationCells = {
	key: string;
	/** The SERVER column, padded (empty without it): `! lab` while that server does not answer. */
	server?: string;
	serverColor?: string | undefined;
	/** Its server does not answer: the row is its last known state, drawn dim. */
	stale?: boolean;
	status: string;
	statusColor: string | undefined;
	/** The sandbox column, padded. */
	sandbox: string;
	sandboxColor: string | undefined;
	/** `stuck 4m · ` before the title for rows that need a person; empty otherwise. */
	reason: string;
	reasonColor: string | undefined;
	title: string;
	/** Shown only as the parent of a sub-agent that matches the filter: drawn dim. */
	context?: boolean;
	/** Right of the title, already padded: ` repo  age last`. */
	rest: string;
	/** ` cost  ctx  $/h`, coloured when over a warning threshold. */
	usage: string;
	usageColor: string | undefined;
	/** ` new`. */
	tail: string;
};

export function columnHeader(columns: ConversationColumns): string {
	const parts = [' '.repeat(columns.marker)];
	if (columns.server) parts.push(cellLeft('SERVER', columns.server), ' ');
	parts.push(
		cellLeft('AGENT', columns.status),
		' ',
		cellLeft(columns.sandbox >= 7 ? 'SANDBOX' : 'SB', columns.sandbox),
		' ',
		cellLeft('TITLE', columns.title),
	);
	if (columns.repo) parts.push(' ', cellLeft('REPOSITORY', columns.repo));
	parts.push(' ', cellRight('AGE', columns.age), ' ', cellRight('LAST', columns.activity));
	if (columns.cost) parts.push(' ', cellRight('COST', columns.cost));
	if (columns.context) parts.push(' ', cellRight('CTX', columns.context));
	if (columns.rate) parts.push(' ', cellRight('$/H', columns.rate));
	if (columns.unseen) parts.push(' ', cellRight('NEW', columns.unseen));
	return parts.join('');
}

const reasonColors: Record<string, string> = {
	waiting_for_confirmation: 'yellow',
	error: 'red',
	stuck: 'red',
	sandbox_error: 'red',
	quiet: 'yellow',
	spending: 'red',
	repeating: 'magenta',
};



/** Cells the title keeps however long the attention badge: the badge shortens first. */
const titleKeeps = 16;

/**
 * The attention badge, shortened to fit `room`: `! error 4m ·`, then `! error ·`, then `!`. A
 * reason in the runtime's words (`ImagePullBackOff`) is cut rather than dropped while ten cells of
 * it fit: it says more than the word the columns beside it already show.
 */
function reasonBadge(forms: readonly string[], room: number, cuttable = false): string {
	const [whole, ...shorter] = forms.map((form) => `! ${form} · `);
	if (whole && cellWidth(whole) <= room) return whole;
	if (cuttable && room >= 15) return `! ${truncateToWidth(forms[0] ?? '', room - 5)} · `;
	for (const candidate of [...shorter, '! ']) if (cellWidth(candidate) <= room) return candidate;
	return '';
}

/** A reason's badge texts, longest first: with its time, without, and for a raised parent `↓approve?`. */
/**
 * Now for a row's ages: the view's (the one server's data clock), or in the all-servers view its own
 * server's; `unknown` while that clock is not known (ages read `?`).
 */
export function rowNow(row: Pick<ConversationRow, 'server'>, viewNow: AgeNow): AgeNow {
	if (viewNow === 'unknown' || row.server?.agesUnverified) return 'unknown';
	return row.server ? viewNow + row.server.clockOffsetMs : viewNow;
}

function badgeForms(reason: AttentionReason, now: AgeNow): string[] {
	// An error's forms say its cause while there is room (`error 4m · rate limit · retryable`), then the cause alone.
	const forms = attentionVariants(reason, now);
	if (reason.kind === 'sub_agent') forms.push(`↓${attentionShort(reason.reason, null)}`);
	return forms.map((form) => sanitizeLine(form));
}

/**
 * Where a row sits among sub-agents, before its title: a child is indented under its parent
 * (`├ `, `└ `), a parent shows whether its sub-agents are shown (`▾`) or folded (`▸`) and how many
 * (`▾ 3 sub-agents · `, shortened to `▾3 ` when the title needs the room), and a sub-agent whose
 * parent is not listed says so (`↳ `).
 */
export function treePrefix(node: TreeNode | undefined, titleWidth: number): string {
	if (!node) return '';
	const indent = node.depth > 0 ? `${'  '.repeat(Math.min(node.depth, 4) - 1)}${node.last ? '└ ' : '├ '}` : node.orphanOf ? '↳ ' : '';
	if (node.children === 0) return indent;
	const fold = node.collapsed ? '▸' : '▾';
	const long = `${fold} ${node.children} sub-agent${node.children === 1 ? '' : 's'} · `;
	for (const candidate of [long, `${fold}${node.children} `]) if (cellWidth(indent + candidate) + titleKeeps <= titleWidth) return indent + candidate;
	return `${indent}${fold} `;
}

/** What the title cell starts with: the tree's marks, then the title (sanitized). */
function titleText(row: ConversationRow, prefix: string): string {
	return prefix + (row.conversation.title ? sanitizeLine(row.conversation.title) : `(untitled ${row.key.slice(0, 6)})`);
}

export function conversationCells(row: ConversationRow, columns: ConversationColumns, viewNow: AgeNow, node?: TreeNode): ConversationCells {
	const conversation = row.conversation;
	// In the all-servers view each row's ages are told by its own server's clock, when it knows it.
	const now = rowNow(row, viewNow);
	const stale = row.server?.stale ?? false;
	const server = columns.server && row.server ? cellLeft(`${stale ? '! ' : ''}${sanitizeLine(row.server.name)}`, columns.server) + ' ' : columns.server ? ' '.repeat(columns.server + 1) : '';
	const agent = agentStatusLook(row);
	const sandboxLook = sandboxStatusStyle(conversation.sandbox_status);
	const firstReason = row.attention[0];
	// The badge before the tree's words: why it needs you matters more than how many sub-agents.
	const compact = treePrefix(node, 0);
	let reason = '';
	if (firstReason) {
		// The title keeps enough to tell rows apart; the badge takes what is left, up to half.
		const inner = firstReason.kind === 'sub_agent' ? firstReason.reason : firstReason;
		const cuttable = inner.kind === 'sandbox_error' && Boolean(inner.detail);
		const share = cuttable ? 0.6 : 0.5;
		// A reason in the runtime's words is worth a few cells of title more.
		const kept = Math.min(cuttable ? titleKeeps - 4 : titleKeeps, cellWidth(titleText(row, compact)));
		const room = Math.min(Math.floor(columns.title * share), Math.max(0, columns.title - kept));
		reason = reasonBadge(badgeForms(firstReason, now), room, cuttable);
	}
	if (row.snoozed) {
		// Snoozed (state/snoozes.ts): `z` where `!` would be, readable without colour.
		const room = Math.min(Math.floor(columns.title / 2), Math.max(0, columns.title - Math.min(titleKeeps, cellWidth(titleText(row, compact)))));
		reason = reason ? `z ${reason.slice(2)}` : reasonBadge(['snoozed'], room).replace(/^! /, 'z ');
	} else if (!firstReason && row.goal && (row.goal.active || row.goal.status !== 'running')) {
		// Nothing needs you: its goal loop's progress is what there is to say (`goal 3/10 ·`).
		const room = Math.min(Math.floor(columns.title / 2), Math.max(0, columns.title - Math.min(titleKeeps, cellWidth(titleText(row, compact)))));
		reason = reasonBadge([sanitizeLine(goalShort(row.goal))], room).replace(/^! /, '');
	}
	const titleWidth = Math.max(0, columns.title - cellWidth(reason));
	const rawTitle = titleText(row, treePrefix(node, titleWidth));
	const parts = [''];
	if (columns.repo) parts.push(' ', cellLeft(conversation.selected_repository ? sanitizeLine(conversation.selected_repository) : '—', columns.repo));
	parts.push(' ', cellRight(formatAgeAt(now, parseTime(conversation.created_at)), columns.age));
	parts.push(' ', cellRight(formatAgeAt(now, row.lastActivityAt), columns.activity));
	const cost = conversation.metrics?.accumulated_cost;
	const usage: string[] = [];
	if (columns.cost) usage.push(' ', cellRight(typeof cost === 'number' ? formatCost(cost) : '—', columns.cost));
	if (columns.context) usage.push(' ', cellRight(formatPercent(contextFraction(conversation)), columns.context));
	if (columns.rate) usage.push(' ', cellRight(formatRate(row.costPerHour), columns.rate));
	const tail = columns.unseen ? ` ${cellRight(row.unseenEvents > 0 ? `+${row.unseenEvents}` : '', columns.unseen)}` : '';
	return {
		key: row.key,
		server,
		serverColor: stale ? 'yellow' : 'cyan',
		stale,
		status: cellLeft(agent.text, columns.status) + ' ',
		statusColor: agent.color,
		sandbox: cellLeft(columns.sandbox >= 7 ? sandboxLook.label : sandboxLook.symbol, columns.sandbox) + ' ',
		sandboxColor: sandboxLook.color,
		reason,
		reasonColor: row.snoozed ? 'gray' : firstReason ? reasonColors[firstReason.kind === 'sub_agent' ? firstReason.reason.kind : firstReason.kind] : reason ? 'cyan' : undefined,
		title: cellLeft(rawTitle, titleWidth),
		context: node?.context ?? false,
		rest: parts.join(''),
		usage: usage.join(''),
		usageColor: usageColor(conversation),
		tail,
	};
}

const cache = new WeakMap<ConversationRow, {columns: ConversationColumns; now: AgeNow; node: string; cells: ConversationCells}>();

/** `conversationCells`, cached on the (immutable) row object and where it sits in the tree. */
export function cachedConversationCells(row: ConversationRow, columns: ConversationColumns, now: AgeNow, node?: TreeNode): ConversationCells {
	const hit = cache.get(row);
	const place = node ? `${node.depth} ${node.children} ${node.collapsed} ${node.last} ${node.context} ${node.orphanOf ?? ''}` : '';
	if (hit && hit.columns === columns && hit.now === now && hit.node === place) return hit.cells;
	const cells = conversationCells(row, columns, now, node);
	cache.set(row, {columns, now, node: place, cells});
	return cells;
}

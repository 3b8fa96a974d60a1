import {sanitizeLine} from '../format/sanitize.js';
import {formatAgeAt, type AgeNow} from '../format/time.js';
import {cellWidth} from '../format/width.js';
import {parseTime} from '../state/attention.js';
import type {ConversationRow, DashboardSnapshot, SandboxRow} from '../state/dashboard-types.js';
import {cellLeft, cellRight} from './cells.js';
import {sandboxStatus} from './status-look.js';

/** Column widths and precomputed strings of the sandboxes list (see conversation-cells.ts). */

export type SandboxColumns = {
	width: number;
	marker: number;
	/** The all-servers view's SERVER column (0: one server). */
	server: number;
	status: number;
	id: number;
	spec: number;
	age: number;
	uses: number;
};

/** `server`: the widest profile name of the all-servers view (0: one server, no column). */
export function sandboxColumns(width: number, serverName = 0): SandboxColumns {
	const marker = 2;
	const server = serverName > 0 ? Math.min(14, Math.max(6, serverName + 2)) + 1 : 0;
	const status = 12;
	const id = width >= 70 ? 14 : 10;
	const spec = width >= 90 ? 22 : width >= 60 ? 12 : 0;
	const age = 4;
	const gaps = spec ? 4 : 3;
	const uses = Math.max(0, width - marker - server - status - id - spec - age - gaps);
	return {width, marker, server, status, id, spec, age, uses};
}

export function sandboxHeader(columns: SandboxColumns): string {
	return [
		' '.repeat(columns.marker),
		columns.server ? cellLeft('SERVER', columns.server) : '',
		cellLeft('STATUS', columns.status),
		' ',
		cellLeft('SANDBOX', columns.id),
		columns.spec ? ` ${cellLeft('SPEC', columns.spec)}` : '',
		' ',
		cellRight('AGE', columns.age),
		' ',
		cellLeft('USED BY', columns.uses),
	].join('');
}

export type SandboxCells = {
	/** The SERVER column, padded (empty without it): `! lab` while that server does not answer. */
	server?: string;
	serverColor?: string | undefined;
	status: string;
	statusColor: string | undefined;
	middle: string;
	/** A refusal, the cap marker or the sandbox's reason (`ImagePullBackOff`), before the conversations. */
	flag: string;
	flagColor: string | undefined;
	uses: string;
};

export function usedBy(row: SandboxRow, conversations: ReadonlyMap<string, ConversationRow>): string {
	const count = row.conversationKeys.length;
	if (count === 0) return 'no conversation';
	const titles = row.conversationKeys.map((key) => {
		const title = conversations.get(key)?.conversation.title;
		return title ? sanitizeLine(title) : key.slice(0, 8);
	});
	return `${count === 1 ? '' : `${count}: `}${titles.join(', ')}`;
}

export function sandboxCells(
	row: SandboxRow,
	columns: SandboxColumns,
	conversations: DashboardSnapshot['conversations'],
	viewNow: AgeNow,
): SandboxCells {
	// In the all-servers view the sandbox's age is told by its own server's clock, when it knows it.
	const now: AgeNow = viewNow === 'unknown' || row.server?.agesUnverified ? 'unknown' : row.server ? viewNow + row.server.clockOffsetMs : viewNow;
	const look = sandboxStatus(row.sandbox);
	const pending = row.pending;
	// While an action is in flight its progress is the status; a failed one keeps the real status.
	const inFlight = pending && !pending.error;
	const status = inFlight ? `… ${pending.kind}…` : `${look.symbol} ${look.word}`;
	let flag = '';
	let flagColor: string | undefined;
	if (pending?.error) {
		flag = `✗ ${pending.kind === 'pausing' ? 'pause' : 'resume'} refused: ${sanitizeLine(pending.error)} · `;
		flagColor = 'red';
	} else if (row.pausedByCap) {
		flag = '[paused by cap] ';
		flagColor = 'yellow';
	} else if (row.sandbox.status_detail?.trim()) {
		// Why it is ERROR or still STARTING, in the runtime's words: what a person acts on.
		flag = `${sanitizeLine(row.sandbox.status_detail)} · `;
		flagColor = look.color === 'green' ? 'yellow' : look.color;
	}
	const created = parseTime(row.sandbox.created_at);
	const middle = [
		cellLeft(sanitizeLine(String(row.sandbox.id)), columns.id),
		columns.spec ? ` ${cellLeft(row.sandbox.sandbox_spec_id ? sanitizeLine(row.sandbox.sandbox_spec_id) : '—', columns.spec)}` : '',
		' ',
		cellRight(formatAgeAt(now, created), columns.age),
		' ',
	].join('');
	// A reason gets most of the room (it says what to do); the users keep a little.
	const share = flagColor !== undefined && !pending?.error && !row.pausedByCap ? 0.85 : 0.7;
	const flagCut = cellLeft(flag, Math.min(columns.uses, Math.max(0, Math.ceil(columns.uses * share)))).trimEnd();
	const flagText = flagCut ? `${flagCut} ` : '';
	return {
		...(columns.server ? {server: cellLeft(row.server ? `${row.server.stale ? '! ' : ''}${sanitizeLine(row.server.name)}` : '', columns.server - 1) + ' ', serverColor: row.server?.stale ? 'yellow' : 'cyan'} : {}),
		status: `${cellLeft(status, columns.status)} `,
		statusColor: inFlight ? 'yellow' : look.color,
		middle,
		flag: flagText,
		flagColor,
		uses: cellLeft(usedBy(row, conversations), Math.max(0, columns.uses - cellWidth(flagText))),
	};
}

/**
 * Sandboxes newest first, then by id. Not by status: a row must not jump away from under the
 * cursor the moment it is paused.
 */
const keysMemo = new WeakMap<DashboardSnapshot['sandboxes'], readonly string[]>();

export function selectSandboxKeys(sandboxes: DashboardSnapshot['sandboxes']): readonly string[] {
	const cached = keysMemo.get(sandboxes);
	if (cached) return cached;
	const rows = [...sandboxes.values()];
	rows.sort((a, b) => {
		const time = (parseTime(b.sandbox.created_at) ?? 0) - (parseTime(a.sandbox.created_at) ?? 0);
		if (time !== 0) return time;
		return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
	});
	const keys = rows.map((row) => row.key);
	keysMemo.set(sandboxes, keys);
	return keys;
}

const cellsCache = new WeakMap<SandboxRow, {columns: SandboxColumns; now: AgeNow; conversations: DashboardSnapshot['conversations']; cells: SandboxCells}>();

/** `sandboxCells`, cached on the (immutable) row object, so memoised rows skip unchanged sandboxes. */
export function cachedSandboxCells(
	row: SandboxRow,
	columns: SandboxColumns,
	conversations: DashboardSnapshot['conversations'],
	now: AgeNow,
): SandboxCells {
	const hit = cellsCache.get(row);
	if (hit && hit.columns === columns && hit.now === now && hit.conversations === conversations) return hit.cells;
	const cells = sandboxCells(row, columns, conversations, now);
	cellsCache.set(row, {columns, now, conversations, cells});
	return cells;
}

import {causeOf} from './causes.js';
import type {ConversationRow, SnoozeMark} from './dashboard-types.js';

export type {SnoozeMark};

/**
 * Snoozes: a person's "not now" on a conversation. A snoozed row leaves the queue (`!`), `n`/`N`,
 * the header's count and the alerts, and keeps a mark in the list. Two kinds:
 * - until it changes: taken on the row's signature (its `updated_at`, agent status, sandbox status
 *   and the kind of its cause, all as the server said them); the first row whose signature differs
 *   ends the snooze (a new event moves `updated_at`);
 * - for a time: until a moment on this machine's clock (the person's own promise, not a server fact).
 * Pure: the book (which rows are snoozed) is plain data; state/snooze-book.ts keeps it and
 * state/snooze-store.ts writes it to disk.
 */

export type Snooze =
	/** Until `until` (ms since epoch, this machine's clock). */
	| {until: number; at: number}
	/** Until the row's signature is no longer `signature`. */
	| {until: 'change'; signature: string; at: number};

/** The parts of a row that a change of ends an until-change snooze. */
export type SignatureParts = {updatedAt: string | null; executionStatus: string | null; sandboxStatus: string | null; cause: string | null};

/**
 * The signature of a row: a new event (updated_at), a new agent or sandbox status, or a new kind
 * of cause changes it. The cause counts by its kind (`error`, `sandbox`, `approval`…), not its
 * refined key: an error's classification is read after the row arrives, and that read is not a change.
 */
export function signature(parts: SignatureParts): string {
	const word = (value: string | null) => (value ?? '').trim().toLowerCase();
	return [parts.updatedAt ?? '', word(parts.executionStatus), word(parts.sandboxStatus), word(parts.cause?.split(':')[0] ?? null)].join('|');
}

export function rowSignature(row: ConversationRow): string {
	const conversation = row.conversation;
	return signature({
		updatedAt: conversation.updated_at ?? null,
		executionStatus: conversation.execution_status == null ? null : String(conversation.execution_status),
		sandboxStatus: conversation.sandbox_status == null ? null : String(conversation.sandbox_status),
		cause: causeOf(row)?.key ?? null,
	});
}

export type SnoozeVerdict = 'snoozed' | 'expired' | 'changed';

/** Whether `snooze` still holds for `row` at `now`. */
export function judgeSnooze(snooze: Snooze, row: ConversationRow, now: number): SnoozeVerdict {
	if (snooze.until === 'change') return rowSignature(row) === snooze.signature ? 'snoozed' : 'changed';
	return now < snooze.until ? 'snoozed' : 'expired';
}

/** `snoozed_until` of the headless JSON: an ISO time, `"change"`, or null. */
export function snoozedUntilJson(snooze: Snooze | undefined | null): string | null {
	if (!snooze) return null;
	return snooze.until === 'change' ? 'change' : new Date(snooze.until).toISOString();
}

/** `2h`, `90m`, `1d`, `1w`: a duration in ms, or null when unreadable. */
export function parseSnoozeDuration(text: string): number | null {
	const match = /^\s*(\d+(?:\.\d+)?)\s*(m|min|h|d|w)\s*$/i.exec(text);
	if (!match) return null;
	const unit = {m: 60_000, min: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000}[match[2]!.toLowerCase() as 'm'];
	const ms = Number(match[1]) * unit;
	return ms > 0 && Number.isFinite(ms) ? Math.round(ms) : null;
}

/** What a snooze is, in words: `until it changes`, `until 14:05` / `until 2026-12-01 14:05`. */
export function snoozeText(mark: SnoozeMark, now: number): string {
	if (mark.until === 'change') return 'until it changes';
	const date = new Date(mark.until);
	const pad = (value: number) => String(value).padStart(2, '0');
	const time = `${pad(date.getHours())}:${pad(date.getMinutes())}`;
	return mark.until - now < 86_400_000 ? `until ${time}` : `until ${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${time}`;
}

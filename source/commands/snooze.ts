import {SnoozeBook} from '../state/snooze-book.js';
import {snoozeFilePath} from '../state/snooze-store.js';
import {parseSnoozeDuration, signature, snoozedUntilJson, snoozeText, type Snooze} from '../state/snoozes.js';
import type {AgeNow} from '../format/time.js';
import {normalizeId} from '../wire/ids.js';
import type {AppConversation} from '../wire/schemas/app.js';
import {conversationCause} from './conversation-cause.js';
import {findConversation} from './conversation-lookup.js';
import {UsageError} from './exit-codes.js';
import type {CommandFlags} from './flags.js';
import {printText, type Io} from './io.js';
import {listingClock} from './listing-clock.js';
import {clockOf, type Server} from './server.js';

/**
 * `agent-tui snooze <id> [--for 2h | --until-change]` and `agent-tui unsnooze <id>`: the
 * dashboard's `s` and `u` from a script, in the same per-server file (state/snooze-store.ts), so
 * a dashboard started afterwards leaves the conversation out of its queue. Until it changes is the
 * default; the signature it is taken on is the one the dashboard compares (state/snoozes.ts).
 * `conversations --json` says each row's `snoozed_until`.
 */

/** One book per server; the demo's simulator is new each run, its address with it: one book for every demo. */
export function snoozeBookOf(server: Pick<Server, 'baseUrl' | 'demo'>): SnoozeBook {
	return SnoozeBook.forServer(snoozeAddress(server));
}

function snoozeAddress(server: Pick<Server, 'baseUrl' | 'demo'>): string {
	return server.demo ? 'demo:' : server.baseUrl;
}

/** A listed conversation's signature, as the dashboard takes it from its row. */
export function listingSignature(conversation: AppConversation, now: AgeNow): string {
	return signature({
		updatedAt: conversation.updated_at ?? null,
		executionStatus: conversation.execution_status == null ? null : String(conversation.execution_status),
		sandboxStatus: conversation.sandbox_status == null ? null : String(conversation.sandbox_status),
		cause: conversationCause(conversation, now)?.key ?? null,
	});
}

/** `snoozed_until` of a listed row: the snooze while it holds (its time not up, the row as it was), else null. */
export function listedSnoozedUntil(book: SnoozeBook, conversation: AppConversation, now: AgeNow, clock = Date.now()): string | null {
	const snooze = book.get(normalizeId(conversation.id));
	if (!snooze) return null;
	if (snooze.until === 'change') return listingSignature(conversation, now) === snooze.signature ? 'change' : null;
	return clock < snooze.until ? snoozedUntilJson(snooze) : null;
}

export async function runSnooze(server: Server, io: Io, id: string, flags: CommandFlags): Promise<number> {
	if (flags.for !== undefined && flags.untilChange) throw new UsageError('snooze takes --for D or --until-change, not both');
	let duration: number | null = null;
	if (flags.for !== undefined) {
		duration = parseSnoozeDuration(flags.for);
		if (duration === null) throw new UsageError(`--for takes a duration (90m, 2h, 1d, 1w), not "${flags.for}"`);
	}
	const conversation = await findConversation(server, io, id);
	const key = normalizeId(conversation.id);
	const at = Date.now();
	const snooze: Snooze = duration === null ? {until: 'change', signature: listingSignature(conversation, listingClock(clockOf(server), [conversation]).now), at} : {until: at + duration, at};
	const book = snoozeBookOf(server);
	book.set(key, snooze);
	if (book.writeError !== null) throw new Error(`could not save the snooze in ${snoozeFilePath(snoozeAddress(server))}: ${book.writeError}`);
	printText(io, `snoozed ${key} ${snoozeText({until: snooze.until}, at)}${snooze.until === 'change' ? '' : ` (${new Date(snooze.until).toISOString()})`}`);
	return 0;
}

export async function runUnsnooze(server: Server, io: Io, id: string): Promise<number> {
	const conversation = await findConversation(server, io, id);
	const key = normalizeId(conversation.id);
	const book = snoozeBookOf(server);
	const dropped = book.drop(key);
	if (book.writeError !== null) throw new Error(`could not save the unsnooze: ${book.writeError}`);
	printText(io, dropped ? `unsnoozed ${key}` : `${key} was not snoozed`);
	return 0;
}

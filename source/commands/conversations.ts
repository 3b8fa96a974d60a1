import {parseTime} from '../state/attention.js';
import {readErrorCause} from '../state/error-causes.js';
import {ExitCode, UsageError} from './exit-codes.js';
import {type ErrorCause, type ErrorCauseJson, errorCauseJson} from '../wire/error-classification.js';
import {KeyRejectedError} from '../wire/errors.js';
import {normalizeId} from '../wire/ids.js';
import type {AppConversation} from '../wire/schemas/app.js';
import {conversationCause} from './conversation-cause.js';
import {listedSnoozedUntil, snoozeBookOf} from './snooze.js';
import {conversationTable} from './conversation-table.js';
import {repeatTails} from './repeat-tails.js';
import type {CommandFlags} from './flags.js';
import {note, printLine, printText, type Io} from './io.js';
import {toJson} from './json-output.js';
import {ageClockJson} from '../state/age-basis.js';
import {noUnreadable, readPages, reportUnreadable} from './unreadable-report.js';
import {listingClock, noteAgeBasis} from './listing-clock.js';
import {clockOf, type Server} from './server.js';
import {conversationMatchesStatus, parseStatusFilter, unknownStatusWarning} from './status-filter.js';

/**
 * `agent-tui conversations [--status S[,S...]] [--json]`: every conversation, all pages,
 * sub-conversations included (each names its parent in `parent_conversation_id`; the table puts
 * it under its parent). Pages are offsets that shift as conversations are created, so rows are
 * deduplicated by id (the first copy, the newest order, wins). A conversation whose sandbox is in
 * trouble (ERROR, STARTING, UNKNOWN, any status this client does not know) carries the sandbox's
 * reason, `sandbox_status_detail` (null for the others), read in one batched look-up.
 */
export async function runConversations(server: Server, io: Io, flags: CommandFlags): Promise<number> {
	const filter = parseStatusFilter(flags.status);
	const warning = unknownStatusWarning(filter);
	if (warning) note(io, warning);
	const unreadable = noUnreadable();
	const all = await readConversations(server, unreadable);
	const rows = all.filter((conversation) => !filter || conversationMatchesStatus(conversation, filter));
	const causes = await errorCauses(server, io, rows, parseCauseLimit(flags.causes));
	const repeats = await repeatTails(server, io, rows);
	// Judged on the whole listing, whatever the filter shows.
	const {now, basis} = listingClock(clockOf(server), all);
	// Said only when there is an age to tell.
	if (rows.length > 0) noteAgeBasis(io, basis);
	if (flags.json) {
		// Each row as the server sent it, plus the cause the dashboard's queue groups it by, why it failed if it did, and its snooze.
		const snoozes = snoozeBookOf(server);
		printLine(io, toJson(rows.map((conversation) => ({...conversation, cause: conversationCause(conversation, now, causes.get(normalizeId(conversation.id)), repeats.get(normalizeId(conversation.id))), error_cause: causeJsonOf(causes, conversation), snoozed_until: listedSnoozedUntil(snoozes, conversation, now), ...ageClockJson(basis)})), io.secrets));
	}
	else {
		for (const line of conversationTable(treeOrder(rows), now, io.stdout.isTTY ? io.stdout.columns : undefined, causes, repeats)) printText(io, line);
		if (rows.length === 0 && unreadable.count === 0) note(io, all.length === 0 ? 'no conversations' : `none of the ${all.length} conversations has that status`);
	}
	// Rows that could not be read are not "none": said, with what could be read of them, and exit 5 (a bad answer).
	if (unreadable.count > 0) {
		reportUnreadable(io, unreadable, 'conversation');
		return ExitCode.server;
	}
	return 0;
}

/**
 * Every conversation of the server, each once, with its sandbox's reason (`sandbox_status_detail`).
 * Rows that do not match the API are counted in `unreadable` (when given), with their id if any and why.
 */
export async function readConversations(server: Server, unreadable = noUnreadable()): Promise<AppConversation[]> {
	return withSandboxReasons(server, await readPages(server.app.searchConversationPages(), unreadable));
}

/** Sandbox statuses that have no reason to give: the rest (ERROR, STARTING, UNKNOWN, new words) may. */
const settled = new Set(['RUNNING', 'PAUSED', 'MISSING']);

/**
 * Each conversation with `sandbox_status_detail`: its sandbox's `status_detail` while that
 * sandbox's status is the one the conversation shows, else null. Only sandboxes in trouble are
 * looked up (100 ids a request); a failed look-up leaves the reasons null, the list still prints.
 */
async function withSandboxReasons(server: Server, rows: AppConversation[]): Promise<AppConversation[]> {
	const ids = [...new Set(rows.flatMap((row) => (row.sandbox_id && !settled.has(String(row.sandbox_status).toUpperCase()) ? [row.sandbox_id] : [])))];
	const reasons = new Map<string, {status: string; detail: string | null}>();
	if (ids.length > 0) {
		const found = await server.app.getSandboxes(ids).catch(() => []);
		for (const sandbox of found) if (sandbox) reasons.set(normalizeId(sandbox.id), {status: String(sandbox.status).toUpperCase(), detail: sandbox.status_detail ?? null});
	}
	return rows.map((row) => {
		const reason = row.sandbox_id ? reasons.get(normalizeId(row.sandbox_id)) : undefined;
		const detail = reason && reason.status === String(row.sandbox_status).toUpperCase() ? reason.detail : null;
		return {...row, sandbox_status_detail: detail};
	});
}

/** Parents first, each followed by its sub-conversations (newest first among siblings, as listed). */
export function treeOrder(rows: readonly AppConversation[]): AppConversation[] {
	const keys = new Set(rows.map((row) => normalizeId(row.id)));
	const children = new Map<string, AppConversation[]>();
	const tops: AppConversation[] = [];
	for (const row of rows) {
		const parent = row.parent_conversation_id ? normalizeId(row.parent_conversation_id) : null;
		if (parent && keys.has(parent) && parent !== normalizeId(row.id)) children.set(parent, [...(children.get(parent) ?? []), row]);
		else tops.push(row);
	}
	const out: AppConversation[] = [];
	const placed = new Set<string>();
	const visit = (row: AppConversation) => {
		const key = normalizeId(row.id);
		if (placed.has(key)) return;
		placed.add(key);
		out.push(row);
		for (const child of children.get(key) ?? []) visit(child);
	};
	for (const row of tops) visit(row);
	// Parent ids in a circle: listed rather than lost.
	for (const row of rows) visit(row);
	return out;
}

/** How many errored conversations `conversations` reads the cause of when `--causes` is not given. */
export const defaultCauseReads = 25;

/** `--causes N|all`: how many errored conversations to read the cause of, newest first. */
export function parseCauseLimit(text: string | undefined): number {
	if (text === undefined) return defaultCauseReads;
	if (text.trim().toLowerCase() === 'all') return Number.POSITIVE_INFINITY;
	const count = Number(text);
	if (!Number.isInteger(count) || count < 0) throw new UsageError(`--causes takes a count or all, not "${text}"`);
	return count;
}

/**
 * Why each errored conversation failed: its newest ConversationErrorEvent from the app server's
 * stored copy (one request each, under the server's budget; state/error-causes.ts). An account
 * keeps its old errors, and at the hosted service's 100 requests a minute reading every one
 * would make a listing take minutes: the `limit` most recently updated are read (`--causes`),
 * the rest keep an unread cause (`cause` says `error:unread`) and stderr says how many. A read
 * that fails leaves that row's cause unread too and says so once; the list is printed anyway.
 */
export async function errorCauses(server: Server, io: Io, rows: readonly AppConversation[], limit = defaultCauseReads): Promise<Map<string, ErrorCause | null>> {
	const causes = new Map<string, ErrorCause | null>();
	const errored = rows.filter((row) => String(row.execution_status ?? '').toLowerCase() === 'error');
	const newestFirst = errored
		.map((row) => ({row, at: parseTime(row.updated_at) ?? Number.NEGATIVE_INFINITY}))
		.sort((a, b) => b.at - a.at)
		.map(({row}) => row);
	const unread = Math.max(0, newestFirst.length - limit);
	if (unread > 0) note(io, `the cause of ${unread} older errored conversation${unread === 1 ? ' was' : 's were'} not read (--causes all reads every one, a request each)`);
	let failed = 0;
	for (const row of newestFirst.slice(0, limit)) {
		try {
			causes.set(normalizeId(row.id), await server.pace(`error-cause:${row.id}`)((signal) => readErrorCause(server.app.storedEvents, row.id, signal)));
		} catch (error) {
			if (error instanceof KeyRejectedError) throw error;
			failed++;
		}
	}
	if (failed > 0) note(io, `the cause of ${failed} errored conversation${failed === 1 ? '' : 's'} could not be read`);
	return causes;
}

/** The `error_cause` of a row in the JSON: the cause, or null (not in error, none, or not readable). */
export function causeJsonOf(causes: ReadonlyMap<string, ErrorCause | null>, row: AppConversation): ErrorCauseJson | null {
	const cause = causes.get(normalizeId(row.id));
	return cause ? errorCauseJson(cause) : null;
}

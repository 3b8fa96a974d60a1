import type {AppConversation, Sandbox} from '../wire/schemas/app.js';
import {ageOf} from './conversation-table.js';
import {missing} from '../format/numbers.js';
import {sandboxStatusStyle} from '../format/status-style.js';
import type {CommandFlags} from './flags.js';
import {addSecret, printLine, printText, type Io} from './io.js';
import {toJson} from './json-output.js';
import {listingClock, noteAgeBasis} from './listing-clock.js';
import {noUnreadable, readPages, reportUnreadable} from './unreadable-report.js';
import {ExitCode} from './exit-codes.js';
import {clockOf, type Server} from './server.js';
import {renderTable} from './table.js';

/** `agent-tui sandboxes [--json]`: every sandbox, with its status and why (`status_detail`), spec and age. */
export async function runSandboxes(server: Server, io: Io, flags: CommandFlags): Promise<number> {
	const unreadable = noUnreadable();
	const sandboxes = await readPages(server.app.searchSandboxPages(), unreadable);
	// Rows that could not be read are not "none": said after the list, and exit 5.
	const done = () => (unreadable.count > 0 ? (reportUnreadable(io, unreadable, 'sandbox'), ExitCode.server) : ExitCode.ok);
	// Exposed URLs carry the session key (VS Code's `?tkn=`): scrub each one wherever it appears.
	for (const sandbox of sandboxes) addSecret(io, sandbox.session_api_key);
	if (flags.json) {
		printLine(io, toJson(sandboxes, io.secrets));
		return done();
	}
	// Ages as `conversations` tells them (listing-clock.ts): the Date header judged by the newest
	// conversations (one page), never our own clock.
	const {now, basis} = listingClock(clockOf(server), sandboxes.length > 0 ? await newestConversations(server) : []);
	if (sandboxes.length > 0) noteAgeBasis(io, basis);
	const lines = renderTable<Sandbox>(
		sandboxes,
		[
			{header: 'ID', value: (row) => row.id, max: 36},
			{header: 'STATUS', value: (row) => sandboxStatusStyle(row.status).label},
			// Why it is ERROR or still STARTING, in the runtime's words (`status_detail`).
			{header: 'REASON', value: (row) => row.status_detail?.trim() || missing, max: 48},
			{header: 'SPEC', value: (row) => row.sandbox_spec_id ?? missing, max: 60, flexible: true},
			{header: 'AGE', value: (row) => ageOf(row.created_at, now), align: 'right'},
		],
		io.stdout.isTTY ? io.stdout.columns : undefined,
	);
	for (const line of lines) printText(io, line);
	return done();
}

/**
 * The first page of conversations (newest first): what tells whether the Date header is the data's
 * clock. When it cannot be read, nothing contradicts the header: the ages are then assumed (said).
 */
async function newestConversations(server: Server): Promise<AppConversation[]> {
	try {
		for await (const page of server.app.searchConversationPages()) return [...page.items];
	} catch {
		// The sandboxes were listed; their ages fall back on the header, marked as assumed.
	}
	return [];
}

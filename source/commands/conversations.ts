import {normalizeId} from '../wire/ids.js';
import type {AppConversation} from '../wire/schemas/app.js';
import {conversationCause} from './conversation-cause.js';
import {conversationTable} from './conversation-table.js';
import type {CommandFlags} from './flags.js';
import {note, printLine, printText, type Io} from './io.js';
import {toJson} from './json-output.js';
import {clockOf, type Server} from './server.js';
import {conversationMatchesStatus, parseStatusFilter, unknownStatusWarning} from './status-filter.js';

/**
 * `agent-tui conversations [--status S[,S...]] [--json]`: every conversation, all pages. Pages
 * are offsets that shift as conversations are created, so rows are deduplicated by id (the first
 * copy, the newest order, wins).
 */
export async function runConversations(server: Server, io: Io, flags: CommandFlags): Promise<number> {
	const filter = parseStatusFilter(flags.status);
	const warning = unknownStatusWarning(filter);
	if (warning) note(io, warning);
	const all = await readConversations(server);
	const rows = all.filter((conversation) => !filter || conversationMatchesStatus(conversation, filter));
	if (flags.json) {
		// Each row as the server sent it, plus the cause the dashboard's queue groups it by.
		const now = clockOf(server).now();
		printLine(io, toJson(rows.map((conversation) => ({...conversation, cause: conversationCause(conversation, now)})), io.secrets));
	}
	else {
		for (const line of conversationTable(rows, clockOf(server).now(), io.stdout.isTTY ? io.stdout.columns : undefined)) printText(io, line);
		if (rows.length === 0) note(io, all.length === 0 ? 'no conversations' : `none of the ${all.length} conversations has that status`);
	}
	return 0;
}

/** Every conversation of the server, each once. */
export async function readConversations(server: Server): Promise<AppConversation[]> {
	const byId = new Map<string, AppConversation>();
	for await (const conversation of server.app.searchConversations()) {
		const key = normalizeId(conversation.id);
		if (!byId.has(key)) byId.set(key, conversation);
	}
	return [...byId.values()];
}

import {eventSources} from '../wire/schemas/event-schemas.js';
import type {WireEvent} from '../wire/schemas/events.js';
import {historySource} from '../state/stored-history.js';
import {agentFor, findConversation} from './conversation-lookup.js';
import {eventLine} from './event-line.js';
import {eventMatches, type EventFilter} from '../state/server-event-filter.js';
import {UsageError} from './exit-codes.js';
import type {CommandFlags} from './flags.js';
import {followDeadline} from './deadline.js';
import {followConversation} from './follow.js';
import {historyProgress} from './history-progress.js';
import {printLine, printText, type Io} from './io.js';
import {toJson} from './json-output.js';
import type {Server} from './server.js';
import {readStoredEvents} from './stored-history-read.js';
import {invalidSummary, warnInvalidItems} from './invalid-warnings.js';
import type {InvalidItem} from '../wire/schemas/common.js';

/**
 * `agent-tui events <conversation-id> [--kind K] [--source S] [--body T] [--desc] [--follow] [--json]`.
 * Without --follow: every matching event across all pages, then exit (--json: one array).
 * With --follow: history, then live events as they come (--json: one object per line), until
 * the conversation ends (follow.ts).
 * The history comes from the conversation's agent server while its sandbox is RUNNING, else from
 * the app server's stored copy (state/stored-history.ts): every conversation is readable, and
 * nothing is resumed to read it.
 */
export async function runEvents(server: Server, io: Io, id: string, flags: CommandFlags): Promise<number> {
	const filter = eventFilterFrom(flags);
	if (flags.desc && flags.follow) throw new UsageError('--desc cannot be combined with --follow (a followed timeline grows at the end)');
	const conversation = await findConversation(server, io, id);
	const print = (event: WireEvent) => (flags.json ? printLine(io, toJson(event, io.secrets)) : printText(io, eventLine(event, io.stdout.isTTY ? io.stdout.columns : undefined)));

	if (flags.follow) {
		const end = await followConversation({server, io, conversation, filter, onEvent: print, deadlineMs: followDeadline(flags)});
		return end.exitCode;
	}

	if (historySource(conversation) === 'stored') {
		// No agent server to ask (PAUSED, MISSING, ERROR, STARTING): the app server's copy. Nothing is resumed.
		const events = await readStoredEvents(server, io, conversation, filter, flags.desc ? 'TIMESTAMP_DESC' : 'TIMESTAMP');
		invalidSummary(io);
		if (flags.json) printLine(io, toJson(events, io.secrets));
		else for (const event of events) print(event);
		return 0;
	}

	const agent = agentFor(server, conversation);
	const events: WireEvent[] = [];
	// Text lines go out as they are read: a progress line between them would be torn on a terminal.
	const progress = historyProgress(io, 'reading events');
	const read = {pages: 0, events: 0};
	const onPage = flags.json || !io.stdout.isTTY ? (count: number) => progress.onPage({pages: ++read.pages, events: (read.events += count)}) : undefined;
	try {
		const onInvalid = (items: InvalidItem[]) => warnInvalidItems(io, items, 'an event does not match the API');
		for await (const event of agent.allEvents({...filter, sortOrder: flags.desc ? 'TIMESTAMP_DESC' : 'TIMESTAMP', onInvalid, ...(onPage ? {onPage} : {})})) {
			if (!eventMatches(event, filter)) continue;
			if (flags.json) events.push(event);
			else print(event);
		}
	} finally {
		progress.done();
		invalidSummary(io);
	}
	if (flags.json) printLine(io, toJson(events, io.secrets));
	return 0;
}

function eventFilterFrom(flags: CommandFlags): EventFilter {
	if (flags.source !== undefined && !(eventSources as readonly string[]).includes(flags.source)) {
		throw new UsageError(`--source must be one of ${eventSources.join(', ')}`);
	}
	for (const [flag, value] of [['--kind', flags.kind], ['--body', flags.body]] as const) {
		if (value !== undefined && value.trim() === '') throw new UsageError(`${flag} needs a value`);
	}
	return {kind: flags.kind?.trim(), source: flags.source, body: flags.body};
}

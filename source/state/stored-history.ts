import {hasAgentServer} from '../wire/agent-base-url.js';
import {walkEventPages} from '../wire/paging.js';
import type {AppConversation} from '../wire/schemas/app.js';
import type {InvalidItem} from '../wire/schemas/common.js';
import {settleEvent, type LoggedEvent, type WireEvent} from '../wire/schemas/events.js';
import type {StoredEventClient, StoredEventPage, StoredEventSearchParams} from '../wire/stored-events.js';
import {EventLog} from './event-log.js';
import {eventMatches, type EventFilter} from './server-event-filter.js';

/**
 * A conversation's history from the app server's stored copy (wire/stored-events.ts), for every
 * conversation whose sandbox is not RUNNING: the filters the agent server has and this search
 * lacks (`source`, `body`) applied here with the same meaning (server-event-filter.ts), each page
 * request paced by the caller's request budget, events de-duplicated by id, and a paging that
 * repeats or never ends stopped with a clear message (paging.ts `walkEventPages`).
 *
 * While the sandbox is RUNNING its agent server stays the source (`historySource`): it is the live
 * one. Both give the same event ids, so one EventLog can hold events from either.
 */

export type HistorySource = 'agent-server' | 'stored';

/** Where a conversation's history is read from: its agent server while it runs, else the stored copy. */
export function historySource(conversation: Pick<AppConversation, 'sandbox_status' | 'conversation_url'>): HistorySource {
	return hasAgentServer(conversation) ? 'agent-server' : 'stored';
}

/**
 * Runs one request when the budget allows (RequestBudget.schedule bound to a key and priority).
 * The task gets the budget's signal, which aborts when the budget closes.
 */
export type Pace = <T>(task: (signal: AbortSignal) => Promise<T>) => Promise<T>;

export type StoredHistoryOptions = {
	client: Pick<StoredEventClient, 'searchPage' | 'searchPageLater'>;
	conversationId: string;
	filter?: EventFilter;
	sortOrder?: 'TIMESTAMP' | 'TIMESTAMP_DESC';
	timestampGte?: string;
	timestampLt?: string;
	/** 1..100, default 100. */
	limit?: number;
	/** Each page request goes through this (the app server's budget); without it, requests go at once. */
	pace?: Pace;
	signal?: AbortSignal;
	/** After each page: pages and events (received, before filtering) so far. */
	onPage?: (progress: StoredHistoryProgress) => void;
	/** Items of a page that failed validation (they are still kept, as UnknownEvent). */
	onInvalid?: (items: InvalidItem[]) => void;
};

export type StoredHistoryProgress = {pages: number; events: number};

/** One page as read: `events` those that pass the filter, `received` how many the page held. */
export type StoredHistoryPage<E = WireEvent> = {events: E[]; received: number; nextPageId: string | null};

const unpaced: Pace = (task) => task(new AbortController().signal);

function searchParams(options: StoredHistoryOptions, pageId: string | undefined, signal: AbortSignal): StoredEventSearchParams {
	return {
		...(options.filter?.kind ? {kind: options.filter.kind} : {}),
		...(options.sortOrder ? {sortOrder: options.sortOrder} : {}),
		...(options.timestampGte ? {timestampGte: options.timestampGte} : {}),
		...(options.timestampLt ? {timestampLt: options.timestampLt} : {}),
		...(options.limit === undefined ? {} : {limit: options.limit}),
		...(pageId === undefined ? {} : {pageId}),
		signal,
	};
}

function callSignal(options: StoredHistoryOptions, budgetSignal: AbortSignal): AbortSignal {
	return options.signal ? AbortSignal.any([options.signal, budgetSignal]) : budgetSignal;
}

/**
 * One page of the stored copy (the newest first with `sortOrder: 'TIMESTAMP_DESC'`), one request
 * under the budget. For a view that loads pages as the user scrolls: pass the previous page's
 * `nextPageId` on. Payloads are validated on first use (`settleEvent`), so a long history is
 * cheap to hold; the filter settles only the events it has to look into.
 */
export async function readStoredPage(options: StoredHistoryOptions & {pageId?: string}): Promise<StoredHistoryPage<LoggedEvent>> {
	const pace = options.pace ?? unpaced;
	const page = await pace((budgetSignal) => options.client.searchPageLater(options.conversationId, searchParams(options, options.pageId, callSignal(options, budgetSignal))));
	const filter = options.filter;
	const events = filter && (filter.kind || filter.source || filter.body) ? page.events.filter((event) => eventMatches(settleEvent(event), filter)) : page.events;
	return {events, received: page.events.length, nextPageId: page.nextPageId};
}

/**
 * Every page of the stored copy in the order asked for, each event once (page ids are offsets
 * that shift as events arrive, so a page can repeat one), filtered. Ends with a ProtocolError
 * when the server's paging repeats or never ends; the pages before it have been yielded.
 */
export async function* storedHistoryPages(options: StoredHistoryOptions): AsyncGenerator<StoredHistoryPage, void, undefined> {
	const pace = options.pace ?? unpaced;
	const seen = new Set<string>();
	const progress: StoredHistoryProgress = {pages: 0, events: 0};
	const fetchPage = (pageId: string | undefined): Promise<StoredEventPage> =>
		pace((budgetSignal) => options.client.searchPage(options.conversationId, searchParams(options, pageId, callSignal(options, budgetSignal))));
	for await (const page of walkEventPages<WireEvent, StoredEventPage>(fetchPage, `the stored events of conversation ${options.conversationId}`)) {
		if (page.invalid.length > 0) options.onInvalid?.(page.invalid);
		progress.pages++;
		progress.events += page.events.length;
		options.onPage?.({...progress});
		const events: WireEvent[] = [];
		for (const event of page.events) {
			if (seen.has(event.id)) continue;
			seen.add(event.id);
			if (!options.filter || eventMatches(event, options.filter)) events.push(event);
		}
		yield {events, received: page.events.length, nextPageId: page.nextPageId};
	}
}

/** Every matching event of every page, one at a time (see storedHistoryPages). */
export async function* storedHistoryEvents(options: StoredHistoryOptions): AsyncGenerator<WireEvent, void, undefined> {
	for await (const page of storedHistoryPages(options)) yield* page.events;
}

/**
 * The whole stored history in (timestamp, id) order (reversed for TIMESTAMP_DESC), de-duplicated,
 * into `log` when given (unfiltered, so a live stream started on that log later adds only what is
 * new) and returned filtered. A stored copy may be out of order: the log puts it right.
 */
export async function readStoredHistory(options: StoredHistoryOptions & {log?: EventLog}): Promise<WireEvent[]> {
	const log = options.log ?? new EventLog();
	const {filter, ...unfiltered} = options;
	// The server-side kind filter still narrows what is fetched when no log wants everything.
	const read = options.log ? unfiltered : {...unfiltered, ...(filter?.kind ? {filter: {kind: filter.kind}} : {})};
	for await (const page of storedHistoryPages(read)) log.add(page.events);
	const events: WireEvent[] = [];
	for (const logged of log) {
		const event = settleEvent(logged);
		if (!filter || eventMatches(event, filter)) events.push(event);
	}
	return options.sortOrder === 'TIMESTAMP_DESC' ? events.reverse() : events;
}

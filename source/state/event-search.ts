import {AgentClient} from '../wire/agent-client.js';
import type {AppConversation} from '../wire/schemas/app.js';
import type {WireEvent} from '../wire/schemas/events.js';
import {eventKindNames} from '../wire/schemas/event-schemas.js';
import {type Pace, historySource, storedHistoryEvents, type StoredHistoryOptions} from './stored-history.js';
import {eventMatches, isEmptyTimelineFilter, parseTimelineFilter, type TimelineFilter} from './timeline-query.js';
import {publicMessage} from './redact.js';

/**
 * Search across conversations: the timeline filter's grammar (`kind:`, `source:`, words) run over
 * the events of several conversations, a few at a time: through each one's agent server while its
 * sandbox runs, else through the app server's stored copy (paced by the request budget, with the
 * kind filter sent to the server when the query names exactly one known kind). Hits are reported
 * as they are found; without a stored copy a stopped conversation is reported as skipped.
 */

export type SearchHit = {conversationKey: string; event: WireEvent};

export type SearchProgress = {
	searched: number;
	/** Of `searched`, how many through the stored copy (their sandbox was not running). */
	stored?: number;
	skipped: number;
	failed: number;
	total: number;
	done: boolean;
	lastError: string | null;
};

/** The app server's stored copy and the budget its requests go through. */
export type StoredSearch = {client: StoredHistoryOptions['client']; pace(conversationKey: string): Pace};

export type EventSource = Pick<AgentClient, 'allEvents'>;

export type SearchAcrossOptions = {
	conversations: ReadonlyArray<{key: string; conversation: AppConversation}>;
	query: string;
	appBaseUrl: string;
	secrets: readonly string[];
	signal: AbortSignal;
	onHit(hit: SearchHit): void;
	onProgress(progress: SearchProgress): void;
	/** Conversations searched at once (each is a paged read of its whole history). */
	concurrency?: number;
	/** Stop after this many hits in all. */
	maxHits?: number;
	client?: (conversation: AppConversation, appBaseUrl: string) => EventSource;
	/** Reads stopped conversations from the stored copy; without it they are skipped. */
	stored?: StoredSearch;
};

/** The one kind to send as the stored search's `kind__eq`, when the filter names exactly one known kind. */
function serverKind(filter: TimelineFilter): string | undefined {
	if (filter.kinds.length !== 1) return undefined;
	const kind = filter.kinds[0]!;
	return eventKindNames.find((name) => name.toLowerCase() === kind);
}

export async function searchAcross(options: SearchAcrossOptions): Promise<void> {
	const filter = parseTimelineFilter(options.query);
	const progress: SearchProgress = {searched: 0, stored: 0, skipped: 0, failed: 0, total: options.conversations.length, done: false, lastError: null};
	const report = () => options.onProgress({...progress});
	if (isEmptyTimelineFilter(filter)) {
		progress.done = true;
		report();
		return;
	}
	const clientFor = options.client ?? ((conversation, appBaseUrl) => AgentClient.fromConversation(conversation, appBaseUrl, {maxRetries: 1}));
	const maxHits = options.maxHits ?? 500;
	let hits = 0;
	let next = 0;
	const worker = async () => {
		while (!options.signal.aborted && hits < maxHits) {
			const item = options.conversations[next++];
			if (!item) return;
			const stored = historySource(item.conversation) === 'stored';
			if (stored && !options.stored) {
				progress.skipped++;
				report();
				continue;
			}
			try {
				const kind = serverKind(filter);
				const events = stored
					? storedHistoryEvents({
						client: options.stored!.client,
						conversationId: item.conversation.id,
						...(kind ? {filter: {kind}} : {}),
						pace: options.stored!.pace(item.key),
						signal: options.signal,
					})
					: clientFor(item.conversation, options.appBaseUrl).allEvents({signal: options.signal});
				for await (const event of events) {
					if (options.signal.aborted) return;
					if (!eventMatches(event, filter)) continue;
					hits++;
					options.onHit({conversationKey: item.key, event});
					if (hits >= maxHits) break;
				}
				progress.searched++;
				if (stored) progress.stored = (progress.stored ?? 0) + 1;
			} catch (error) {
				if (options.signal.aborted) return;
				progress.failed++;
				progress.lastError = publicMessage(error, options.secrets);
			}
			report();
		}
	};
	await Promise.all(Array.from({length: Math.max(1, options.concurrency ?? 4)}, worker));
	progress.done = true;
	report();
}

export type SearchListener = {onHit(hit: SearchHit): void; onProgress(progress: SearchProgress): void};

/** The controller's `searchAcross`: starts a search over the given conversations; the returned function cancels it. */
export function createSearchAcross(options: {
	appBaseUrl: string;
	secrets: readonly string[];
	conversation(key: string): AppConversation | undefined;
	stored?: StoredSearch;
	client?: SearchAcrossOptions['client'];
}) {
	return {
		searchAcross(keys: readonly string[], query: string, listener: SearchListener): () => void {
			const abort = new AbortController();
			const conversations = keys.flatMap((key) => {
				const conversation = options.conversation(key);
				return conversation ? [{key, conversation}] : [];
			});
			void searchAcross({...options, conversations, query, signal: abort.signal, onHit: listener.onHit, onProgress: listener.onProgress});
			return () => abort.abort();
		},
	};
}

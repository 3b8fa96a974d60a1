import {AgentClient} from '../wire/agent-client.js';
import type {AppConversation} from '../wire/schemas/app.js';
import type {WireEvent} from '../wire/schemas/events.js';
import {eventMatches, isEmptyTimelineFilter, parseTimelineFilter} from './timeline-query.js';
import {publicMessage} from './redact.js';

/**
 * Search across conversations: the timeline filter's grammar (`kind:`, `source:`, words) run over
 * the events of several conversations, through each one's agent server, a few at a time. Hits are
 * reported as they are found; a conversation whose sandbox is not running is reported as skipped.
 */

export type SearchHit = {conversationKey: string; event: WireEvent};

export type SearchProgress = {searched: number; skipped: number; failed: number; total: number; done: boolean; lastError: string | null};

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
};

export async function searchAcross(options: SearchAcrossOptions): Promise<void> {
	const filter = parseTimelineFilter(options.query);
	const progress: SearchProgress = {searched: 0, skipped: 0, failed: 0, total: options.conversations.length, done: false, lastError: null};
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
			if (!item.conversation.conversation_url) {
				progress.skipped++;
				report();
				continue;
			}
			try {
				for await (const event of clientFor(item.conversation, options.appBaseUrl).allEvents({signal: options.signal})) {
					if (options.signal.aborted) return;
					if (!eventMatches(event, filter)) continue;
					hits++;
					options.onHit({conversationKey: item.key, event});
					if (hits >= maxHits) break;
				}
				progress.searched++;
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
export function createSearchAcross(options: {appBaseUrl: string; secrets: readonly string[]; conversation(key: string): AppConversation | undefined}) {
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

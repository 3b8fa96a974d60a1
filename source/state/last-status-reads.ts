import type {AppConversation} from '../wire/schemas/app.js';
import {isKnown, sandboxStatuses} from '../wire/statuses.js';
import type {StoredEventClient} from '../wire/stored-events.js';
import {executionStatusOf} from './stream-events.js';

/**
 * The agent's last status for a conversation whose sandbox status says nothing (UNKNOWN: the
 * provider cannot be reached; or a word this client does not know). The server then sends no
 * execution status, and whether the agent was at work (attention.ts: then it needs a look) was
 * known only once its timeline was opened and read the stored copy. Read here instead, as soon as
 * the list shows it: the stored copy's newest state updates (one request, background priority in
 * the request budget), once per conversation and sandbox status, the same way the timeline finds it.
 */

export type LastStatusClient = Pick<StoredEventClient, 'searchPage'>;

export type LastStatusReadsOptions = {
	client: LastStatusClient | undefined;
	schedule<T>(key: string, task: (signal: AbortSignal) => Promise<T>): Promise<T>;
	/** The status read (null: none in the newest updates). */
	onKnown(key: string, status: string | null): void;
};

/** Newest state updates read: a status change is among them unless the agent has been quiet for long. */
const window = 50;

export function sandboxSaysNothing(conversation: AppConversation): boolean {
	const status = String(conversation.sandbox_status ?? '').toUpperCase();
	return status !== '' && (status === 'UNKNOWN' || !isKnown(sandboxStatuses, status));
}

export class LastStatusReads {
	readonly #options: LastStatusReadsOptions;
	/** key -> the sandbox status it was read for. */
	readonly #asked = new Map<string, string>();

	constructor(options: LastStatusReadsOptions) {
		this.#options = options;
	}

	/** Reads the last status of this conversation if its sandbox says nothing and it was not read for that status yet. */
	want(key: string, conversation: AppConversation): void {
		const client = this.#options.client;
		if (!client || !sandboxSaysNothing(conversation)) return;
		const status = String(conversation.sandbox_status);
		if (this.#asked.get(key) === status) return;
		this.#asked.set(key, status);
		const id = String(conversation.id);
		void this.#options
			.schedule(`last-status:${key}`, async (signal) => (await client.searchPage(id, {kind: 'ConversationStateUpdateEvent', sortOrder: 'TIMESTAMP_DESC', limit: window, signal})).events)
			.then((events) => {
				for (const event of events) {
					const found = executionStatusOf(event);
					if (found !== undefined) return this.#options.onKnown(key, found);
				}
				this.#options.onKnown(key, null);
			})
			.catch(() => {
				// Unread (closed, refused): asked again when its sandbox status changes.
			});
	}
}

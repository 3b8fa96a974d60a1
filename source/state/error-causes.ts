import type {AgentClient} from '../wire/agent-client.js';
import type {AppConversation} from '../wire/schemas/app.js';
import {type ErrorCause, errorCauseOf} from '../wire/error-classification.js';
import {type LoggedEvent, settleIf, type WireEvent} from '../wire/schemas/events.js';
import type {StoredEventClient} from '../wire/stored-events.js';

/**
 * Why each errored conversation failed, for the list (`error · rate limit · retryable`), the
 * preview, the headless JSON and cause grouping. The service's conversation row does not say;
 * the newest ConversationErrorEvent does (it is what ends a run in `error`, with the SDK's
 * classification on newer servers). One request per errored conversation (newest first, one
 * item): to its agent server while the sandbox runs (outside the app server's budget), else to
 * the app server's stored copy under that budget; one at a time, and again only when the
 * conversation errs again (its `signature` changes).
 */

/** The stored copy's search, as the app client has it. */
export type ErrorCauseClient = Pick<StoredEventClient, 'searchPage'>;

/** The agent server's search, as AgentClient has it. */
export type AgentErrorCauseClient = Pick<AgentClient, 'searchEvents'>;

/** Reads one conversation's cause; the signal aborts on close. */
export type ReadCause = (signal: AbortSignal) => Promise<ErrorCause | null>;

const search = {kind: 'ConversationErrorEvent', sortOrder: 'TIMESTAMP_DESC', limit: 1} as const;

function firstCause(events: readonly WireEvent[]): ErrorCause | null {
	for (const event of events) {
		const cause = errorCauseOf(event);
		if (cause) return cause;
	}
	return null;
}

/** The newest ConversationErrorEvent in the app server's stored copy, as a cause, or null. */
export async function readErrorCause(client: ErrorCauseClient, conversationId: string, signal?: AbortSignal): Promise<ErrorCause | null> {
	return firstCause((await client.searchPage(conversationId, {...search, ...(signal ? {signal} : {})})).events);
}

/** The same from the conversation's agent server (the kind is sent fully qualified, which is what it matches). */
export async function readAgentErrorCause(client: AgentErrorCauseClient, signal?: AbortSignal): Promise<ErrorCause | null> {
	return firstCause((await client.searchEvents({...search, ...(signal ? {signal} : {})})).events);
}

type Entry = {
	signature: string;
	/** The conversation as last seen (its sandbox decides where the cause is read from). */
	conversation: AppConversation;
	state: 'queued' | 'reading' | 'known' | 'failed';
	cause: ErrorCause | null;
	/** After a failed read: not before this (ms). */
	retryAt: number;
};

export type ErrorCausesOptions = {
	/** How to read a conversation's cause now (agent server or stored copy, with its own pacing). */
	reader: (conversation: AppConversation) => ReadCause;
	/** A cause became known (or known to be none): the row should be rebuilt. */
	onChange: (key: string) => void;
	now?: () => number;
	/** Wait after a failed read before trying that conversation again (default 60 s). */
	retryMs?: number;
};

export class ErrorCauses {
	readonly #options: ErrorCausesOptions;
	readonly #entries = new Map<string, Entry>();
	readonly #queue: string[] = [];
	readonly #abort = new AbortController();
	#busy = false;

	constructor(options: ErrorCausesOptions) {
		this.#options = options;
	}

	/**
	 * The cause known for `key` in the error marked by `signature` (anything that changes when the
	 * conversation errs again, e.g. its updated_at): the cause, null when it has none, undefined
	 * while unknown, in which case it is read (once).
	 */
	causeFor(key: string, conversation: AppConversation, signature: string): ErrorCause | null | undefined {
		const now = this.#now();
		let entry = this.#entries.get(key);
		if (entry) entry.conversation = conversation;
		if (!entry || entry.signature !== signature || (entry.state === 'failed' && now >= entry.retryAt)) {
			entry = {signature, conversation, state: 'queued', cause: entry?.signature === signature ? entry.cause : null, retryAt: 0};
			this.#entries.set(key, entry);
			if (!this.#queue.includes(key)) this.#queue.push(key);
			this.#pump();
		}

		return entry.state === 'known' ? entry.cause : undefined;
	}

	/** The cause as known now, without asking for it. */
	known(key: string): ErrorCause | null | undefined {
		const entry = this.#entries.get(key);
		return entry?.state === 'known' ? entry.cause : undefined;
	}

	forget(key: string): void {
		this.#entries.delete(key);
	}

	close(): void {
		this.#abort.abort();
		this.#queue.length = 0;
	}

	#now(): number {
		return (this.#options.now ?? Date.now)();
	}

	#pump(): void {
		if (this.#busy || this.#abort.signal.aborted) return;
		const key = this.#queue.shift();
		if (key === undefined) return;
		const entry = this.#entries.get(key);
		if (!entry || entry.state !== 'queued') {
			this.#pump();
			return;
		}

		this.#busy = true;
		entry.state = 'reading';
		const {signature, conversation} = entry;
		let read: Promise<ErrorCause | null>;
		try {
			read = this.#options.reader(conversation)(this.#abort.signal);
		} catch (error) {
			read = Promise.reject(error as Error);
		}
		void read
			.then(
				(cause) => this.#settle(key, signature, {state: 'known', cause}),
				() => this.#settle(key, signature, {state: 'failed', cause: null, retryAt: this.#now() + (this.#options.retryMs ?? 60_000)}),
			)
			.finally(() => {
				this.#busy = false;
				this.#pump();
			});
	}

	#settle(key: string, signature: string, result: Pick<Entry, 'state' | 'cause'> & {retryAt?: number}): void {
		if (this.#abort.signal.aborted) return;
		const entry = this.#entries.get(key);
		// The conversation erred again (or left error) while this was read: that read is stale.
		if (!entry || entry.signature !== signature || entry.state !== 'reading') return;
		entry.state = result.state;
		entry.cause = result.cause;
		entry.retryAt = result.retryAt ?? 0;
		if (result.state === 'known') this.#options.onChange(key);
	}
}

/**
 * Why a conversation stopped with an error, from its events (newest first): its newest
 * ConversationErrorEvent, which is what ends a run in `error`. Agent errors are answers to single
 * tool calls the agent recovers from, so they are not the cause unless `agentErrors` is set.
 * Walks back from the end and stops at the first match; validates only error events.
 */
export function lastErrorCause(events: readonly LoggedEvent[], options: {agentErrors?: boolean} = {}): ErrorCause | null {
	for (let index = events.length - 1; index >= 0; index--) {
		const logged = events[index]!;
		const event = settleIf(logged, 'ConversationErrorEvent') ?? (options.agentErrors ? settleIf(logged, 'AgentErrorEvent') : undefined);
		if (event) return errorCauseOf(event);
	}
	return null;
}

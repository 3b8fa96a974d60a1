import {z} from 'zod';
import {agentBaseUrl, eventSocketUrl} from './agent-base-url.js';
import {ApiError, NotFoundError, ProtocolError, RequestRefusedError} from './errors.js';
import {qualifyEventKind} from './event-kinds.js';
import type {HttpClient, QueryValue} from './http.js';
import {walkEventPages} from './paging.js';
import {type ConversationInfo, conversationInfoSchema, successSchema} from './schemas/app.js';
import {describeIssues, type InvalidItem} from './schemas/common.js';
import {eventPageSchema, type LoggedEvent, parseEventLater, parseEvents, type WireEvent} from './schemas/events.js';
import type {Secret} from './secret.js';
import {type SessionHttpOptions, sessionHttpClient} from './session-http.js';

export {agentBaseUrl} from './agent-base-url.js';

/**
 * One conversation's agent server (docs/service-behaviour.md §2, §3): REST over the shared HttpClient
 * (typed errors, GET retries, timeouts, size caps) with `X-Session-API-Key`, and the URL of its
 * event socket. Every answer is validated; a bad event becomes an UnknownEvent plus an
 * InvalidItem, never a lost page.
 */

export type AgentClientOptions = SessionHttpOptions;

export type ConversationRef = {id: string; conversation_url?: string | null; session_api_key?: Secret | null};

export type EventSortOrder = 'TIMESTAMP' | 'TIMESTAMP_DESC';

export type EventFilterParams = {
	/** Short (`ActionEvent`) or fully-qualified; sent qualified, which is all the real server matches. */
	kind?: string;
	source?: string;
	/** Case-insensitive substring of MessageEvent text. */
	body?: string;
	/** The server's own naive timestamp strings; compared as strings by the server. */
	timestampGte?: string;
	timestampLt?: string;
};

export type EventSearchParams = EventFilterParams & {
	sortOrder?: EventSortOrder;
	/** 1..100, default 100 (the real server answers 500 above 100). */
	limit?: number;
	pageId?: string;
	signal?: AbortSignal;
};

export type EventPage = {events: WireEvent[]; invalid: InvalidItem[]; nextPageId: string | null};

export type AllEventsParams = Omit<EventSearchParams, 'pageId'> & {
	/** Invalid items of each page (they are still yielded, as UnknownEvent). */
	onInvalid?: (invalid: InvalidItem[]) => void;
	/** After each page arrives, before its events are yielded: how many it holds (progress for a long read). */
	onPage?: (events: number) => void;
};

export type CallOptions = {signal?: AbortSignal};

type Page<E> = {events: E[]; nextPageId: string | null};

const maxLimit = 100;
/** The app server proxies `ask_agent` with a 600 s timeout: no answer comes later than that. */
const askTimeoutMs = 600_000;
const answerSchema = z.object({response: z.string()});
const countSchema = z.number().int().nonnegative();

export class AgentClient {
	/** The agent server base, path prefix kept, no trailing slash. */
	readonly baseUrl: string;
	readonly conversationId: string;
	/** Wrapped: printing it shows `[redacted]`; the socket reveals it only to build the auth frame. */
	readonly sessionApiKey: Secret | null;
	readonly #http: HttpClient;

	constructor(init: {baseUrl: string; conversationId: string; sessionApiKey: Secret | null} & AgentClientOptions) {
		this.baseUrl = init.baseUrl.replace(/\/+$/, '');
		this.conversationId = init.conversationId;
		this.sessionApiKey = init.sessionApiKey;
		this.#http = sessionHttpClient(this.baseUrl, init.sessionApiKey, init);
	}

	/** The client for an app-server conversation; throws if its sandbox exposes no agent server. */
	static fromConversation(conversation: ConversationRef, appBaseUrl: string, options: AgentClientOptions = {}): AgentClient {
		if (!conversation.conversation_url) {
			throw new Error(
				`conversation ${conversation.id} has no agent server URL: its sandbox is not running (resume it first)`,
			);
		}
		return new AgentClient({
			baseUrl: agentBaseUrl(conversation.conversation_url, appBaseUrl),
			conversationId: conversation.id,
			sessionApiKey: conversation.session_api_key ?? null,
			...options,
		});
	}

	get #path(): string {
		return `/api/conversations/${encodeURIComponent(this.conversationId)}`;
	}

	async getInfo(options: CallOptions = {}): Promise<ConversationInfo> {
		const raw = await this.#http.json({path: this.#path, query: {include_skills: false}, signal: options.signal});
		return this.#validate(conversationInfoSchema, raw, 'conversation info');
	}

	/** One page of `events/search`. */
	async searchEvents(params: EventSearchParams = {}): Promise<EventPage> {
		const page = await this.#searchPage(params);
		const {events, invalid} = parseEvents(page.items);
		return {events, invalid, nextPageId: page.next_page_id ?? null};
	}

	async #searchPage(params: EventSearchParams) {
		const limit = params.limit ?? maxLimit;
		if (!Number.isInteger(limit) || limit < 1 || limit > maxLimit) {
			throw new RangeError(`limit must be an integer from 1 to ${maxLimit} (got ${limit})`);
		}
		const raw = await this.#http.json({
			path: `${this.#path}/events/search`,
			query: {
				...filterQuery(params),
				sort_order: params.sortOrder,
				limit,
				page_id: params.pageId,
			},
			signal: params.signal,
		});
		return this.#validate(eventPageSchema, raw, 'event page');
	}

	/** Every matching event, page after page. Stops with a ProtocolError if the server's paging goes round in circles. */
	async *allEvents(params: AllEventsParams = {}): AsyncGenerator<WireEvent, void, undefined> {
		const {onInvalid, onPage, ...search} = params;
		// Pages are offsets into a log that grows while it is read: an event can come on two pages.
		// Each is yielded once (a view's EventLog dedupes on its own; allEventsLater leaves it to it).
		const seen = new Set<string>();
		for await (const page of this.#pages(search, (search) => this.searchEvents(search))) {
			onPage?.(page.events.length);
			if (page.invalid.length > 0) onInvalid?.(page.invalid);
			for (const event of page.events) {
				if (seen.has(event.id)) continue;
				seen.add(event.id);
				yield event;
			}
		}
	}

	/**
	 * allEvents for a view that shows a window of a long history: each event's envelope is read
	 * now and its payload validated when first needed (events.ts `PendingEvent`), so a 100,000
	 * event backfill costs JSON and a few field reads per event. Invalid payloads surface then,
	 * as UnknownEvents with their problem, not through `onInvalid`.
	 */
	async *allEventsLater(params: Omit<AllEventsParams, 'onInvalid' | 'onPage'> = {}): AsyncGenerator<LoggedEvent, void, undefined> {
		const parse = async (search: EventSearchParams): Promise<Page<LoggedEvent>> => {
			const page = await this.#searchPage(search);
			return {events: page.items.map((item) => parseEventLater(item)), nextPageId: page.next_page_id ?? null};
		};
		for await (const page of this.#pages(params, parse)) yield* page.events;
	}

	async *#pages<P extends Page<LoggedEvent>>(search: Omit<EventSearchParams, 'pageId'>, fetchPage: (search: EventSearchParams) => Promise<P>): AsyncGenerator<P, void, undefined> {
		yield* walkEventPages<LoggedEvent, P>((pageId) => fetchPage({...search, pageId}), `GET ${this.#path}/events/search`);
	}

	async countEvents(params: EventFilterParams & CallOptions = {}): Promise<number> {
		const raw = await this.#http.json({path: `${this.#path}/events/count`, query: filterQuery(params), signal: params.signal});
		return this.#validate(countSchema, raw, 'event count');
	}

	/** Waits for the current model call, then pauses. */
	async pause(options: CallOptions = {}): Promise<void> {
		await this.#post('pause', undefined, options);
	}

	/** Starts or resumes the agent (the server has no /resume). 409 "already running" is a RequestRefusedError. */
	async run(options: CallOptions = {}): Promise<void> {
		await this.#post('run', undefined, options);
	}

	/**
	 * Stops this one agent at once (`/interrupt` cancels the model call in flight). Servers older
	 * than `/interrupt` answer 404 or 405: then `/pause`, which waits for the call to finish.
	 * Says which one the server took. The sandbox and its other conversations are not touched.
	 */
	async interrupt(options: CallOptions = {}): Promise<'interrupt' | 'pause'> {
		try {
			await this.#post('interrupt', undefined, options);
			return 'interrupt';
		} catch (error) {
			if (!(error instanceof NotFoundError || (error instanceof ApiError && error.status === 405))) throw error;
		}
		await this.pause(options);
		return 'pause';
	}

	/** `run`, with the server's 409 read as what it means: the agent was running already. */
	async continueRun(options: CallOptions = {}): Promise<'started' | 'already-running'> {
		try {
			await this.run(options);
			return 'started';
		} catch (error) {
			if (error instanceof ApiError && error.status === 409) return 'already-running';
			throw error;
		}
	}

	/**
	 * The service's trajectory download (a zip of the conversation's stored folder), as bytes,
	 * or null when this server has none for it (404). Streamed, so a large one is not held twice.
	 */
	async downloadTrajectory(options: CallOptions = {}): Promise<AsyncIterable<Uint8Array> | null> {
		try {
			return await this.#http.stream({method: 'GET', path: `/api/file/download-trajectory/${encodeURIComponent(this.conversationId)}`, signal: options.signal});
		} catch (error) {
			if (error instanceof NotFoundError || (error instanceof ApiError && error.status === 405)) return null;
			throw error;
		}
	}

	async respondToConfirmation(accept: boolean, reason?: string, options: CallOptions = {}): Promise<void> {
		await this.#post('events/respond_to_confirmation', reason === undefined ? {accept} : {accept, reason}, options);
	}

	/**
	 * A side question (`POST …/ask_agent {question}` → `{response}`, SDK openhands-agent-server/
	 * openhands/agent_server/conversation_router.py and models.py AskAgentRequest/AskAgentResponse):
	 * a model call over the conversation so far that records no event and leaves the execution
	 * status as it is (SDK LocalConversation.ask_agent). It takes as long as a model call: the
	 * answer is waited for up to `timeoutMs` (default 600 s, what the app server's proxy of this
	 * route allows). Never retried: each try is another model call. The answer is the agent's
	 * text, unsanitized: callers showing it clean it.
	 */
	async askAgent(question: string, options: CallOptions & {timeoutMs?: number} = {}): Promise<string> {
		const timeoutMs = options.timeoutMs ?? askTimeoutMs;
		const path = `${this.#path}/ask_agent`;
		const raw = await this.#http.json({method: 'POST', path, body: {question}, signal: options.signal, headersTimeoutMs: timeoutMs, bodyTimeoutMs: timeoutMs, bodyDeadlineMs: timeoutMs, deadlineMs: timeoutMs, retry: false});
		return this.#validate(answerSchema, raw, 'ask_agent answer').response;
	}

	/**
	 * The agent's last answer (`GET …/agent_final_response` → `{response}`): the text of its last
	 * FinishAction or agent message, `""` while it has none (SDK conversation_router.py,
	 * AgentResponseResult). Reads only; unsanitized.
	 */
	async finalResponse(options: CallOptions = {}): Promise<string> {
		const raw = await this.#http.json({path: `${this.#path}/agent_final_response`, signal: options.signal});
		return this.#validate(answerSchema, raw, 'agent_final_response answer').response;
	}

	/** A user message. The server's `run` defaults to false (the agent would not start), so we send true unless told. */
	async sendMessage(text: string, options: {run?: boolean} & CallOptions = {}): Promise<void> {
		await this.#post('events', {role: 'user', content: [{type: 'text', text}], run: options.run ?? true}, options);
	}

	/** `ws(s)://<base>/sockets/events/<id>`, scheme from the base. The key never goes in it. */
	socketUrl(): string {
		return eventSocketUrl(this.baseUrl, this.conversationId);
	}

	async #post(action: string, body: unknown, options: CallOptions): Promise<void> {
		const path = `${this.#path}/${action}`;
		const raw = await this.#http.json({method: 'POST', path, body, signal: options.signal});
		// Some servers answer an empty body; `{"success": false}` is a refusal in the server's words.
		if (raw === undefined || raw === null) return;
		const result = this.#validate(successSchema, raw, `${action} answer`);
		if (!result.success) throw new RequestRefusedError(`POST ${path}: the server answered success=false`, 200, path);
	}

	#validate<T>(schema: z.ZodType<T>, raw: unknown, what: string): T {
		const result = schema.safeParse(raw);
		if (result.success) return result.data;
		throw new ProtocolError(`${this.#path}: unexpected ${what} from the agent server: ${describeIssues(result.error)}`, 200, this.#path);
	}
}

function filterQuery(params: EventFilterParams): Record<string, QueryValue> {
	return {
		kind: params.kind ? qualifyEventKind(params.kind) : undefined,
		source: params.source || undefined,
		body: params.body || undefined,
		timestamp__gte: params.timestampGte || undefined,
		timestamp__lt: params.timestampLt || undefined,
	};
}

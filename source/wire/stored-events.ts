import {NotApiError, NotFoundError, ProtocolError} from './errors.js';
import {shortEventKind} from './event-kinds.js';
import type {QueryValue} from './http.js';
import {normalizeId} from './ids.js';
import {walkEventPages} from './paging.js';
import type {InvalidItem} from './schemas/common.js';
import {eventPageSchema, parseEventLater, parseEvents, type LoggedEvent, type WireEvent} from './schemas/events.js';

/**
 * The app server's own copy of a conversation's events (docs/service-behaviour.md §3.1): every event the
 * agent server posted to the app server's webhook, readable with the bearer key while the sandbox
 * is PAUSED, MISSING, ERROR or STARTING, when the agent server cannot be reached. Never resumes
 * anything.
 *
 * Two routes, the same `{items, next_page_id}` pages and event shapes as the agent server:
 * - `GET /api/v1/conversation/{id}/events/search` (newer servers);
 * - `GET /api/v1/events/search?conversation_id__eq={id}` (older ones), used when the newer route
 *   answers 404 or, as the hosted service does for a path it does not route, its web page (HTML
 *   with status 200). Which one works is remembered per client, so a walk probes once.
 * Filters the server has: `kind__eq` (the short class name), `timestamp__gte`/`__lt`,
 * `sort_order`; page ids are offsets; `limit` 1..100. There is no `source` or `body` filter:
 * callers apply those themselves (state/stored-history.ts).
 */

export type StoredEventRoute = 'conversation' | 'events';

export type StoredEventSearchParams = {
	/** Short (`ActionEvent`) or qualified; sent short, which is what this route matches. */
	kind?: string;
	/** The server's own naive timestamp strings. */
	timestampGte?: string;
	timestampLt?: string;
	sortOrder?: 'TIMESTAMP' | 'TIMESTAMP_DESC';
	/** 1..100, default 100. */
	limit?: number;
	pageId?: string;
	signal?: AbortSignal;
};

export type StoredEventPage<E = WireEvent> = {events: E[]; invalid: InvalidItem[]; nextPageId: string | null};

/** A GET through the app client's HTTP layer (bearer key, typed errors, retries, size cap). */
export type AppGet = (path: string, query: Record<string, QueryValue>, signal: AbortSignal | undefined) => Promise<unknown>;

const maxLimit = 100;

export class StoredEventClient {
	readonly #get: AppGet;
	#route: StoredEventRoute | null = null;

	constructor(get: AppGet) {
		this.#get = get;
	}

	/** The route found to work, once one has answered (null before). */
	get route(): StoredEventRoute | null {
		return this.#route;
	}

	/** One page, every event validated (a bad one becomes an UnknownEvent and is listed in `invalid`). */
	async searchPage(conversationId: string, params: StoredEventSearchParams = {}): Promise<StoredEventPage> {
		const page = await this.#page(conversationId, params);
		const {events, invalid} = parseEvents(page.items);
		return {events, invalid, nextPageId: page.nextPageId};
	}

	/** One page, each event's payload validated on first use (events.ts `PendingEvent`): for long histories. */
	async searchPageLater(conversationId: string, params: StoredEventSearchParams = {}): Promise<StoredEventPage<LoggedEvent>> {
		const page = await this.#page(conversationId, params);
		return {events: page.items.map((item) => parseEventLater(item)), invalid: [], nextPageId: page.nextPageId};
	}

	/** Every page to the end; a repeating or never-ending paging stops with a ProtocolError (paging.ts). */
	async *pages(conversationId: string, params: Omit<StoredEventSearchParams, 'pageId'> = {}): AsyncGenerator<StoredEventPage, void, undefined> {
		yield* walkEventPages<WireEvent, StoredEventPage>(
			(pageId) => this.searchPage(conversationId, {...params, ...(pageId === undefined ? {} : {pageId})}),
			`GET ${this.#pathFor(conversationId, this.#route ?? 'conversation')}`,
		);
	}

	async #page(conversationId: string, params: StoredEventSearchParams): Promise<{items: unknown[]; nextPageId: string | null}> {
		const limit = params.limit ?? maxLimit;
		if (!Number.isInteger(limit) || limit < 1 || limit > maxLimit) throw new RangeError(`limit must be an integer from 1 to ${maxLimit} (got ${limit})`);
		const query: Record<string, QueryValue> = {
			kind__eq: params.kind?.trim() ? shortEventKind(params.kind) : undefined,
			timestamp__gte: params.timestampGte || undefined,
			timestamp__lt: params.timestampLt || undefined,
			sort_order: params.sortOrder,
			limit,
			page_id: params.pageId,
		};
		const {raw, route} = await this.#fetch(conversationId, query, params.signal);
		const page = eventPageSchema.safeParse(raw);
		if (!page.success) throw new ProtocolError(`GET ${this.#pathFor(conversationId, route)}: the answer is not a page of events ({items, next_page_id})`);
		return {items: page.data.items, nextPageId: page.data.next_page_id || null};
	}

	async #fetch(conversationId: string, query: Record<string, QueryValue>, signal: AbortSignal | undefined): Promise<{raw: unknown; route: StoredEventRoute}> {
		if (this.#route === 'events') return {raw: await this.#get(this.#pathFor(conversationId, 'events'), this.#queryFor(conversationId, 'events', query), signal), route: 'events'};
		try {
			const raw = await this.#get(this.#pathFor(conversationId, 'conversation'), query, signal);
			this.#route = 'conversation';
			return {raw, route: 'conversation'};
		} catch (error) {
			// Once the newer route has answered, a 404 is about the conversation, not the route.
			if (this.#route === 'conversation' || !routeAbsent(error)) throw error;
			let raw: unknown;
			try {
				raw = await this.#get(this.#pathFor(conversationId, 'events'), this.#queryFor(conversationId, 'events', query), signal);
			} catch (olderError) {
				// Neither route knows it: the newer route's answer says why.
				throw routeAbsent(olderError) ? error : olderError;
			}
			this.#route = 'events';
			return {raw, route: 'events'};
		}
	}

	#pathFor(conversationId: string, route: StoredEventRoute): string {
		return route === 'conversation' ? `/api/v1/conversation/${encodeURIComponent(normalizeId(conversationId))}/events/search` : '/api/v1/events/search';
	}

	#queryFor(conversationId: string, route: StoredEventRoute, query: Record<string, QueryValue>): Record<string, QueryValue> {
		return route === 'conversation' ? query : {conversation_id__eq: normalizeId(conversationId), ...query};
	}
}

/** A 404, or the web app's HTML page: the server has no such route. */
function routeAbsent(error: unknown): boolean {
	return error instanceof NotFoundError || error instanceof NotApiError;
}

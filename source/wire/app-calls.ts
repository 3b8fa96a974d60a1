import type {Dispatcher} from 'undici';
import type {z} from 'zod';
import {lookupAligned} from './batch-lookup.js';
import {CallScope} from './call-scope.js';
import {ProtocolError} from './errors.js';
import {HttpClient, type QueryValue, type RequestOptions, type RetryInfo} from './http.js';
import {isUuidLike} from './ids.js';
import {collect, uniqueById, walkPages} from './paging.js';
import {successSchema} from './schemas/app.js';
import {describeIssues, parsePage, type InvalidItem, type Page} from './schemas/common.js';
import {Secret} from './secret.js';
import type {Transport} from './transport.js';

/**
 * What every call of the app server's V1 REST API (app-client.ts) goes through: the HTTP client
 * with the bearer key, the call scope that close() aborts, batch look-ups and paged searches
 * validated item by item, and the checks of a single answer, a count or a `{success}`.
 */

export type AppClientOptions = {
	/** The service root, e.g. `https://app.all-hands.dev`; a path prefix is kept. */
	baseUrl: string;
	/** Sent as `Authorization: Bearer …`; read only where the header is built. */
	apiKey: Secret | string | null;
	/** Retries of a failing GET (default 4). */
	maxRetries?: number;
	onRetry?: (info: RetryInfo) => void;
	/** An item that failed validation; the rest of its page or batch is still returned. */
	onInvalid?: (item: InvalidItem, where: string) => void;
	/** Something the user should know that is not an error (a deprecated call, a looping server). */
	onWarning?: (message: string) => void;
	/** The server's connection pool, clock estimate and pacing (transport.ts); default: the process's. */
	transport?: Transport;
	/** A dispatcher of its own instead of the transport's pool (tests). */
	dispatcher?: Dispatcher;
	/** Largest JSON answer read (default 32 MiB). */
	maxResponseBytes?: number;
};

export type CallOptions = {signal?: AbortSignal};

export type PageParams = CallOptions & {limit?: number};

export const api = '/api/v1';
export const conversationsPath = `${api}/app-conversations`;

/** Start phases can take minutes (a sandbox to boot, a repository to clone) between updates. */
export const streamIdleTimeoutMs = 10 * 60_000;
/** The server may hold the headers until the task exists. */
export const streamHeadersTimeoutMs = 60_000;

/** How the ids of a batch look-up are keyed: app-server uuids (sent in hex form) or opaque ids. */
export type KeyedBy = 'uuid' | 'opaque';

export class AppCalls {
	readonly baseUrl: string;
	readonly http: HttpClient;
	/** Only what later calls need; the key itself is held by the header function alone. */
	readonly options: Pick<AppClientOptions, 'onInvalid' | 'onWarning' | 'maxResponseBytes'>;
	readonly scope = new CallScope();

	constructor(options: AppClientOptions) {
		this.options = {onInvalid: options.onInvalid, onWarning: options.onWarning, maxResponseBytes: options.maxResponseBytes};
		const key = typeof options.apiKey === 'string' ? new Secret(options.apiKey) : options.apiKey;
		this.http = new HttpClient({
			baseUrl: options.baseUrl,
			// A function, so the key is revealed per request and never copied into options or errors.
			headers: (): Record<string, string> => (key && !key.isEmpty ? {authorization: `Bearer ${key.reveal()}`} : {}),
			...(options.maxRetries === undefined ? {} : {maxRetries: options.maxRetries}),
			...(options.onRetry ? {onRetry: options.onRetry} : {}),
			...(options.transport ? {transport: options.transport} : {}),
			...(options.dispatcher ? {dispatcher: options.dispatcher} : {}),
		});
		this.baseUrl = this.http.baseUrl;
	}

	async json(options: RequestOptions): Promise<unknown> {
		const {signal, release} = this.scope.enter(options.signal);
		try {
			return await this.http.json({...options, signal, maxBytes: options.maxBytes ?? this.options.maxResponseBytes});
		} finally {
			release();
		}
	}

	async lookup<T extends {id: string}>(
		schema: z.ZodType<T>,
		path: string,
		param: 'ids' | 'id',
		ids: readonly string[],
		chunkSize: number,
		call: CallOptions,
		keyedBy: KeyedBy,
	): Promise<Array<T | null>> {
		const where = `GET ${path}`;
		return lookupAligned(ids, {
			schema,
			chunkSize,
			where,
			// App-server uuids go in the hex form, and a malformed one (a 400 for the whole batch) is not sent.
			...(keyedBy === 'uuid' ? {canExist: isUuidLike, sendNormalized: true} : {}),
			fetchChunk: (chunk) => this.json({path, query: {[param]: chunk}, signal: call.signal}),
			onInvalid: (item) => this.options.onInvalid?.(item, where),
		});
	}

	async *pages<T>(schema: z.ZodType<T>, path: string, query: Record<string, QueryValue>, call: CallOptions): AsyncGenerator<Page<T>> {
		const where = `GET ${path}`;
		const fetchPage = async (pageId: string | null): Promise<Page<T>> => {
			const raw = await this.json({path, query: {...query, page_id: pageId}, signal: call.signal});
			let page: Page<T>;
			try {
				page = parsePage(schema, raw);
			} catch {
				throw new ProtocolError(`${where}: the answer is not a page ({items, next_page_id})`);
			}
			for (const item of page.invalid) this.options.onInvalid?.(item, where);
			return page;
		};
		yield* walkPages(fetchPage, {
			onRepeatedPageId: (pageId) =>
				this.options.onWarning?.(`${where}: the server sent page id ${JSON.stringify(pageId)} twice; stopped paging to avoid a loop`),
		});
	}
}

/**
 * One kind of item the server lists and looks up by id (sandboxes, sandbox specs): its search
 * pages as sent (newest first), every item once each, all of them, and a batch look-up aligned with
 * the ids asked (null for an unknown one), split into requests of at most `chunkSize` ids.
 */
export class Listing<T extends {id: string}> {
	constructor(
		readonly calls: AppCalls,
		readonly schema: z.ZodType<T>,
		readonly path: string,
		readonly lookup: {param: 'ids' | 'id'; chunkSize: number; keyedBy: KeyedBy},
	) {}

	async *pages(query: Record<string, QueryValue>, call: CallOptions): AsyncGenerator<Page<T>> {
		yield* this.calls.pages(this.schema, `${this.path}/search`, query, call);
	}

	async *each(query: Record<string, QueryValue>, call: CallOptions): AsyncGenerator<T> {
		yield* uniqueById(this.pages(query, call));
	}

	async all(query: Record<string, QueryValue>, call: CallOptions): Promise<T[]> {
		return collect(this.each(query, call));
	}

	async get(ids: readonly string[], call: CallOptions): Promise<Array<T | null>> {
		const {param, chunkSize, keyedBy} = this.lookup;
		return this.calls.lookup(this.schema, this.path, param, ids, chunkSize, call, keyedBy);
	}
}

export function expectOne<T>(schema: z.ZodType<T>, raw: unknown, where: string): T {
	const result = schema.safeParse(raw);
	if (!result.success) throw new ProtocolError(`${where}: unexpected answer from the server (${describeIssues(result.error)})`);
	return result.data;
}

/** `{"success": true}`; an empty 200 is taken as success too (the action was accepted). */
export function success(raw: unknown, where: string): {success: boolean} {
	if (raw === undefined) return {success: true};
	return {success: expectOne(successSchema, raw, where).success};
}

export function expectCount(raw: unknown, where: string): number {
	if (typeof raw === 'number' && Number.isInteger(raw) && raw >= 0) return raw;
	throw new ProtocolError(`${where}: expected a count (a bare integer), got ${JSON.stringify(raw)?.slice(0, 40)}`);
}

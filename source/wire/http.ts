import type {Dispatcher} from 'undici';
import {request} from '../boundary/undici-parts.js';
import {sleep} from './backoff.js';
import {ApiError, ProtocolError, RateLimitedError, TimeoutError} from './errors.js';
import {cancelled, networkError, retryDelay} from './http-failure.js';
import {interpret, notApi, readCapped, type RawResponse} from './http-response.js';
import type {ServerClock} from './server-clock.js';
import {processTransport, type Transport} from './transport.js';

export {namedRateLimit, rateLimitWait} from './rate-limit.js';

/**
 * JSON over HTTP for both APIs. Each server's Transport (transport.ts) holds its keep-alive pools,
 * its clock estimate and its 429 pacing; a client given none uses the process's. Every request
 * has a headers timeout, a body timeout and a size cap; errors come back typed (errors.ts: an answer read by http-response.ts, a
 * failed attempt by http-failure.ts). GETs are retried on transient failures; POSTs never are, because a
 * create that went through must not be sent twice.
 */

export type QueryValue = string | number | boolean | null | undefined | ReadonlyArray<string | number>;

export type RequestOptions = {
	method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
	/** Joined onto the client's base URL; a base path prefix is kept. */
	path: string;
	/** Arrays repeat the key (`ids=a&ids=b`); null and undefined are left out. */
	query?: Record<string, QueryValue>;
	body?: unknown;
	signal?: AbortSignal;
	headersTimeoutMs?: number;
	bodyTimeoutMs?: number;
	/**
	 * The longest the whole body may take. `bodyTimeoutMs` is undici's idle timeout between two
	 * chunks: a body trickling in at 1 KB/s never trips it, and 10 MB would take three hours.
	 */
	bodyDeadlineMs?: number;
	maxBytes?: number;
	/** Retry transient failures. Defaults to true for GET and false otherwise. */
	retry?: boolean;
	/**
	 * The longest this call may take, retries included, instead of the process's (`--timeout`): a
	 * request that waits on a model call (`ask_agent`) may take minutes by design.
	 */
	deadlineMs?: number;
};

export type RetryInfo = {
	attempt: number;
	delayMs: number;
	reason: string;
	url: string;
	/** The 429 that is being waited out, when that is the reason: a budget learns from it. */
	rateLimited?: RateLimitedError;
};

export type HttpClientOptions = {
	baseUrl: string;
	/** Called per request so a credential is read at the last moment and never stored in options. */
	headers: () => Record<string, string>;
	maxRetries?: number;
	onRetry?: (info: RetryInfo) => void;
	/** The server this client belongs to: its connection pool, clock estimate and pacing (default: the process's). */
	transport?: Transport;
	/** A dispatcher of its own instead of the transport's pool (tests). */
	dispatcher?: Dispatcher;
	/** Where the answers' `Date` headers go instead of the transport's clock. */
	clock?: ServerClock;
};

/**
 * bodyTimeoutMs is the idle time between two chunks (a stalled body); bodyDeadlineMs bounds a
 * trickle. callDeadlineMs bounds one call with its retries: a hanging or trickling server costs
 * under a minute, not five full timeouts.
 */
const defaults = {headersTimeoutMs: 15_000, bodyTimeoutMs: 15_000, bodyDeadlineMs: 20_000, maxBytes: 32 * 1024 * 1024, maxRetries: 4, callDeadlineMs: 45_000};

let requestDeadlineMs = defaults.callDeadlineMs;

/** The longest one call may take, its retries included (`--timeout`); process-wide. */
export function setRequestDeadline(ms: number): void {
	requestDeadlineMs = Math.max(1000, ms);
}

/** Closes the pool of the process's transport (clients built without a transport of their own). */
export async function closeHttpAgent(): Promise<void> {
	await processTransport.close();
}

export function buildUrl(baseUrl: string, path: string, query?: Record<string, QueryValue>): URL {
	const base = new URL(baseUrl);
	const prefix = base.pathname.replace(/\/+$/, '');
	const url = new URL(base.origin + prefix + (path.startsWith('/') ? path : `/${path}`));
	for (const [key, value] of Object.entries(query ?? {})) {
		if (value == null) continue;
		if (Array.isArray(value)) for (const item of value) url.searchParams.append(key, String(item));
		else url.searchParams.append(key, String(value));
	}
	return url;
}

export class HttpClient {
	readonly baseUrl: string;
	readonly #options: HttpClientOptions;

	readonly #transport: Transport;

	constructor(options: HttpClientOptions) {
		this.baseUrl = options.baseUrl.replace(/\/+$/, '');
		this.#options = options;
		this.#transport = options.transport ?? processTransport;
	}

	get #clock(): ServerClock {
		return this.#options.clock ?? this.#transport.clock;
	}

	/** Sends a request and returns the parsed JSON body (undefined for an empty body). */
	async json(options: RequestOptions): Promise<unknown> {
		const method = options.method ?? 'GET';
		const retry = options.retry ?? method === 'GET';
		const maxRetries = this.#options.maxRetries ?? defaults.maxRetries;
		const url = buildUrl(this.baseUrl, options.path, options.query);
		const started = Date.now();
		const deadlineMs = options.deadlineMs ?? requestDeadlineMs;
		for (let attempt = 0; ; attempt++) {
			try {
				const wait = this.#transport.pace(url.origin, options.signal);
				if (wait) {
					await wait.catch(() => {
						throw cancelled(method, url, options.signal);
					});
				}
				// No single try may outlast what is left of the call's deadline.
				const left = Math.max(1000, deadlineMs - (Date.now() - started));
				const bounded = {
					...options,
					headersTimeoutMs: Math.min(options.headersTimeoutMs ?? defaults.headersTimeoutMs, left),
					bodyDeadlineMs: Math.min(options.bodyDeadlineMs ?? defaults.bodyDeadlineMs, left),
				};
				const response = await this.#send(method, url, bounded);
				return interpret(method, url, response, this.#credentials());
			} catch (error) {
				// Whatever undici made of it (a timeout reason looks like a network error), a
				// cancelled call is a cancellation: never retried, never reported as the network.
				if (options.signal?.aborted) throw cancelled(method, url, options.signal);
				if (error instanceof RateLimitedError) this.#transport.slowDown(url.origin, error);
				let delayMs = retry && attempt < maxRetries ? retryDelay(error, attempt) : undefined;
				// Another try that could not finish inside the call's deadline is not worth starting. (A
				// 429 is an answer, not a stalled server: its waits have their own cap.)
				const margin = Math.min(options.headersTimeoutMs ?? defaults.headersTimeoutMs, 10_000, deadlineMs / 4);
				if (delayMs !== undefined && !(error instanceof RateLimitedError) && Date.now() - started + delayMs + margin > deadlineMs) delayMs = undefined;
				if (delayMs === undefined) throw error;
				this.#options.onRetry?.({attempt: attempt + 1, delayMs, reason: (error as Error).message, url: url.pathname, ...(error instanceof RateLimitedError ? {rateLimited: error} : {})});
				await sleep(delayMs, options.signal).catch(() => {
					throw cancelled(method, url, options.signal);
				});
			}
		}
	}

	/**
	 * Opens a request whose body is read incrementally (stream-start). Non-2xx answers are
	 * turned into the same typed errors as `json()`.
	 */
	async stream(options: RequestOptions): Promise<AsyncIterable<Uint8Array>> {
		const method = options.method ?? 'POST';
		const url = buildUrl(this.baseUrl, options.path, options.query);
		let response: Dispatcher.ResponseData;
		const sentAt = Date.now();
		try {
			await this.#transport.pace(url.origin, options.signal);
			response = await request(url, this.#requestOptions(method, options));
		} catch (error) {
			if (options.signal?.aborted) throw cancelled(method, url, options.signal);
			throw networkError(method, url, error);
		}
		this.#clock.observe(response.headers.date, sentAt, Date.now());
		if (response.statusCode < 200 || response.statusCode >= 300) {
			const text = await readCapped(response.body, 64 * 1024, defaults.bodyDeadlineMs).catch(() => '');
			interpret(method, url, {status: response.statusCode, headers: response.headers, text}, this.#credentials());
		}
		const contentType = String(response.headers['content-type'] ?? '');
		if (contentType.includes('text/html')) {
			await response.body.dump();
			throw notApi(url);
		}
		return response.body;
	}

	/**
	 * The credential values this client sends. A proxy or server that echoes a request header in
	 * its error body must not get the key into an error message, so they are cut out of it.
	 */
	#credentials(): string[] {
		const values: string[] = [];
		for (const [name, value] of Object.entries(this.#options.headers())) {
			if (!/authorization|key|token|cookie/i.test(name)) continue;
			values.push(value);
			// `Bearer <key>`: the key alone must go too.
			const token = /^\S+\s+(\S.*)$/.exec(value)?.[1];
			if (token) values.push(token);
		}
		return values.filter((value) => value.length >= 4);
	}

	#requestOptions(method: string, options: RequestOptions) {
		const headers: Record<string, string> = {accept: 'application/json', ...this.#options.headers()};
		if (options.body !== undefined) headers['content-type'] = 'application/json';
		return {
			method: method as Dispatcher.HttpMethod,
			headers,
			body: options.body === undefined ? null : JSON.stringify(options.body),
			signal: options.signal,
			headersTimeout: options.headersTimeoutMs ?? defaults.headersTimeoutMs,
			bodyTimeout: options.bodyTimeoutMs ?? defaults.bodyTimeoutMs,
			dispatcher: this.#options.dispatcher ?? this.#transport.dispatcher(),
		};
	}

	async #send(method: string, url: URL, options: RequestOptions): Promise<RawResponse> {
		let response: Dispatcher.ResponseData;
		const sentAt = Date.now();
		try {
			response = await request(url, this.#requestOptions(method, options));
		} catch (error) {
			throw networkError(method, url, error);
		}
		this.#clock.observe(response.headers.date, sentAt, Date.now());
		try {
			const text = await readCapped(response.body, options.maxBytes ?? defaults.maxBytes, options.bodyDeadlineMs ?? defaults.bodyDeadlineMs);
			return {status: response.statusCode, headers: response.headers, text};
		} catch (error) {
			// The headers came: what was late is the body.
			if (error instanceof TimeoutError) throw new TimeoutError(`${method} ${url.pathname}: ${url.host} sent its headers (HTTP ${response.statusCode}), but ${error.message}`, undefined, url.pathname);
			if (error instanceof ApiError) {
				throw new ProtocolError(`${method} ${url.pathname}: ${error.message}`, response.statusCode, url.pathname);
			}
			throw networkError(method, url, error, response.statusCode);
		}
	}
}

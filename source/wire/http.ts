import type {Dispatcher} from 'undici';
import {errors as undiciErrors, request} from '../boundary/undici-parts.js';
import {fullJitterDelay, parseRetryAfter, sleep} from './backoff.js';
import {namedRateLimit, rateLimitWait} from './rate-limit.js';
import {
	ApiError,
	KeyRejectedError,
	NetworkError,
	NotApiError,
	NotFoundError,
	OutcomeUnknownError,
	ProtocolError,
	RateLimitedError,
	RequestRefusedError,
	ServerError,
	TimeoutError,
	ValidationError,
	wrapsRefusal,
	notApiWords,
	rateLimitedWords,
} from './errors.js';
import {validationDetail} from './schemas/common.js';
import type {ServerClock} from './server-clock.js';
import {processTransport, type Transport} from './transport.js';

export {namedRateLimit, rateLimitWait} from './rate-limit.js';

/**
 * JSON over HTTP for both APIs. Each server's Transport (transport.ts) holds its keep-alive pools,
 * its clock estimate and its 429 pacing; a client given none uses the process's. Every request
 * has a headers timeout, a body timeout and a size cap; errors come back typed (errors.ts). GETs are retried on transient failures; POSTs never are, because a
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

type RawResponse = {status: number; headers: Record<string, string | string[] | undefined>; text: string};

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

async function readCapped(body: Dispatcher.ResponseData['body'], maxBytes: number, deadlineMs: number): Promise<string> {
	const chunks: Buffer[] = [];
	let size = 0;
	const started = Date.now();
	// Checked between chunks too: a trickle that never pauses long enough for undici's idle timeout.
	const deadline = setTimeout(() => body.destroy(new TimeoutError(`the answer came too slowly (${formatBytes(size)} in ${Math.round(deadlineMs / 1000)} s); stopped reading`)), deadlineMs);
	try {
		for await (const chunk of body) {
			size += (chunk as Buffer).length;
			if (size > maxBytes) {
				body.destroy();
				throw new ApiError(`the response is larger than ${formatBytes(maxBytes)}; stopped reading`);
			}
			if (Date.now() - started > deadlineMs) {
				body.destroy();
				throw new TimeoutError(`the answer came too slowly (${formatBytes(size)} in ${Math.round(deadlineMs / 1000)} s); stopped reading`);
			}
			chunks.push(chunk as Buffer);
		}
	} finally {
		clearTimeout(deadline);
	}
	// Invalid UTF-8 becomes U+FFFD rather than an exception.
	return Buffer.concat(chunks).toString('utf8');
}

function formatBytes(bytes: number): string {
	if (bytes >= 1024 * 1024) return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;
	if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KiB`;
	return `${bytes} bytes`;
}

/**
 * The longest Retry-After a request waits out on its own. A longer one (an hour-long block) is
 * handed to the caller as the RateLimitedError, which says when to retry, instead of a request
 * that silently hangs.
 */
const maxRetryAfterWaitMs = 60_000;

function retryDelay(error: unknown, attempt: number): number | undefined {
	if (error instanceof RateLimitedError) {
		if (error.retryAfterMs !== undefined && error.retryAfterMs > maxRetryAfterWaitMs) return undefined;
		// The pause itself is kept by pace(): every request to the origin waits it out.
		return error.retryAfterMs ?? Math.max(1000, fullJitterDelay(attempt, {baseMs: 1000}));
	}
	if (error instanceof ServerError && [502, 503, 504].includes(error.status ?? 0) && !wrapsRefusal(error)) {
		const retryAfterMs = (error as ServerError & {retryAfterMs?: number}).retryAfterMs;
		if (retryAfterMs !== undefined && retryAfterMs > maxRetryAfterWaitMs) return undefined;
		return retryAfterMs ?? fullJitterDelay(attempt);
	}
	if (error instanceof NetworkError || error instanceof TimeoutError) return fullJitterDelay(attempt);
	return undefined;
}

function notApi(url: URL): NotApiError {
	return new NotApiError(
		`${url.origin} answered with a web page instead of JSON: ${notApiWords} (check the base URL)`,
		200,
		url.pathname,
	);
}

/** The server's own words from a FastAPI `{detail}` or SaaS `{error}` body, shortened, credentials cut out. */
function serverWords(body: unknown, text: string, credentials: readonly string[]): string {
	let words = text.trim();
	if (body && typeof body === 'object') {
		const record = body as Record<string, unknown>;
		const value = ['detail', 'error', 'message'].map((key) => record[key]).find((entry) => typeof entry === 'string');
		if (typeof value === 'string') words = value;
	}
	return scrub(words, credentials).slice(0, 300);
}

function scrub(text: string, credentials: readonly string[]): string {
	// Longest first, so `Bearer <key>` goes whole before the key alone is looked for.
	for (const credential of [...credentials].sort((a, b) => b.length - a.length)) text = text.replaceAll(credential, '[redacted]');
	return text;
}

function interpret(method: string, url: URL, response: RawResponse, credentials: readonly string[] = []): unknown {
	const {status, headers, text} = response;
	const where = `${method} ${url.pathname}`;
	const contentType = String(headers['content-type'] ?? '');
	const looksHtml = contentType.includes('text/html') || /^\s*<(!doctype|html)/i.test(text);
	let body: unknown;
	let parsed = false;
	if (!looksHtml && text.trim().length > 0) {
		try {
			body = JSON.parse(text);
			parsed = true;
		} catch {
			// Reported below, depending on the status.
		}
	}
	if (status >= 200 && status < 300) {
		if (looksHtml) throw notApi(url);
		if (text.trim().length === 0) return undefined;
		if (!parsed) throw new ProtocolError(`${where}: the server sent a body that is not JSON`, status, url.pathname);
		return body;
	}
	const words = serverWords(body, looksHtml ? '' : text, credentials);
	if (status === 401 || status === 403) {
		throw new KeyRejectedError(
			`${where}: key rejected (${status}${words ? `: ${words}` : ''}); check the API key or session key`,
			status,
			url.pathname,
		);
	}
	if (status === 404) {
		const bare = !words || words === 'Not Found';
		throw new NotFoundError(`${where}: not found${bare ? '' : ` (${words})`}`, status, url.pathname, bare);
	}
	if (status === 422) {
		const detail = Array.isArray((body as {detail?: unknown})?.detail)
			? ((body as {detail: unknown[]}).detail.flatMap((entry) => {
					const result = validationDetail.safeParse(entry);
					// `input` echoes what was sent (a header, for a header error): never kept.
					return result.success ? [{loc: result.data.loc, msg: scrub(result.data.msg, credentials), type: result.data.type}] : [];
				}))
			: [];
		const summary = detail.map((entry) => `${entry.loc.join('.')}: ${entry.msg}`).join('; ') || words;
		throw new ValidationError(`${where}: the server refused the request: ${summary}`, detail, status, url.pathname);
	}
	if (status === 429) {
		const {waitMs, spacingMs} = rateLimitWait(headers, words);
		const error = new RateLimitedError(`${where}: ${rateLimitedWords} ${Math.max(1, Math.ceil(waitMs / 1000))} s`, waitMs, url.pathname);
		const named = namedRateLimit(headers, words);
		if (named) error.namedLimit = named;
		throw Object.assign(error, {spacingMs});
	}
	if (status >= 500) {
		const error = new ServerError(`${where}: server error ${status}${words ? `: ${words}` : ''}`, status, url.pathname);
		const upstream = status === 502 ? /^Agent server error: (\d{3})$/.exec(words) : null;
		if (upstream) error.upstreamStatus = Number(upstream[1]);
		const retryAfterMs = parseRetryAfter(headers['retry-after']);
		if (retryAfterMs !== undefined) Object.assign(error, {retryAfterMs});
		throw error;
	}
	if (status >= 300 && status < 400) {
		// Never followed: a redirect could carry the key to another host. Say where it pointed.
		const location = headers.location;
		const target = Array.isArray(location) ? location[0] : location;
		const shown = target ? scrub(safeLocation(target, url), credentials) : null;
		throw new RequestRefusedError(
			`${where}: the server answered with a redirect (${status})${shown ? ` to ${shown}` : ''}, which was not followed; check the base URL${shown ? ' (use the address it points to if you trust it)' : ''}`,
			status,
			url.pathname,
		);
	}
	throw new RequestRefusedError(`${where}: refused (${status}${words ? `: ${words}` : ''})`, status, url.pathname);
}

/** A Location for a message: resolved against the request, without user info or query (either may hold a credential). */
function safeLocation(location: string, base: URL): string {
	try {
		const target = new URL(location, base);
		return `${target.protocol}//${target.host}${target.pathname}`.slice(0, 200);
	} catch {
		return JSON.stringify(location.slice(0, 100));
	}
}

/** The caller's own reason when it is one of ours (a closed client), else a plain cancellation. */
function cancelled(method: string, url: URL, signal: AbortSignal | undefined): ApiError {
	const reason: unknown = signal?.reason;
	return reason instanceof ApiError ? reason : new ApiError(`${method} ${url.pathname}: cancelled`, undefined, url.pathname);
}

const notSentCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENETDOWN']);

/**
 * `headersStatus`: the status of an answer whose headers had arrived when it failed (the failure
 * was in its body); undefined when nothing had come back yet.
 */
function networkError(method: string, url: URL, error: unknown, headersStatus?: number): ApiError {
	const where = `${method} ${url.pathname}`;
	const midBody = headersStatus !== undefined;
	if (error instanceof ApiError) return error;
	const err = error as {name?: string; code?: string; message?: string; cause?: {code?: string}};
	if (err?.name === 'AbortError') return new ApiError(`${where}: cancelled`, undefined, url.pathname);
	const answerTimeout = error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError;
	// Which part was late: the headers (no answer at all) or the body after them.
	const late = midBody || error instanceof undiciErrors.BodyTimeoutError
		? `${url.host} sent its headers${midBody ? ` (HTTP ${headersStatus})` : ''}, but the body stalled (no data in time)`
		: `${url.host} did not answer in time (no response headers came)`;
	if (answerTimeout && method !== 'GET') {
		// The request was sent and may be acted on however late the answer is: not a plain timeout.
		return new OutcomeUnknownError(`${where}: ${late}; the request may have gone through, check before trying again`, undefined, url.pathname);
	}
	if (answerTimeout) return new TimeoutError(`${where}: ${late}`, undefined, url.pathname);
	if (err?.code === 'UND_ERR_CONNECT_TIMEOUT') {
		return new TimeoutError(`${where}: ${url.host} did not accept the connection in time`, undefined, url.pathname);
	}
	const code = err?.code ?? err?.cause?.code;
	if (method !== 'GET' && !notSentCodes.has(code ?? '')) {
		return new OutcomeUnknownError(
			`${where}: the connection broke${midBody ? ' while reading the answer' : ''}; the request may have gone through, check before trying again`,
			undefined,
			url.pathname,
		);
	}
	const reason = code === 'ECONNREFUSED' ? 'connection refused' : code === 'ENOTFOUND' ? 'host not found' : (code ?? err?.message ?? 'network error');
	// The server was reached and began to answer: it is not unreachable.
	if (midBody) return new NetworkError(`${where}: ${url.host} closed the connection mid-response (${reason})`, code, url.pathname);
	return new NetworkError(`${where}: cannot reach ${url.host} (${reason})`, code, url.pathname);
}

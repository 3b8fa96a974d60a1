import type {Dispatcher} from 'undici';
import {parseRetryAfter} from './backoff.js';
import {
	ApiError,
	KeyRejectedError,
	NotApiError,
	NotFoundError,
	ProtocolError,
	RateLimitedError,
	RequestRefusedError,
	ServerError,
	TimeoutError,
	ValidationError,
	notApiWords,
	rateLimitedWords,
} from './errors.js';
import {namedRateLimit, rateLimitWait} from './rate-limit.js';
import {validationDetail} from './schemas/common.js';

/**
 * Reading an HTTP answer (http.ts sends the request): its body, capped in size and time, and what
 * its status and body mean, JSON or a typed error (errors.ts) with the server's own words and
 * never a credential.
 */

export type RawResponse = {status: number; headers: Record<string, string | string[] | undefined>; text: string};

export async function readCapped(body: Dispatcher.ResponseData['body'], maxBytes: number, deadlineMs: number): Promise<string> {
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

export function notApi(url: URL): NotApiError {
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

export function interpret(method: string, url: URL, response: RawResponse, credentials: readonly string[] = []): unknown {
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


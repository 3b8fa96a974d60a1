import {errors as undiciErrors} from '../boundary/undici-parts.js';
import {fullJitterDelay} from './backoff.js';
import {ApiError, NetworkError, OutcomeUnknownError, RateLimitedError, ServerError, TimeoutError, wrapsRefusal} from './errors.js';

/**
 * What a failed HTTP attempt becomes (http.ts): a typed error for a request that got no full
 * answer (refused, timed out, broken, cancelled), and whether and when a GET is tried again.
 */

/**
 * The longest Retry-After a request waits out on its own. A longer one (an hour-long block) is
 * handed to the caller as the RateLimitedError, which says when to retry, instead of a request
 * that silently hangs.
 */
const maxRetryAfterWaitMs = 60_000;

export function retryDelay(error: unknown, attempt: number): number | undefined {
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

/** The caller's own reason when it is one of ours (a closed client), else a plain cancellation. */
export function cancelled(method: string, url: URL, signal: AbortSignal | undefined): ApiError {
	const reason: unknown = signal?.reason;
	return reason instanceof ApiError ? reason : new ApiError(`${method} ${url.pathname}: cancelled`, undefined, url.pathname);
}

const notSentCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENETDOWN']);

/**
 * `headersStatus`: the status of an answer whose headers had arrived when it failed (the failure
 * was in its body); undefined when nothing had come back yet.
 */
export function networkError(method: string, url: URL, error: unknown, headersStatus?: number): ApiError {
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

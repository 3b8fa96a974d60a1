import type {ValidationDetail} from './schemas/common.js';

/**
 * Typed failures of both APIs. Messages are written for the person at the terminal and never
 * contain a credential: they are built from the method, the URL path and the server's words.
 */
export class ApiError extends Error {
	override name = 'ApiError';
	constructor(
		message: string,
		readonly status?: number,
		readonly url?: string,
	) {
		super(message);
	}
}

/** 401/403: retrying will not help; the user must fix the key. */
export class KeyRejectedError extends ApiError {
	override name = 'KeyRejectedError';
}

export class NotFoundError extends ApiError {
	override name = 'NotFoundError';
	constructor(
		message: string,
		status?: number,
		url?: string,
		/**
		 * The server said only FastAPI's "Not Found" (or nothing): no route at that path, as
		 * opposed to a route that answered "no such conversation". An older server lacks the route.
		 */
		readonly bare = false,
	) {
		super(message, status, url);
	}
}

/** 400/409/410 and other refusals the server explains in words. */
export class RequestRefusedError extends ApiError {
	override name = 'RequestRefusedError';
}

export class ValidationError extends ApiError {
	override name = 'ValidationError';
	constructor(
		message: string,
		readonly detail: ValidationDetail[],
		status?: number,
		url?: string,
	) {
		super(message, status, url);
	}
}

export class RateLimitedError extends ApiError {
	override name = 'RateLimitedError';
	/** The limit the 429 named (`20 per 1 minute`: 20 and 60 000 ms), when it named one. */
	namedLimit?: {limit: number; windowMs: number};
	constructor(
		message: string,
		readonly retryAfterMs: number | undefined,
		url?: string,
	) {
		super(message, 429, url);
	}
}

export class ServerError extends ApiError {
	override name = 'ServerError';
	/**
	 * A 502 of the app server's proxy that carries the agent server's own status (`Agent server
	 * error: 400`, app_conversation_router.py `_proxy_git_runtime_call`): the agent server answered.
	 */
	upstreamStatus?: number;
}

/** A 502 wrapping an agent server's 4xx: as deterministic as the 4xx itself, never worth a retry. */
export function wrapsRefusal(error: unknown): boolean {
	return error instanceof ServerError && error.upstreamStatus !== undefined && error.upstreamStatus >= 400 && error.upstreamStatus < 500;
}

/** Could not reach the server at all (refused, DNS, reset, TLS). */
export class NetworkError extends ApiError {
	override name = 'NetworkError';
	constructor(
		message: string,
		readonly code?: string,
		url?: string,
	) {
		super(message, undefined, url);
	}
}

export class TimeoutError extends ApiError {
	override name = 'TimeoutError';
}

/** A 200 whose body is a web page: the base URL points at the web app, not its API. */
/** What every 429's message says: the server answered, asking to wait (a watchdog counts it as contact). */
export const rateLimitedWords = 'rate limited; retry in';

/** What every "web page instead of JSON" message says, for the views to recognise. */
export const notApiWords = 'this URL is not the API';

export class NotApiError extends ApiError {
	override name = 'NotApiError';
}

/** The server answered, but not with what the API promises (bad JSON, wrong envelope, too big). */
export class ProtocolError extends ApiError {
	override name = 'ProtocolError';
}

/**
 * A POST whose connection broke before an answer: it may have taken effect. Never retried
 * automatically; the message says so.
 */
export class OutcomeUnknownError extends ApiError {
	override name = 'OutcomeUnknownError';
}

/** Whether an error is worth retrying later (network trouble, rate limits, 5xx, timeouts). */
export function isTransient(error: unknown): boolean {
	return (
		error instanceof NetworkError ||
		error instanceof TimeoutError ||
		error instanceof RateLimitedError ||
		(error instanceof ServerError && (error.status ?? 500) >= 500 && !wrapsRefusal(error))
	);
}

export function errorMessage(error: unknown): string {
	if (error instanceof Error) return error.message;
	return String(error);
}

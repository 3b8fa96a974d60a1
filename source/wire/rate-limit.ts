import {parseRetryAfter} from './backoff.js';

/**
 * How long a 429 asks us to wait, and how far apart requests must go from then on. The hosted
 * service rounds its per-second window down, so `Retry-After: 0` means "after the window", not
 * "now": a 0 (or no header) waits until X-RateLimit-Reset, and at least one window (1 s, or the
 * one its message names: "10 per 1 second"). The limit over the window is the spacing.
 */
export function rateLimitWait(headers: Record<string, string | string[] | undefined>, message = '', now = Date.now()): {waitMs: number; spacingMs: number} {
	const header = (name: string) => {
		const value = headers[name];
		return Array.isArray(value) ? value[0] : value;
	};
	const named = namedRateLimit(headers, message);
	const windowMs = named?.windowMs ?? 1000;
	const limit = named?.limit ?? Number(header('x-ratelimit-limit'));
	const spacingMs = Number.isFinite(limit) && limit > 0 ? Math.ceil(windowMs / limit) : 0;
	const reset = Number(header('x-ratelimit-reset'));
	// Epoch seconds (the usual) or seconds from now.
	const resetInMs = Number.isFinite(reset) && reset > 0 ? (reset > 1e9 ? reset * 1000 - now : reset * 1000) : undefined;
	const retryAfterMs = parseRetryAfter(header('retry-after'), now);
	if (retryAfterMs !== undefined && retryAfterMs > 0) return {waitMs: retryAfterMs, spacingMs};
	const untilReset = resetInMs !== undefined && resetInMs > 0 && resetInMs <= 3_600_000 ? resetInMs : 0;
	return {waitMs: Math.max(untilReset, Math.min(windowMs, 60_000), 1000), spacingMs};
}

/**
 * The limit a 429 names, as the hosted service names it (`str()` of the `limits` library's item,
 * OH enterprise/server/rate_limit.py): `X-RateLimit-Limit: 100 per 1 minute` and the body's
 * `Rate limit exceeded: 100 per 1 minute`. A bare number names no window: null then.
 */
export function namedRateLimit(headers: Record<string, string | string[] | undefined>, message = ''): {limit: number; windowMs: number} | null {
	const value = headers['x-ratelimit-limit'];
	const header = Array.isArray(value) ? value[0] : value;
	for (const text of [header ?? '', message]) {
		const named = /(\d+)\s+per\s+(\d+)?\s*(second|minute|hour)s?/i.exec(text);
		if (!named) continue;
		const limit = Number(named[1]);
		const windowMs = Number(named[2] ?? 1) * {second: 1000, minute: 60_000, hour: 3_600_000}[named[3]!.toLowerCase() as 'second'];
		if (limit > 0 && windowMs > 0) return {limit, windowMs};
	}
	return null;
}

/**
 * Exponential backoff with full jitter: a random wait in [0, min(cap, base·2^attempt)].
 * Full jitter spreads reconnecting clients apart instead of having them retry in lock step.
 */
export type BackoffOptions = {baseMs?: number; capMs?: number; random?: () => number};

export function fullJitterDelay(attempt: number, options: BackoffOptions = {}): number {
	const base = options.baseMs ?? 500;
	const cap = options.capMs ?? 30_000;
	const random = options.random ?? Math.random;
	const ceiling = Math.min(cap, base * 2 ** Math.min(attempt, 30));
	return Math.floor(random() * ceiling);
}

/** Kept here for its callers; the one abortable wait is in abortable-sleep.ts. */
export {sleep} from './abortable-sleep.js';

/** `Retry-After` as seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
	const text = Array.isArray(value) ? value[0] : value;
	if (!text) return undefined;
	const seconds = Number(text.trim());
	if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
	const date = Date.parse(text);
	if (Number.isNaN(date)) return undefined;
	return Math.max(0, date - now);
}

import type {PollerIntervals} from '../config/poller-intervals.js';
import {fullJitterDelay} from '../wire/backoff.js';
import {RateLimitedError} from '../wire/errors.js';
import type {PollerHealth} from './poller-types.js';

/**
 * The conversation poller's health as its answers change it (conversation-poller.ts): a success,
 * a stop (the budget closed), a rejected key, and when a transient failure retries.
 */

/** A success. The same object, but for its time, while nothing a person would see has changed. */
export function healthAfterSuccess(health: PollerHealth, now: number): PollerHealth {
	if (health.ok && health.lastSuccessAt !== null && now - health.lastSuccessAt < 1000) return {...health, lastSuccessAt: now};
	return {ok: true, lastSuccessAt: now, lastError: null, keyRejected: false, nextRetryAt: null};
}

/** Nothing can be sent again (the budget closed under a running poller). */
export function healthStopped(health: PollerHealth): PollerHealth {
	return {...health, ok: false, lastError: 'Polling stopped: the connection to the server was closed.', nextRetryAt: null};
}

export function healthKeyRejected(health: PollerHealth): PollerHealth {
	return {
		...health,
		ok: false,
		keyRejected: true,
		lastError: 'The server rejected the API key; polling stopped. Fix the key, then press ctrl-r.',
		nextRetryAt: null,
	};
}

/** When to try again after the `failures`-th failure in a row: full jitter, and never before a 429's shared backoff ends. */
export function retryAt(
	error: unknown,
	failures: number,
	now: number,
	options: {intervals: Pick<PollerIntervals, 'retryBaseMs' | 'retryCapMs'>; random: () => number; backoffUntil: () => number | null},
): number {
	const jitter = fullJitterDelay(failures, {baseMs: options.intervals.retryBaseMs, capMs: options.intervals.retryCapMs, random: options.random});
	// A 429 set the shared backoff in the budget: retry when it ends, not before.
	const backoff = error instanceof RateLimitedError ? (options.backoffUntil() ?? now) : now;
	return Math.max(backoff, now + Math.max(options.intervals.retryBaseMs / 2, jitter));
}

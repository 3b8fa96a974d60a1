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

/** Resolves after `ms`, or rejects with the signal's reason when it is aborted first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
	return new Promise((resolve, reject) => {
		if (signal?.aborted) {
			reject(signal.reason);
			return;
		}
		const timer = setTimeout(() => {
			signal?.removeEventListener('abort', onAbort);
			resolve();
		}, ms);
		const onAbort = () => {
			clearTimeout(timer);
			reject(signal?.reason);
		};
		signal?.addEventListener('abort', onAbort, {once: true});
	});
}

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

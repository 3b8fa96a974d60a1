/**
 * The one way a test waits for something to happen: poll, never sleep a fixed time, and fail
 * loudly when it does not happen in time, saying what was awaited, for how long, and (through
 * `detail`) what was seen last. Every other waiting helper in test/helpers is a thin adapter.
 */

export type EventuallyOptions<T> = {
	/** How long before failing; generous by default, the machine may be loaded. */
	timeoutMs?: number;
	pollMs?: number;
	/** When `read` returns a value rather than a boolean: the condition it must meet. */
	until?: (value: T) => boolean;
	/** Added to the failure: the last value, a screen, a process's output. */
	detail?: (last: T | undefined) => string;
};

export async function eventually<T>(read: () => T | Promise<T>, what: string, options: EventuallyOptions<T> = {}): Promise<T> {
	const timeoutMs = options.timeoutMs ?? 5000;
	const until = options.until ?? ((value: T) => Boolean(value));
	const started = Date.now();
	let last: T | undefined;
	for (;;) {
		last = await read();
		if (until(last)) return last;
		if (Date.now() - started > timeoutMs) {
			const detail = options.detail?.(last);
			throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${detail ? `\n${detail}` : ''}`);
		}
		await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 10));
	}
}

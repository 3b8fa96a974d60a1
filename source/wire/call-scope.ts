import {ApiError} from './errors.js';

/**
 * Ties every call of a client to the client's lifetime: `close()` aborts whatever is still in
 * flight (a stream-start can wait minutes for a sandbox, and the shared connection pool cannot
 * shut down while a request is open) and refuses new calls.
 *
 * Each call gets its own controller that follows both the caller's signal and the client's,
 * and releases its listeners when the call ends (a long-lived signal shared by thousands of
 * polls must not collect listeners).
 */
export class CallScope {
	readonly #closing = new AbortController();

	get closed(): boolean {
		return this.#closing.signal.aborted;
	}

	close(): void {
		this.#closing.abort(new ApiError('the client was closed'));
	}

	/** A signal for one call; `release()` must be called when the call ends. */
	enter(callerSignal?: AbortSignal): {signal: AbortSignal; release: () => void} {
		if (this.closed) throw new ApiError('the client is closed');
		const controller = new AbortController();
		const sources = [this.#closing.signal, ...(callerSignal ? [callerSignal] : [])];
		const onAbort = (event: Event) => controller.abort((event.target as AbortSignal).reason);
		for (const source of sources) {
			if (source.aborted) {
				controller.abort(source.reason);
				break;
			}
			source.addEventListener('abort', onAbort, {once: true});
		}
		const release = () => {
			for (const source of sources) source.removeEventListener('abort', onAbort);
		};
		return {signal: controller.signal, release};
	}
}

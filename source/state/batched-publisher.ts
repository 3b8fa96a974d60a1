/**
 * The notification side of the store, for `useSyncExternalStore`: changes are collected and
 * published at most once per `flushMs`, trailing (the first change after a quiet spell waits
 * `flushMs` so a burst of poll results, stream events and actions becomes one render). When
 * nothing changed nothing is published, so an idle dashboard never re-renders.
 *
 * `getSnapshot()` returns the last published value and only changes when listeners are told,
 * which is what React requires (a value that changes between calls tears the UI).
 */
export class BatchedPublisher<T> {
	#flushMs: number;
	readonly #listeners = new Set<() => void>();
	#published: T;
	#build: (() => T) | null = null;
	#timer: ReturnType<typeof setTimeout> | undefined;
	#closed = false;
	/** When the last flush ran (ms, performance clock); -Infinity before the first. */
	#lastFlushAt = Number.NEGATIVE_INFINITY;

	constructor(initial: T, flushMs = 100) {
		this.#published = initial;
		this.#flushMs = Math.max(0, flushMs);
	}

	get = (): T => this.#published;

	subscribe = (listener: () => void): (() => void) => {
		this.#listeners.add(listener);
		return () => {
			this.#listeners.delete(listener);
		};
	};

	/** The window from now on (the store stretches it while a stream floods in: flood-window.ts). */
	setWindow(ms: number): void {
		this.#flushMs = Math.max(0, ms);
	}

	/**
	 * Marks the state dirty. `build` is called once, at flush time, to produce the next value;
	 * returning the current value (identity) means "nothing to publish after all".
	 */
	schedule(build: () => T): void {
		if (this.#closed) return;
		this.#build = build;
		// Leading and trailing: a change after a quiet spell goes out at once (the first data,
		// the answer to a key), a burst right after it waits out the rest of the window.
		const wait = Math.max(0, this.#flushMs - (performance.now() - this.#lastFlushAt));
		this.#timer ??= setTimeout(() => {
			this.#timer = undefined;
			this.flush();
		}, wait);
	}

	/** Publishes now if something is pending (tests and close use it). */
	flush(): void {
		if (this.#timer !== undefined) {
			clearTimeout(this.#timer);
			this.#timer = undefined;
		}

		const build = this.#build;
		this.#build = null;
		if (!build) return;
		this.#lastFlushAt = performance.now();
		const next = build();
		if (Object.is(next, this.#published)) return;
		this.#published = next;
		for (const listener of [...this.#listeners]) {
			try {
				listener();
			} catch {
				// A listener's failure must not stop the others or the store.
			}
		}
	}

	close(): void {
		this.#closed = true;
		if (this.#timer !== undefined) clearTimeout(this.#timer);
		this.#timer = undefined;
		this.#build = null;
	}
}

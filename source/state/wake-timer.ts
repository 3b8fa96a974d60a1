/**
 * The one timer a pump keeps (the request budget's, the conversation poller's): set for the
 * moment the next thing is due, cleared when nothing is, and it knows when it will fire.
 */
export class WakeTimer {
	readonly #now: () => number;
	readonly #fire: () => void;
	#timer: ReturnType<typeof setTimeout> | undefined;
	#at = Number.POSITIVE_INFINITY;

	constructor(now: () => number, fire: () => void) {
		this.#now = now;
		this.#fire = fire;
	}

	/** Whether it is set. */
	get armed(): boolean {
		return this.#timer !== undefined;
	}

	/** When it fires (infinity when it is not set). */
	get at(): number {
		return this.#at;
	}

	/** Replaces any earlier setting: fires once, at `at` (at once when that has passed). */
	set(at: number): void {
		this.clear();
		this.#at = at;
		this.#timer = setTimeout(
			() => {
				this.#timer = undefined;
				this.#at = Number.POSITIVE_INFINITY;
				this.#fire();
			},
			Math.max(0, at - this.#now()),
		);
	}

	clear(): void {
		if (this.#timer !== undefined) clearTimeout(this.#timer);
		this.#timer = undefined;
		this.#at = Number.POSITIVE_INFINITY;
	}
}

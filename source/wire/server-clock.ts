/**
 * The servers' clock, estimated from the `Date` header of their answers. Every age on screen
 * ("3m", "quiet 12m", "error for 4m") compares a server timestamp with now: with our clock and a
 * server three weeks behind, a conversation started a minute ago would show `21d`. So ages use
 * server time: our time plus the offset estimated here.
 *
 * A `Date` header has one-second resolution and is stamped somewhere between our send and our
 * receipt. One sample is therefore off by up to a second plus the round trip; the estimate is the
 * median of the recent samples (a slow answer or a proxy's cached header is an outlier, not the
 * truth). Our own clock still runs timers and the request budget: only the display and the
 * attention figures, which compare against server timestamps, use server time.
 */

/** Samples kept for the median. */
const keep = 15;

export class ServerClock {
	readonly #samples: number[] = [];
	readonly #local: () => number;
	#offset = 0;

	constructor(local: () => number = () => Date.now()) {
		this.#local = local;
	}

	/**
	 * One answer's `Date` header, with when the request was sent and the answer arrived (our ms).
	 * Unreadable or absent headers are ignored.
	 */
	observe(dateHeader: string | string[] | undefined, sentAt: number, receivedAt: number): void {
		const text = Array.isArray(dateHeader) ? dateHeader[0] : dateHeader;
		if (!text) return;
		const server = Date.parse(text);
		if (Number.isNaN(server)) return;
		// The header is truncated to the second: the middle of that second is the best guess,
		// taken at the middle of the round trip.
		const sample = server + 500 - (sentAt + receivedAt) / 2;
		this.#samples.push(sample);
		if (this.#samples.length > keep) this.#samples.shift();
		const sorted = [...this.#samples].sort((a, b) => a - b);
		this.#offset = sorted[Math.floor(sorted.length / 2)]!;
	}

	/** Server time minus ours, in ms (negative: the server is behind). 0 until an answer came. */
	offsetMs(): number {
		return this.#offset;
	}

	/** How many answers the estimate rests on. */
	samples(): number {
		return this.#samples.length;
	}

	/** Now, by the server's clock. */
	now(): number {
		return this.#local() + this.#offset;
	}
}

/** The process's estimate: every HTTP client reports to it unless given its own. */
export const serverClock = new ServerClock();

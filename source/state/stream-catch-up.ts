import {errorMessage} from '../wire/errors.js';
import {isFatal} from './stream-connection.js';
import type {StreamStatus} from './stream-types.js';

export type RestCatchUpOptions = {
	/** The supervisor has closed or failed. */
	stopped: () => boolean;
	/** A connection holds: its first resync has ended. */
	holds: () => boolean;
	/** One read onward from the watermark to the end (after the one under way); `onStart` runs as it begins. */
	read: (onStart: () => void) => Promise<void>;
	/** The ids of the frames held now. */
	heldIds: () => ReadonlySet<string>;
	/** Adds the held frames with these ids to the log. */
	mergeHeld: (ids: ReadonlySet<string>) => void;
	setStatus: (patch: Partial<StreamStatus>) => void;
	/** A fatal failure (a refused key, an unknown conversation): everything stops. */
	fail: (message: string) => void;
	now: () => number;
	/** The wait between reads. */
	intervalMs: () => number;
};

/**
 * Reading on over REST while no connection holds, for a StreamSupervisor (stream-supervisor.ts).
 *
 * Progress does not depend on the socket staying up. A REST read that extends the watermark
 * (backfill, resync, repair from below it) runs one at a time and is cancelled only by close():
 * a socket that drops while its resync pages are in flight leaves them to land, and the next
 * connection's resync waits for them and reads on from where they ended. While no connection
 * holds (after the backfill, after a drop), the history is read onward over REST every
 * `catchUpIntervalMs`, at once after `catchUpAfterFailures` connections in a row ended before
 * their resync did, so events keep arriving (in server order, held frames are merged once a read
 * that began after them has ended) however the sockets behave: refused, never answering, dropping
 * at once. A read that reached the end with nothing held back settles the stream as a live one
 * does: a follower sees a conversation's end even if no socket ever holds.
 */
export class RestCatchUp {
	/** While no connection holds: a REST read reached the end and merged what was held before it. */
	caughtUp = false;
	/** Reading on over REST while no connection holds (StreamStatus.overRest). */
	overRest = false;
	#timer: NodeJS.Timeout | undefined;
	#running = false;
	readonly #options: RestCatchUpOptions;

	constructor(options: RestCatchUpOptions) {
		this.#options = options;
	}

	/** The next read in `delayMs` (0: at once, replacing a later one); nothing while one is due or under way. */
	schedule(delayMs: number): void {
		if (this.#options.stopped() || this.#running) return;
		if (this.#timer) {
			if (delayMs > 0) return;
			clearTimeout(this.#timer);
		}
		this.#timer = setTimeout(() => void this.#run(), delayMs);
	}

	/** A connection held through its resync: the REST catch-up, if any, is over. */
	stop(): void {
		this.caughtUp = false;
		this.overRest = false;
		this.cancel();
	}

	/** No read is due any more (one under way lands). */
	cancel(): void {
		clearTimeout(this.#timer);
		this.#timer = undefined;
	}

	/** One REST read from the watermark to the end; then the next, until a connection holds. */
	async #run(): Promise<void> {
		this.#timer = undefined;
		const {stopped, holds, setStatus} = this.#options;
		if (stopped() || holds()) return;
		this.#running = true;
		// Frames already received were stored on the server before the read's first page is asked for.
		let before: ReadonlySet<string> = new Set();
		try {
			await this.#options.read(() => {
				before = this.#options.heldIds();
				// Said as the read starts, not when it ends: a long history takes many pages.
				if (!this.overRest && !holds()) {
					this.overRest = true;
					setStatus({});
				}
			});
			if (stopped()) return;
			this.#options.mergeHeld(before);
			this.caughtUp = true;
			// Complete up to its newest event: a gap from a failed resync is closed.
			setStatus({gap: false, restReadAt: this.#options.now()});
		} catch (error) {
			if (stopped()) return;
			if (isFatal(error)) {
				this.#options.fail(errorMessage(error));
				return;
			}
			this.caughtUp = false;
			// Nothing is being read: no longer "over REST" until the next read starts.
			this.overRest = false;
			setStatus({restReadAt: undefined});
		} finally {
			this.#running = false;
		}
		if (!holds()) this.schedule(this.#options.intervalMs());
	}
}

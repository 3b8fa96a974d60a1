/**
 * A key's frame, drawn after the request the key started has gone out.
 *
 * React 19 renders what a key changed in a microtask, before the event loop turns. undici 8
 * writes a request on a reused keep-alive socket only in a later check phase: it first yields so
 * that a close the server already sent is seen (`scheduleIdleSocketValidation`,
 * lib/dispatcher/client-h1.js, GHSA-35p6-xmwp-9g52). Opening a stopped conversation therefore drew
 * its first frame (the timeline pane before the answer, 5-8 ms at 160x48) and only then sent the
 * read of its stored events, so the server started after the frame was done. Held, the request
 * leaves first, and the server answers while the frame is drawn.
 *
 * While held, the store's notifications (the gated `subscribe`) and the view's actions passed to
 * `hold` wait. They run, in order, two check phases later (the first lets the request's promise
 * chain reach undici, whose own turn comes before the second), or before the next key
 * (`release`, from the key dispatcher), whichever is first: a key still meets the screen its
 * predecessor made. Only a key read on its own is held (`allowed`, set by the dispatcher); keys
 * of one read are handled one after another against committed renders, as before.
 */
export class FrameHold {
	/** Set by the key dispatcher while it handles a key read on its own. */
	allowed = false;
	#queue: Array<() => void> | null = null;

	/** Whether a frame is being held now. */
	get held(): boolean {
		return this.#queue !== null;
	}

	/**
	 * Runs `act` (which may start requests and change the store) now, and `after` (the view's own
	 * actions) once released; when holding is not allowed, both now.
	 */
	hold(act: () => void, after: () => void): void {
		if (!this.allowed && !this.#queue) {
			act();
			after();
			return;
		}
		if (!this.#queue) {
			this.#queue = [];
			setImmediate(() => setImmediate(() => this.release()));
		}
		act();
		this.#queue.push(after);
	}

	/** Runs what waits, in order. Returns whether anything did. */
	release(): boolean {
		const queue = this.#queue;
		if (!queue) return false;
		this.#queue = null;
		const ran = new Set<() => void>();
		for (const run of queue) {
			// A listener told twice renders once.
			if (ran.has(run)) continue;
			ran.add(run);
			run();
		}
		return queue.length > 0;
	}

	/** A store's `subscribe` whose listeners wait while a frame is held. */
	gate(subscribe: (listener: () => void) => () => void): (listener: () => void) => () => void {
		return (listener) =>
			subscribe(() => {
				if (this.#queue) this.#queue.push(listener);
				else listener();
			});
	}
}

import {fullJitterDelay} from '../wire/backoff.js';
import type {Connection} from './stream-connection.js';
import type {StreamSupervisorOptions} from './stream-types.js';

const defaultBackoff = {baseMs: 500, capMs: 30_000};

/** Read when needed (as the supervisor's own options are). */
export type ReconnectPolicyOptions = Pick<StreamSupervisorOptions, 'backoff' | 'healthyAfterMs' | 'catchUpAfterFailures' | 'catchUpIntervalMs'>;

/** After a connection ended: when to connect again, and when to read on over REST meanwhile. */
export type Reconnect = {attempt: number; delayMs: number; catchUpInMs: number};

/**
 * A StreamSupervisor's waits. Reconnects go on with full-jitter backoff. The attempt counter resets
 * when a connection brought new events (it made progress: the next drop starts again from the
 * shortest wait) or stayed up for `healthyAfterMs`, so a server that accepts and drops at once
 * keeps backing off. While no connection holds, the history is read on over REST every
 * `catchUpIntervalMs`, at once after `catchUpAfterFailures` connections in a row ended before their
 * resync did.
 */
export class ReconnectPolicy {
	/** Reconnect attempts since a connection last made progress or stayed up. */
	#attempt = 0;
	/** Connections in a row that ended before their resync did. */
	#unheld = 0;
	readonly #options: ReconnectPolicyOptions;
	readonly #now: () => number;
	readonly #random: () => number;

	constructor(options: ReconnectPolicyOptions, now: () => number, random: () => number) {
		this.#options = options;
		this.#now = now;
		this.#random = random;
	}

	/** The wait before retry number `attempt` (0 first). */
	delay(attempt: number): number {
		const backoff = {...defaultBackoff, ...this.#options.backoff};
		return fullJitterDelay(attempt, {baseMs: backoff.baseMs, capMs: backoff.capMs, random: this.#random});
	}

	/** How often the history is read on over REST while no connection holds. */
	get catchUpIntervalMs(): number {
		return this.#options.catchUpIntervalMs ?? 2000;
	}

	/** A connection held through its resync: the REST catch-up is over. */
	held(): void {
		this.#unheld = 0;
	}

	/** `connection` ended (not fatally): the next attempt and its wait, and when to read on over REST. */
	afterDrop(connection: Connection): Reconnect {
		const now = this.#now();
		const healthy = connection.readyAt !== null && now - connection.readyAt >= (this.#options.healthyAfterMs ?? 30_000);
		// Progress (new events) or a long stay: the next wait is the shortest again.
		if (healthy || connection.delivered) this.#attempt = 0;
		const delayMs = this.delay(this.#attempt);
		this.#attempt++;
		// Read on over REST until a connection holds: soon if this one did not, at once after several.
		this.#unheld = connection.resyncDone ? 0 : this.#unheld + 1;
		const catchUpInMs = this.#unheld >= (this.#options.catchUpAfterFailures ?? 2) ? 0 : this.catchUpIntervalMs;
		return {attempt: this.#attempt, delayMs, catchUpInMs};
	}
}

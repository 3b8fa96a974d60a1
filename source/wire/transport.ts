import type {Dispatcher} from 'undici';
import {sleep} from './backoff.js';
import {ApiError, type RateLimitedError} from './errors.js';
import {Agent} from '../boundary/undici-parts.js';
import {ServerClock, serverClock} from './server-clock.js';

/**
 * What one server's HTTP traffic shares, and nothing else does: the keep-alive connection pool,
 * the estimate of the server's clock (from its answers), and the pacing a 429 imposes. The
 * app server and the agent servers of its conversations are one server here: they are reached
 * with the same account, answer with the same clock, and a profile switch leaves all of them.
 *
 * Whoever opens a server (commands/server.ts for a headless command, the dashboard's session
 * for each profile) creates its Transport and closes it with the server, so nothing of one
 * server carries over to the next and a closed server leaves no socket behind. Clients built
 * without one use `processTransport`, which tests and one-off callers close with
 * `closeHttpAgent()` (http.ts).
 */

/** After a 429 nothing goes to the origin until `pausedUntil`; from then on requests leave `spacingMs` apart. */
type Pacing = {pausedUntil: number; spacingMs: number; nextAt: number};

/** The longest Retry-After that pauses an origin on its own (longer ones are the caller's to wait out). */
const maxPauseMs = 60_000;

export type TransportOptions = {
	/** The server's clock estimate (default: a new one). */
	clock?: ServerClock;
	/** Tests may pass their own dispatcher (a MockAgent, a small pool). Not closed by `close()`. */
	dispatcher?: Dispatcher;
	/**
	 * Whether a request after `close()` opens a new pool (the process-wide default, closed between
	 * uses by tests) or is refused (a server's own transport: its owner closed it for good).
	 */
	reopens?: boolean;
};

export class TransportClosedError extends ApiError {
	override name = 'TransportClosedError';
	constructor() {
		super('the connection to this server was closed');
	}
}

export class Transport {
	readonly clock: ServerClock;
	readonly #given: Dispatcher | undefined;
	readonly #reopens: boolean;
	#agent: Agent | undefined;
	readonly #pacing = new Map<string, Pacing>();
	#closed = false;

	constructor(options: TransportOptions = {}) {
		this.clock = options.clock ?? new ServerClock();
		this.#given = options.dispatcher;
		this.#reopens = options.reopens ?? false;
	}

	/** The connection pool: per origin, keep-alive, bounded. Opened at the first request. */
	dispatcher(): Dispatcher {
		if (this.#given) return this.#given;
		if (this.#closed && !this.#reopens) throw new TransportClosedError();
		this.#closed = false;
		this.#agent ??= new Agent({keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000, connections: 8});
		return this.#agent;
	}

	/** Whether a pool is open (a test checks that closing left none). */
	get open(): boolean {
		return this.#agent !== undefined;
	}

	/**
	 * Waits until a request to `origin` may leave, as the last 429 from it asked; undefined when it
	 * may leave now. Not a resolved promise then: a caller that awaits nothing sends its request in
	 * the same turn, before Ink renders the key that asked for it (Ink 8 renders a key's update
	 * synchronously), not after that frame: opening a stored conversation sent its request 2-12 ms
	 * after the key, now within 1 ms.
	 */
	pace(origin: string, signal: AbortSignal | undefined): Promise<void> | undefined {
		const state = this.#pacing.get(origin);
		if (!state) return undefined;
		const now = Date.now();
		const at = Math.max(now, state.pausedUntil, state.nextAt);
		state.nextAt = at + state.spacingMs;
		return at > now ? sleep(at - now, signal) : undefined;
	}

	/** A 429 from `origin`: pause it for the wait it named, and space requests at the rate its limit allows. */
	slowDown(origin: string, error: RateLimitedError): void {
		const state = this.#pacing.get(origin) ?? {pausedUntil: 0, spacingMs: 0, nextAt: 0};
		const spacingMs = (error as RateLimitedError & {spacingMs?: number}).spacingMs ?? 0;
		state.spacingMs = Math.max(state.spacingMs, Math.min(spacingMs, 10_000));
		if (error.retryAfterMs !== undefined && error.retryAfterMs <= maxPauseMs) state.pausedUntil = Math.max(state.pausedUntil, Date.now() + error.retryAfterMs);
		this.#pacing.set(origin, state);
	}

	/** The origins a 429 has slowed (a test checks that a new server starts with none). */
	pacedOrigins(): string[] {
		return [...this.#pacing.keys()];
	}

	/** Closes the pool and forgets the pacing. In-flight requests end with an error. */
	async close(): Promise<void> {
		this.#closed = true;
		this.#pacing.clear();
		const agent = this.#agent;
		this.#agent = undefined;
		await agent?.close();
	}
}

/** The transport of clients built without one: the process-wide clock estimate and pool. */
export const processTransport = new Transport({clock: serverClock, reopens: true});

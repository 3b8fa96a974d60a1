import type {ServerResponse} from 'node:http';

/**
 * What the simulator was asked: counts per route pattern (the benchmark of request budgets) and a
 * log of the recent requests with when each came, how it ended and when (tests wait on it instead
 * of sleeping: "the request is on the wire", "the client gave up on it", "nothing was asked").
 */
export type RequestEntry = {
	/** The route pattern, as in `byRoute` (`GET /api/v1/app-conversations/search`). */
	key: string;
	/** The path asked, with its query (`/runtime/3/api/conversations/<id>/events/search?limit=100`). */
	path: string;
	/** Our clock (ms) when the request came in. */
	at: number;
	/** When the exchange ended (answered, or the client closed the connection first); null while open. */
	endedAt: number | null;
	/** The status sent, once ended. */
	status: number | null;
	/** The client closed the connection before the whole answer was written. */
	aborted: boolean;
	/** When the simulator was done with it: after an abort it may still be waiting out its latency. */
	handledAt: number | null;
};

export type RequestStats = {
	requests: number;
	byRoute: Record<string, number>;
	/** The newest requests, oldest first (at most `logLimit`; WebSocket handshakes are counted, not logged). */
	readonly log: readonly RequestEntry[];
	reset(): void;
};

const logLimit = 10_000;

/** `track` returns what to call when the handler is done. */
export function createRequestStats(): RequestStats & {count(key: string): void; track(key: string, response: ServerResponse, path?: string): () => void} {
	let log: RequestEntry[] = [];
	const stats = {
		requests: 0,
		byRoute: {} as Record<string, number>,
		get log(): readonly RequestEntry[] {
			return log;
		},
		reset() {
			stats.requests = 0;
			stats.byRoute = {};
			log = [];
		},
		count(key: string) {
			stats.requests++;
			stats.byRoute[key] = (stats.byRoute[key] ?? 0) + 1;
		},
		track(key: string, response: ServerResponse, path = '') {
			stats.count(key);
			const entry: RequestEntry = {key, path, at: Date.now(), endedAt: null, status: null, aborted: false, handledAt: null};
			if (log.length >= logLimit) log = log.slice(logLimit / 2);
			log.push(entry);
			response.once('close', () => {
				entry.endedAt = Date.now();
				entry.status = response.statusCode;
				entry.aborted = !response.writableFinished;
			});
			return () => {
				entry.handledAt = Date.now();
			};
		},
	};
	return stats;
}

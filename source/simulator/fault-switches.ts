/**
 * Switches that make the simulator misbehave on purpose, for the fault suite
 * (docs/security-checklist.md §6). Also settable over HTTP (`POST /_sim/faults`) so a
 * simulator in another process, under tmux, can be steered.
 */
export type FaultSwitches = {
	dropSockets(): void;
	rateLimit(opts: {count: number; retryAfterSeconds: number}): void;
	/**
	 * The real service's limiter: at most n requests per fixed one-second window (0: off). Over it,
	 * a 429 whose Retry-After is the rest of the window rounded down, so usually `0`, as the
	 * hosted service sends it.
	 */
	requestsPerSecond(n: number): void;
	/**
	 * The service's other limiter, per key and window (its `100/minute`): at most `limit` requests in
	 * a fixed window of `windowMs` that starts at the first request after the last one ended, as a
	 * Redis counter with an expiry does (0: off). Over it, a 429 named as the service names it
	 * (`20 per 1 minute`), with Retry-After the rest of the window in whole seconds, rounded down.
	 * A short window (`20 per 6 second`) makes minutes pass in seconds for tests.
	 */
	requestsPerWindow(opts: {limit: number; windowMs: number}): void;
	serverErrors(opts: {count: number; status?: number}): void;
	setLatency(ms: number): void;
	malformedFrames(count: number): void;
	invalidUtf8Frames(count: number): void;
	silentSockets(on: boolean): void;
	/**
	 * On: every event socket's handshake is answered 503 while REST works, as behind a proxy that
	 * does not pass WebSocket upgrades; a client can then only read the history over REST.
	 */
	refuseSockets(on: boolean): void;
	hostileText(on: boolean): void;
	/** Agent servers answer `/interrupt` with 404 or 405 (an older server); 0 restores it. */
	interruptMissing(status: 0 | 404 | 405): void;
	/** Agent servers have no trajectory download (404). */
	noTrajectory(on: boolean): void;
	/** On: agent servers answer the trajectory download with a web page (200 HTML), as a proxy in front of one can. */
	trajectoryPage(on: boolean): void;
	/** `error`: a git folder that does not exist answers 400 `fatal: cannot change to …` (502 through the proxy); `empty`: `[]`, as the SDK does. */
	gitMissingFolder(mode: 'empty' | 'error'): void;
	/**
	 * Takes the newer stored-event routes (`/api/v1/conversation/{id}/events/…`) away, as on an
	 * older app server: unrouted, they answer FastAPI's 404 (`not-found`) or, as the hosted
	 * service does for a path it does not know, its web page with 200 (`spa-page`). The older
	 * `/api/v1/events/search?conversation_id__eq=` stays. `present` puts them back.
	 */
	newEventRoutes(mode: NewEventRoutes): void;
	/** Off: the git routes' query form answers 404, as on an older agent server (the path form still works). */
	gitQueryRoutes(on: boolean): void;
	/** Off: the app server has no git proxy (`/app-conversations/{id}/git/…` answer FastAPI's 404), as before 2026-06. */
	appGitRoutes(on: boolean): void;
	/** Off: the app server has no `/app-conversations/{id}/download` (404). */
	appDownload(on: boolean): void;
	/** On: no `POST /app-conversations/stream-start` (a bare 404), as on a V1 server from before it. */
	noStreamStart(on: boolean): void;
	/**
	 * On: the app server's stored copy of events stops taking new ones (its webhook lags behind the
	 * agent servers), so a client that trusts it as the newest loses events. Off: caught up.
	 */
	storedCopyLags(on: boolean): void;
	/** The n newest conversations are served in a shape no client reads (unreadable-rows.ts); 0 restores them. */
	unreadableRows(count: number): void;
	reset(): void;
};

export type NewEventRoutes = 'present' | 'not-found' | 'spa-page';
export const newEventRouteModes: readonly NewEventRoutes[] = ['present', 'not-found', 'spa-page'];

import type {IncomingMessage, ServerResponse} from 'node:http';
import {setTimeout as sleep} from 'node:timers/promises';
import {handleControl} from './control-routes.js';
import type {FaultState} from './faults.js';
import {HttpError, Reply, sendHtml, sendJson} from './http-util.js';
import type {Router, RouteContext} from './router.js';
import {spaPage} from './spa-page.js';
import type {World} from './world.js';

type Deps = {world: World; faults: FaultState; router: Router; apiKey: string; track: (key: string, response: ServerResponse, path: string) => () => void};

const statusText: Record<number, string> = {500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout'};

function header(request: IncomingMessage, name: string): string | undefined {
	const value = request.headers[name];
	return Array.isArray(value) ? value[0] : value;
}

const newEventRoute = /^\/api\/v1\/conversation\/[^/]+\/events\//;

function isNewEventRoute(pathname: string): boolean {
	return newEventRoute.test(pathname);
}

/** An older app server, as the `newEventRoutes` fault makes it: the newer event routes are not routed. */
function withoutRemovedRoutes(deps: Deps, match: ReturnType<Router['match']>): ReturnType<Router['match']> {
	if (!match || deps.faults.newEventRoutes === 'present') return match;
	const key = 'route' in match ? match.route.key : match.key;
	return / \/api\/v1\/conversation\/:id\/events\//.test(key) ? null : match;
}

/**
 * Every request: statistics, then faults (latency, 429, 5xx; they hit before auth, like a
 * gateway), then routing. Unrouted paths get the SPA page, as on the hosted service, except
 * under `/runtime/` where a real agent server answers FastAPI's 404.
 */
export function createRequestHandler(deps: Deps) {
	return (request: IncomingMessage, response: ServerResponse): void => {
		let handled: (() => void) | undefined;
		handle(deps, request, response, (done) => (handled = done))
			.catch((error: unknown) => {
				if (error instanceof HttpError) sendJson(response, error.status, error.body, error.headers);
				else sendJson(response, 500, {detail: 'Internal Server Error', exception: String(error)});
			})
			.finally(() => handled?.());
	};
}

async function handle(deps: Deps, request: IncomingMessage, response: ServerResponse, tracked: (done: () => void) => void): Promise<void> {
	const url = new URL(request.url ?? '/', 'http://localhost');
	// The server's clock as a proxy in front stamps it (clockOffsetMs): what clients fall back on.
	response.setHeader('date', new Date(deps.world.headerNow()).toUTCString());
	if (url.pathname.startsWith('/_sim/')) return handleControl(request, response, url, deps.world, deps.faults);
	const method = request.method ?? 'GET';
	const match = withoutRemovedRoutes(deps, deps.router.match(method, url.pathname));
	tracked(deps.track(match ? ('route' in match ? match.route.key : match.key) : `${method} (unrouted)`, response, url.pathname + url.search));

	if (deps.faults.latencyMs > 0) await sleep(deps.faults.latencyMs);
	const fault = deps.faults.takeHttpFault(url.pathname);
	if (fault?.kind === 'rate-limit') {
		const seconds = fault.retryAfterSeconds;
		const limit = fault.limit ?? 10;
		// Upstream names the limit in the body and in X-RateLimit-Limit (`str(RateLimitItem)`); the
		// per-second limiter here predates that and sends the bare number.
		return sendJson(response, 429, {error: `Rate limit exceeded: ${fault.description ?? `${limit} per 1 second`}`}, {
			'retry-after': String(seconds),
			'x-ratelimit-limit': fault.description ?? String(limit),
			'x-ratelimit-remaining': '0',
			'x-ratelimit-reset': String(Math.ceil((fault.resetAtMs ?? Date.now() + seconds * 1000) / 1000)),
		});
	}
	if (fault?.kind === 'server-error') {
		return sendJson(response, fault.status, {detail: `${statusText[fault.status] ?? 'Server Error'} (simulated fault)`});
	}

	if (!match) {
		if (url.pathname.startsWith('/runtime/') || (deps.faults.newEventRoutes === 'not-found' && isNewEventRoute(url.pathname))) return sendJson(response, 404, {detail: 'Not Found'});
		return sendHtml(response, 200, spaPage);
	}
	if (!('route' in match)) return sendJson(response, 405, {detail: 'Method Not Allowed'}, {allow: match.allowed.join(', ')});

	const {route, params} = match;
	let sandbox = null;
	if (params.n !== undefined) {
		sandbox = deps.world.sandboxByNumber(Number(params.n)) ?? null;
		if (!sandbox) return sendJson(response, 404, {detail: 'Not Found'});
		if (sandbox.status !== 'RUNNING') return sendJson(response, 503, {detail: `Sandbox is not running (${sandbox.status})`});
	}
	if (route.auth === 'bearer' && header(request, 'authorization') !== `Bearer ${deps.apiKey}`) {
		return sendJson(response, 401, {error: 'Invalid API key'});
	}
	if (route.auth === 'session' && header(request, 'x-session-api-key') !== sandbox?.sessionApiKey) {
		return sendJson(response, 401, {detail: 'Unauthorized'});
	}
	const context: RouteContext = {request, response, url, query: url.searchParams, params, world: deps.world, apiKey: deps.apiKey, sandbox};
	const result = await route.handler(context);
	if (response.headersSent || response.writableEnded || response.destroyed) return;
	if (result instanceof Reply) return sendJson(response, result.status, result.body, result.headers);
	sendJson(response, 200, result ?? null);
}

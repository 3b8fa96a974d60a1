import type {IncomingMessage, ServerResponse} from 'node:http';
import type {World} from './world.js';
import type {SimSandbox} from './world-types.js';

/**
 * A tiny path router. The pattern doubles as the route's name in request statistics, so the
 * request-budget benchmark sees `GET /api/v1/app-conversations` rather than one key per id.
 */

export type RouteContext = {
	request: IncomingMessage;
	response: ServerResponse;
	url: URL;
	query: URLSearchParams;
	params: Record<string, string>;
	world: World;
	apiKey: string;
	/** Set for agent-server routes (`/runtime/:n/...`). */
	sandbox: SimSandbox | null;
};

export type RouteHandler = (context: RouteContext) => unknown;

export type Auth = 'bearer' | 'session' | 'none';

export type Route = {method: string; pattern: string; segments: string[]; auth: Auth; handler: RouteHandler; key: string};

export type RouteMatch = {route: Route; params: Record<string, string>};

function splitPath(path: string): string[] {
	return path.split('/').filter((segment) => segment !== '');
}

export class Router {
	private readonly routes: Route[] = [];

	add(method: string, pattern: string, auth: Auth, handler: RouteHandler): void {
		this.routes.push({method, pattern, segments: splitPath(pattern), auth, handler, key: `${method} ${pattern}`});
	}

	private matchPath(route: Route, parts: string[]): Record<string, string> | null {
		if (route.segments.length !== parts.length) return null;
		const params: Record<string, string> = {};
		for (const [index, segment] of route.segments.entries()) {
			const part = parts[index]!;
			if (segment.startsWith(':')) {
				try {
					params[segment.slice(1)] = decodeURIComponent(part);
				} catch {
					return null;
				}
			} else if (segment !== part) return null;
		}
		return params;
	}

	/** The route for method and path, or the methods the path does allow (for a 405), or null. */
	match(method: string, path: string): RouteMatch | {allowed: string[]; key: string} | null {
		const parts = splitPath(path);
		const allowed: string[] = [];
		let key = '';
		for (const route of this.routes) {
			const params = this.matchPath(route, parts);
			if (!params) continue;
			if (route.method === method || (method === 'HEAD' && route.method === 'GET')) return {route, params};
			allowed.push(route.method);
			key ||= `${method} ${route.pattern}`;
		}
		return allowed.length > 0 ? {allowed, key} : null;
	}
}

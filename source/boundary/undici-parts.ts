import type {Dispatcher} from 'undici';
import Agent from 'undici/lib/dispatcher/agent.js';
import requestApi from 'undici/lib/api/api-request.js';
import errors from 'undici/lib/core/errors.js';

/**
 * The three parts of undici the clients use (a keep-alive Agent, `request`, the error classes),
 * loaded by path. The package's index loads all of undici (fetch, WebSocket, EventSource, mocks,
 * caches, proxies): 112 modules, 1.1 MB of the bundle, about 70 ms of every start-up before the
 * first frame (profiled). These paths are undici 8's own files (declared in boundary/index.ts), so the classes are the same ones
 * the index exports (`instanceof` holds) and behaviour is unchanged.
 */

export {Agent, errors};

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path' | 'method'> & {method: Dispatcher.HttpMethod; dispatcher: Dispatcher};

/** undici's `request(url, options)` for a given dispatcher (what its index does, minus the global dispatcher). */
export async function request(url: URL, options: RequestOptions): Promise<Dispatcher.ResponseData> {
	const {dispatcher, ...rest} = options;
	return requestApi.call(dispatcher, {...rest, origin: url.origin, path: `${url.pathname}${url.search}`});
}

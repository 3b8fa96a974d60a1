import type {Dispatcher} from 'undici';
import {HttpClient, type RetryInfo} from './http.js';
import type {Secret} from './secret.js';
import type {Transport} from './transport.js';

/** How a client of one agent server sends (agent-client.ts, git-client.ts). */
export type SessionHttpOptions = {
	/** GET retries inside one call (HttpClient default 4). A supervisor with its own backoff may want fewer. */
	maxRetries?: number;
	onRetry?: (info: RetryInfo) => void;
	/** The server the conversation or sandbox belongs to (transport.ts): its pool, clock estimate and pacing. */
	transport?: Transport;
	dispatcher?: Dispatcher;
};

/** The HTTP client of one agent server, sending its session key. */
export function sessionHttpClient(baseUrl: string, key: Secret | null, options: SessionHttpOptions): HttpClient {
	return new HttpClient({
		baseUrl,
		// Revealed per request, at the last moment, and only into the header.
		headers: (): Record<string, string> => (key && !key.isEmpty ? {'X-Session-API-Key': key.reveal()} : {}),
		maxRetries: options.maxRetries,
		onRetry: options.onRetry,
		...(options.transport ? {transport: options.transport} : {}),
		dispatcher: options.dispatcher,
	});
}

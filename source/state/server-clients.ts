import {AppClient, type AppClientOptions} from '../wire/app-client.js';
import type {Secret} from '../wire/secret.js';
import {Transport} from '../wire/transport.js';
import {RequestBudget, type RequestBudgetOptions} from './request-budget.js';

/**
 * One server's clients, built the same way for the dashboard (state/dashboard-session.ts) and
 * the headless commands (commands/server.ts): its transport (connection pool, clock estimate,
 * 429 pacing, wire/transport.ts), its request budget (the service's 10/s and 100/min,
 * request-budget.ts) and its app client through that transport. Opened together, closed together.
 */
export type ServerClients = {
	transport: Transport;
	budget: RequestBudget;
	app: AppClient;
	/** The budget (what is queued is refused), then the client, then the pool it sent through. Idempotent. */
	close(): Promise<void>;
};

export type ServerClientsOptions = {
	/**
	 * The budget's limits (AGENT_TUI_POLL, config/poll-tuning.ts; default the service's) and, shared
	 * with the other clients of this server and key on this machine, its ledger (state/budget-sharing.ts).
	 */
	budget?: RequestBudgetOptions;
	/**
	 * Retries of a failing GET inside the client (default the client's). The dashboard asks for
	 * none: its poller has its own backoff under the budget.
	 */
	maxRetries?: number;
	/** Told of each retry, after the budget has counted it. */
	onRetry?: AppClientOptions['onRetry'];
	onInvalid?: AppClientOptions['onInvalid'];
	onWarning?: AppClientOptions['onWarning'];
};

export function openServerClients(target: {baseUrl: string; apiKey: Secret | null}, options: ServerClientsOptions = {}): ServerClients {
	const transport = new Transport();
	const budget = new RequestBudget({...options.budget});
	const app = new AppClient({
		baseUrl: target.baseUrl,
		apiKey: target.apiKey,
		transport,
		...(options.maxRetries === undefined ? {} : {maxRetries: options.maxRetries}),
		onRetry: (info) => {
			// A retry is one more request the server counts: the budget counts it too, and learns from a 429.
			budget.record();
			if (info.rateLimited) budget.rateLimited(info.rateLimited.retryAfterMs, info.rateLimited.namedLimit);
			options.onRetry?.(info);
		},
		...(options.onInvalid ? {onInvalid: options.onInvalid} : {}),
		...(options.onWarning ? {onWarning: options.onWarning} : {}),
	});
	let closing: Promise<void> | null = null;
	return {
		transport,
		budget,
		app,
		close() {
			closing ??= (async () => {
				budget.close();
				await app.close();
				await transport.close();
			})();
			return closing;
		},
	};
}

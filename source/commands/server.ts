import type {ResolvedConfig} from '../config/resolve.js';
import {parsePollTuning} from '../config/poll-tuning.js';
import {sharedBudgetOptions} from '../state/budget-sharing.js';
import type {PollerIntervals} from '../state/conversation-poller.js';
import {RequestBudget, type Priority} from '../state/request-budget.js';
import {openServerClients} from '../state/server-clients.js';
import type {Pace} from '../state/stored-history.js';
import type {AppClient} from '../wire/app-client.js';
import {closeHttpAgent} from '../wire/http.js';
import {Secret} from '../wire/secret.js';
import {type ServerClock, serverClock} from '../wire/server-clock.js';
import type {Transport} from '../wire/transport.js';
import {startDemoSimulator} from './demo-simulator.js';
import {addSecret, note, type Io} from './io.js';

/**
 * The server a headless command talks to: the configured app server, or an in-process
 * simulator with --demo. Retries and skipped items are reported on
 * stderr, so a slow run explains itself without touching stdout.
 */
export type Server = {
	app: AppClient;
	baseUrl: string;
	label: string;
	demo: boolean;
	/**
	 * The app server's request budget (10/s, 100/min), as the dashboard has one: calls that can
	 * send many requests in a row (a stored history read page by page, a follow's polls) go
	 * through it, so a long read never earns a 429.
	 */
	budget: RequestBudget;
	/**
	 * This server's connection pool, clock estimate and 429 pacing (wire/transport.ts): the agent
	 * servers of its conversations are reached through it too. Absent: the process's.
	 */
	transport?: Transport;
	/** The list poller's intervals from AGENT_TUI_POLL (config/poll-tuning.ts), for `watch`. */
	intervals?: Partial<PollerIntervals>;
	/** One request under the budget, keyed so the same walk never has two in flight. */
	pace(key: string, priority?: Priority): Pace;
	close(): Promise<void>;
};

export async function openServer(config: ResolvedConfig, io: Io): Promise<Server> {
	let baseUrl: string;
	let apiKey: Secret | null;
	let label: string;
	let stopSimulator: (() => Promise<void>) | null = null;
	if (config.kind === 'demo') {
		// Only --demo gets here (runHeadless refuses an unconfigured run): said, so no output passes for real.
		note(io, 'using the embedded demo simulator (--demo): nothing below is real');
		const simulator = await startDemoSimulator();
		stopSimulator = () => simulator.close();
		baseUrl = simulator.baseUrl;
		apiKey = new Secret(simulator.apiKey);
		label = 'DEMO';
	} else {
		({baseUrl, apiKey, label} = config);
	}
	addSecret(io, apiKey);

	const tuning = parsePollTuning(process.env.AGENT_TUI_POLL, (message) => note(io, `warning: ${message}`));
	const invalidFrom = new Set<string>();
	const clients = openServerClients(
		{baseUrl, apiKey},
		{
			// Shared with the other clients of this server and key on this machine (state/shared-budget.ts).
			budget: sharedBudgetOptions({baseUrl, key: apiKey?.reveal() ?? null, demo: config.kind === 'demo'}, tuning.budget, {warn: (message) => note(io, `warning: ${message}`)}),
			onRetry: (info) => note(io, `${info.reason}; retrying in ${(info.delayMs / 1000).toFixed(1)} s`),
			// Once per request path: a page of bad rows is one line (the command says how many).
			onInvalid: (item, where) => {
				if (invalidFrom.has(where)) return;
				invalidFrom.add(where);
				note(io, `warning: skipped an item from ${where} that does not match the API: ${item.message} (further ones from there are not repeated)`);
			},
			onWarning: (message) => note(io, `warning: ${message}`),
		},
	);
	const {app, transport, budget} = clients;

	return withBudget(
		{
			app,
			baseUrl,
			label,
			demo: config.kind === 'demo',
			transport,
			...(tuning.intervals ? {intervals: tuning.intervals} : {}),
			async close() {
				await Promise.allSettled([clients.close(), stopSimulator?.()]);
				// Anything built without a transport of its own used the process's pool.
				await closeHttpAgent();
			},
		},
		budget,
	);
}

/** A Server from its parts and a request budget (a new one unless given), closed with it. */
export function withBudget(parts: Omit<Server, 'budget' | 'pace'>, budget = new RequestBudget()): Server {
	return {
		...parts,
		budget,
		pace: (key, priority = 'visible') => (task) => budget.schedule(key, task, priority),
		async close() {
			budget.close();
			await parts.close();
		},
	};
}

/** The server's clock estimate: its transport's, or the process's for a server built without one. */
export function clockOf(server: Pick<Server, 'transport'>): ServerClock {
	return server.transport?.clock ?? serverClock;
}

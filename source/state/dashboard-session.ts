import {AppClient} from '../wire/app-client.js';
import {Secret} from '../wire/secret.js';
import {attachAlerts} from './alerts.js';
import {createDashboard} from './dashboard-store.js';
import type {PollTuning} from '../config/poll-tuning.js';

/**
 * What the dashboard holds per server: the store, its controller and the alerts. Opened before
 * the view's modules load (commands/dashboard.ts), so the first requests are on the wire while
 * Ink, React and yoga compile, instead of after.
 */

export type SessionTarget = {
	baseUrl: string;
	apiKey: Secret | null;
	label: string;
	demo: boolean;
	/** The service's cap on running sandboxes when known (the demo simulator's); else learned. */
	runningSandboxCap?: number;
};

export type SessionOptions = {
	/** Bell and OSC 9 notification when a conversation starts needing a person (state/alerts.ts). */
	alerts?: boolean;
	/** No-progress detection: quiet after this long without an event, repeating after N identical calls. */
	quietAfterMs?: number;
	repeatThreshold?: number;
	/** The poller's intervals and the request budget (AGENT_TUI_POLL, config/poll-tuning.ts). */
	poll?: PollTuning;
};

export type Session = {
	id: number;
	store: ReturnType<typeof createDashboard>['store'];
	controller: ReturnType<typeof createDashboard>['controller'];
	close(): Promise<void>;
};

let sessions = 0;

/** One server's store, controller and alerts: the dashboard runs one at a time, a profile switch opens the next. */
export function openSession(target: SessionTarget, options: SessionOptions, write: (text: string) => void): Session {
	// No retries inside the client: the poller has its own backoff under the request budget, and
	// hidden retries would spend requests the budget never counted.
	const appClient = new AppClient({baseUrl: target.baseUrl, apiKey: target.apiKey, maxRetries: 0});
	const {store, controller} = createDashboard({
		appClient,
		appBaseUrl: target.baseUrl,
		serverLabel: target.label,
		demo: target.demo,
		...(target.runningSandboxCap === undefined ? {} : {runningSandboxCap: target.runningSandboxCap}),
		...(options.quietAfterMs === undefined ? {} : {quietAfterMs: options.quietAfterMs}),
		...(options.repeatThreshold === undefined ? {} : {repeatThreshold: options.repeatThreshold}),
		...(options.poll?.budget ? {budget: options.poll.budget} : {}),
		...(options.poll?.intervals ? {intervals: options.poll.intervals} : {}),
	});
	// Written to the real stdout, between Ink's frames: a bell and an OSC 9 move no cursor.
	const detachAlerts = options.alerts ? attachAlerts(store, {write}) : () => undefined;
	return {
		id: ++sessions,
		store,
		controller,
		async close() {
			detachAlerts();
			await controller.close();
		},
	};
}

/** Resolves when the store has heard from the server (data, an error or a refused key), or after `ms`. */
export function firstAnswer(store: Session['store'], ms: number): Promise<void> {
	return new Promise((resolve) => {
		const answered = () => {
			const {conversations, connection} = store.getSnapshot();
			return conversations.size > 0 || connection.lastSuccessAt !== null || connection.lastError !== null || connection.keyRejected;
		};
		if (answered()) {
			resolve();
			return;
		}
		const timer = setTimeout(done, ms);
		const unsubscribe = store.subscribe(() => {
			if (answered()) done();
		});
		function done() {
			clearTimeout(timer);
			unsubscribe();
			resolve();
		}
	});
}

export type PrepareOptions = SessionOptions & {
	baseUrl?: string;
	apiKey: Secret | null;
	/** Start the embedded simulator and show it, clearly marked DEMO. */
	demo: boolean;
	serverLabel: string;
};

/** The first session, the demo's simulator (when it is the demo) and every key this run holds. */
export type PreparedDashboard = {
	session: Session;
	simulator: {close(): Promise<void>} | null;
	/** Every key this run holds, so a crash line can never print one (profiles add theirs). */
	secrets: string[];
	close(): Promise<void>;
};

/** Starts the demo's simulator if asked, then the first session. An error is a message for stderr. */
export async function prepareDashboard(options: PrepareOptions, write: (text: string) => void): Promise<PreparedDashboard | {error: string}> {
	// Loaded only for the demo: a real server's start-up does not pay for the simulator.
	const simulator = options.demo ? await (await import('../simulator/server.js')).startSimulator({port: 0, tickMs: 700, sharedSandboxes: true}) : null;
	const baseUrl = simulator?.url ?? options.baseUrl;
	if (!baseUrl) {
		await simulator?.close();
		return {error: 'agent-tui: no server configured (set OPENHANDS_BASE_URL or pass --base-url), or run the demo.\n'};
	}

	// The demo simulator has its own key; a configured key is never sent to it.
	const firstKey = simulator ? new Secret(simulator.apiKey) : options.apiKey;
	const secrets: string[] = options.apiKey && !options.apiKey.isEmpty ? [options.apiKey.reveal()] : [];
	const cap = simulator ? {runningSandboxCap: simulator.world.options.maxRunningSandboxes} : {};
	const session = openSession({baseUrl, apiKey: firstKey, label: options.serverLabel, demo: options.demo, ...cap}, options, write);
	return {
		session,
		simulator,
		secrets,
		async close() {
			await Promise.allSettled([session.close(), simulator?.close()]);
		},
	};
}

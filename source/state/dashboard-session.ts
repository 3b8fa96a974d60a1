import {AppClient} from '../wire/app-client.js';
import type {Secret} from '../wire/secret.js';
import {openDebugLog} from '../config/debug-log.js';
import {defaultProtocol, multiplexerOf, type NotifyProtocol} from '../format/terminal-notify.js';
import {alertCommand} from './alert-command.js';
import {attachAlerts} from './alerts.js';
import {tmuxPassthrough} from './tmux-passthrough.js';
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
	/** Where the key came from, in words, for a "key rejected" header. */
	keySource?: string | null;
	demo: boolean;
	/** The service's cap on running sandboxes when known (the demo simulator's); else learned. */
	runningSandboxCap?: number;
};

export type SessionOptions = {
	/** Bell and desktop notification when a conversation starts needing a person (state/alerts.ts). */
	alerts?: boolean;
	/** The notification's sequence (`--alert-protocol`); `bell`: the bell only. Default: what the terminal reads. */
	alertProtocol?: NotifyProtocol | 'bell';
	/** `--alert-command`: run for each alert with its JSON on stdin (state/alert-command.ts). */
	alertCommand?: string;
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
		keySource: target.keySource ?? null,
		demo: target.demo,
		...(target.runningSandboxCap === undefined ? {} : {runningSandboxCap: target.runningSandboxCap}),
		...(options.quietAfterMs === undefined ? {} : {quietAfterMs: options.quietAfterMs}),
		...(options.repeatThreshold === undefined ? {} : {repeatThreshold: options.repeatThreshold}),
		...(options.poll?.budget ? {budget: options.poll.budget} : {}),
		...(options.poll?.intervals ? {intervals: options.poll.intervals} : {}),
	});
	const {detach} = attachSessionAlerts(store, controller, target.label, options, write);
	return {
		id: ++sessions,
		store,
		controller,
		async close() {
			detach();
			await controller.close();
		},
	};
}

/**
 * The alerts of one session: the terminal's (`--alerts`: bell and notification, written to the
 * real stdout between Ink's frames, where a bell and an OSC move no cursor) and the command's
 * (`--alert-command`), each on its own. Failures of the command go to the debug log.
 */
function attachSessionAlerts(
	store: Session['store'],
	controller: Session['controller'],
	server: string,
	options: SessionOptions,
	write: (text: string) => void,
): {detach(): void} {
	if (!options.alerts && !options.alertCommand) return {detach: () => undefined};
	const log = openDebugLog();
	const command = options.alertCommand ? alertCommand({command: options.alertCommand, log: (origin, text) => log.write(origin, text)}) : null;
	const protocol = options.alertProtocol === 'bell' ? null : (options.alertProtocol ?? defaultProtocol(process.env));
	const detach = attachAlerts(store, {
		...(options.alerts ? {write} : {}),
		protocol,
		multiplexer: multiplexerOf(process.env),
		command,
		server,
		pendingActions: controller.pendingActions ? (key) => controller.pendingActions!(key) : undefined,
		passthrough: () => tmuxPassthrough(process.env),
		notice: (text, level) => controller.notice?.(text, level),
	});
	return {
		detach() {
			detach();
			command?.close();
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
	/** The configured key, if any: never printed (the demo's own key is in `server`). */
	apiKey: Secret | null;
	/** The embedded simulator, clearly marked DEMO. */
	demo: boolean;
	serverLabel: string;
	/** Where the configured key came from, in words (never the key). */
	keySource?: string | null;
};

/** Where the first session goes: a configured server, or the demo's simulator (commands/dashboard.ts starts it). */
export type FirstServer = {baseUrl: string; apiKey: Secret | null; runningSandboxCap?: number};

/** The first session and every key this run holds. */
export type PreparedDashboard = {
	session: Session;
	/** Every key this run holds, so a crash line can never print one (profiles add theirs). */
	secrets: string[];
};

/** Opens the first session; what runs the server (the demo's simulator) is the caller's. */
export function prepareDashboard(options: PrepareOptions, server: FirstServer, write: (text: string) => void): PreparedDashboard {
	const secrets: string[] = options.apiKey && !options.apiKey.isEmpty ? [options.apiKey.reveal()] : [];
	const cap = server.runningSandboxCap === undefined ? {} : {runningSandboxCap: server.runningSandboxCap};
	const session = openSession({baseUrl: server.baseUrl, apiKey: server.apiKey, label: options.serverLabel, keySource: options.keySource ?? null, demo: options.demo, ...cap}, options, write);
	return {session, secrets};
}

import type {Secret} from '../wire/secret.js';
import {openDebugLog} from '../config/debug-log.js';
import {defaultProtocol, multiplexerOf, type NotifyProtocol} from '../format/terminal-notify.js';
import {alertCommand} from './alert-command.js';
import {attachAlerts} from './alerts.js';
import {tmuxPassthrough} from './tmux-passthrough.js';
import {createDashboard} from './dashboard-store.js';
import {SnoozeBook} from './snooze-book.js';
import {withSnoozes} from './snoozed-dashboard.js';
import type {RequestBudget} from './request-budget.js';
import {openServerClients} from './server-clients.js';
import type {Transport} from '../wire/transport.js';
import type {PollTuning} from '../config/poll-tuning.js';
import {deadFacts} from './dead-group.js';
import {sharedBudgetOptions} from './budget-sharing.js';

/**
 * What the dashboard holds per server: its transport (connection pool, clock estimate, 429
 * pacing), its app client, its request budget and health (inside the store), the store, its
 * controller and the alerts. All of it is opened together and closed together, so a profile
 * switch starts from nothing of the previous server. Opened by the composition root
 * (commands/dashboard-runtime.ts) before the view's modules load, so the first requests are on
 * the wire while Ink, React and yoga compile, instead of after.
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
	/** Spending without progress after this long (`--spend-after`). */
	spendAfterMs?: number;
	/** The dead group and the STARTING cause (state/dead-group.ts). */
	deadAfterMs?: number;
	startingAfterMs?: number;
	/** The poller's intervals and the request budget (AGENT_TUI_POLL, config/poll-tuning.ts). */
	poll?: PollTuning;
};

export type Session = {
	id: number;
	store: ReturnType<typeof createDashboard>['store'];
	controller: ReturnType<typeof createDashboard>['controller'];
	/** This server's own pool, clock estimate and pacing; closed with the session. */
	transport: Transport;
	/** This server's request budget (its 10/s and 100/min); closed with the session. */
	budget: RequestBudget;
	close(): Promise<void>;
};

let sessions = 0;

/** A new id for what the view shows (its React key): a session, or the all-servers view. */
export function nextSessionId(): number {
	return ++sessions;
}

/** One server's transport, client, budget, store and alerts: opened together, closed together. */
export function openSession(target: SessionTarget, options: SessionOptions, write: (text: string) => void): Session {
	// No retries inside the client: the poller has its own backoff under the request budget, and
	// hidden retries would spend requests the budget never counted.
	// The budget is shared with the other clients of this server and key on this machine (state/shared-budget.ts).
	const shared = sharedBudgetOptions({baseUrl: target.baseUrl, key: target.apiKey?.reveal() ?? null, demo: target.demo}, options.poll?.budget, {warn: (message) => void process.stderr.write(`agent-tui: warning: ${message}\n`)});
	const clients = openServerClients(target, {maxRetries: 0, budget: shared});
	const {transport, budget} = clients;
	// Its snoozes, kept per server in the state directory (the demo's address is new each run: one book for the demo).
	const snoozes = SnoozeBook.forServer(target.demo ? 'demo:' : target.baseUrl);
	const {store, controller} = withSnoozes(createDashboard({
		appClient: clients.app,
		transport,
		budget,
		appBaseUrl: target.baseUrl,
		serverLabel: target.label,
		keySource: target.keySource ?? null,
		demo: target.demo,
		...(target.runningSandboxCap === undefined ? {} : {runningSandboxCap: target.runningSandboxCap}),
		...(options.quietAfterMs === undefined ? {} : {quietAfterMs: options.quietAfterMs}),
		...(options.repeatThreshold === undefined ? {} : {repeatThreshold: options.repeatThreshold}),
		...(options.spendAfterMs === undefined ? {} : {spendAfterMs: options.spendAfterMs}),
		...deadFacts(options),
		...(options.poll?.intervals ? {intervals: options.poll.intervals} : {}),
	}), snoozes);
	const {detach} = attachSessionAlerts(store, controller, {server: target.label, secrets: target.apiKey && !target.apiKey.isEmpty ? [target.apiKey.reveal()] : []}, options, write);
	let closing: Promise<void> | null = null;
	return {
		id: nextSessionId(),
		store,
		controller,
		transport,
		budget,
		close() {
			closing ??= (async () => {
				detach();
				// The store first (poller, timeline socket) with the budget in the same step, as when
				// the store owned it; then what they sent through.
				const storeClosed = controller.close();
				budget.close();
				await storeClosed;
				await clients.close();
			})();
			return closing;
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
	{server, secrets}: {server: string; secrets: readonly string[]},
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
		secrets,
		pendingActions: controller.pendingActions ? (key) => controller.pendingActions!(key) : undefined,
		// The store reads why each errored conversation failed: an error alert says it.
		errorCauses: true,
		// And why a sandbox is down, from the sandbox list: a sandbox alert says it.
		sandboxReasons: true,
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

/** A config file profile as ctrl-p lists it: its name and where it points, never a key. */
export type ProfileChoice = {name: string; label: string};

export {allProfiles} from './server-keys.js';

/** What the view shows: one server's session, or the all-servers view over several. */
export type ShownSession = Pick<Session, 'id' | 'store' | 'controller'>;

/**
 * The servers of one dashboard run, opened and closed by the composition root
 * (commands/dashboard-runtime.ts): the view shows `session()` and asks for a switch, and never
 * opens or closes a server itself.
 */
export type DashboardRuntime = {
	/** What is on screen. */
	session(): ShownSession;
	/** The servers on screen, each whole: one, or every profile's in the all-servers view. */
	servers(): readonly Session[];
	/** Every key this run holds, so a crash line can never print one (a switch adds the profile's). */
	readonly secrets: string[];
	/** The config file's profiles, for ctrl-p (with `allProfiles` first when there are two or more). */
	readonly profiles: readonly ProfileChoice[];
	/** The profile on screen: a name, `allProfiles`, or null (the server came from flags or the environment, or the demo). */
	currentProfile(): string | null;
	/**
	 * Opens the profile's server (every profile's for `allProfiles`), hands it to `show` (the view
	 * renders it), then closes what was shown before. Resolves with null, or with why it could not
	 * (what was shown stays).
	 */
	switchTo(name: string, show: (session: ShownSession) => void): Promise<string | null>;
	/** Closes every server on screen, the embedded simulator and the process's pool: nothing of this run is left. */
	close(): Promise<void>;
};

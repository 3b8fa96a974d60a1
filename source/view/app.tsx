import {render} from 'ink';
import {attachAlerts} from '../state/alerts.js';
import {createDashboard} from '../state/dashboard-store.js';
import {warmUpTextMeasures} from './ink-output-speed.js';
import {setUsageThresholds, type UsageThresholds} from './triage/usage-look.js';
import {publicMessage} from '../state/redact.js';
import {AppClient} from '../wire/app-client.js';
import {closeHttpAgent} from '../wire/http.js';
import {Secret} from '../wire/secret.js';
import type {ReactElement} from 'react';
import {Dashboard} from './Dashboard.js';
import type {ProfileChoice} from './ProfilePicker.js';
import {diffingStdout} from './diff-stdout.js';
import {createExitGuard} from './exit-guard.js';
import {openTerminalScreen} from './terminal-screen.js';

export type RunDashboardOptions = {
	baseUrl?: string;
	apiKey: Secret | null;
	/** Start the embedded simulator and show it, clearly marked DEMO. */
	demo: boolean;
	serverLabel: string;
	/** Bell and OSC 9 notification when a conversation starts needing a person (state/alerts.ts). */
	alerts?: boolean;
	/** No-progress detection: quiet after this long without an event, repeating after N identical calls. */
	quietAfterMs?: number;
	repeatThreshold?: number;
	/** Warning colours for cost and context use (view/triage/usage-look.ts). */
	usageThresholds?: Partial<UsageThresholds>;
	/** The config file's profiles for ctrl-p (names and servers, never keys), the one in use, and how to open one. */
	profiles?: readonly ProfileChoice[];
	profile?: string | null;
	resolveProfile?(name: string): Promise<{baseUrl: string; apiKey: Secret | null; label: string}>;
};

/**
 * The interactive dashboard, from the first frame to the exit code. Enters the alternate screen
 * once, renders, and leaves through one exit guard whatever ends it, so the user's shell screen
 * always comes back. Resolves with the process exit code (0 on `q`, 128+n on a signal, 1 on a
 * crash); it closes everything it opened, so the process can end on its own.
 */
export async function runDashboard(options: RunDashboardOptions): Promise<number> {
	const {stdout, stdin, stderr} = process;
	if (!stdin.isTTY) {
		stderr.write('agent-tui: the dashboard needs a terminal on stdin; for scripts use e.g. `agent-tui conversations --json`.\n');
		return 2;
	}

	if (options.usageThresholds) setUsageThresholds(options.usageThresholds);
	// Loaded only for the demo: a real server's start-up does not pay for the simulator.
	const simulator = options.demo ? await (await import('../simulator/server.js')).startSimulator({port: 0, tickMs: 700}) : null;
	const baseUrl = simulator?.url ?? options.baseUrl;
	if (!baseUrl) {
		await simulator?.close();
		stderr.write('agent-tui: no server configured (set OPENHANDS_BASE_URL or pass --base-url), or run the demo.\n');
		return 2;
	}

	// The demo simulator has its own key; a configured key is never sent to it.
	const firstKey = simulator ? new Secret(simulator.apiKey) : options.apiKey;
	// Every key this run holds, so a crash line can never print one (profiles add theirs).
	const secrets: string[] = options.apiKey && !options.apiKey.isEmpty ? [options.apiKey.reveal()] : [];
	let session = openSession({baseUrl, apiKey: firstKey, label: options.serverLabel, demo: options.demo}, options, stdout);
	let currentProfile = options.profile ?? null;
	// A frame drawn before the first answer is replaced at once, and it is the slowest frame of
	// the run (nothing is compiled yet): when the server answers quickly, the first frame has data.
	const answered = firstAnswer(session.store, firstAnswerWaitMs);
	warmUpTextMeasures();
	await answered;
	const screen = openTerminalScreen(stdout);
	let unmount = () => undefined as void;
	let rerender = (_tree: ReactElement) => undefined as void;
	const guard = createExitGuard({
		screen,
		stderr,
		unmount: () => unmount(),
		secrets,
		cleanup: () => Promise.allSettled([session.close(), simulator?.close()]).then(() => closeHttpAgent()),
	});
	guard.install();

	const tree = (): ReactElement => (
		<Dashboard
			key={session.id}
			store={session.store}
			controller={session.controller}
			onQuit={() => guard.finish(0)}
			profiles={options.profiles ?? []}
			currentProfile={currentProfile}
			onSwitchProfile={switchTo}
		/>
	);
	// ctrl-p: the chosen profile gets a store of its own; the old one is closed once the new one shows.
	const switchTo = async (name: string): Promise<string | null> => {
		if (!options.resolveProfile) return 'Switching profiles needs a config file with profiles.';
		try {
			const target = await options.resolveProfile(name);
			if (target.apiKey && !target.apiKey.isEmpty) secrets.push(target.apiKey.reveal());
			const previous = session;
			session = openSession({...target, demo: false}, options, stdout);
			currentProfile = name;
			rerender(tree());
			await previous.close();
			return null;
		} catch (error) {
			return `Cannot switch to profile "${name}": ${publicMessage(error, secrets)}`;
		}
	};

	try {
		const instance = render(tree(), {
			// On the alternate screen only the lines that changed are written (frame-diff.ts).
			stdout: screen.active ? diffingStdout(stdout) : stdout,
			stdin,
			stderr,
			exitOnCtrlC: false,
			patchConsole: false,
			// Ink 6.8's incremental mode moves the cursor relatively and left stale lines behind
			// in tmux when the frame's height changed; diffingStdout does the same saving with
			// absolute positions instead.
			incrementalRendering: false,
			maxFps: 15,
		});
		unmount = () => instance.unmount();
		rerender = (next) => instance.rerender(next);
		// Ink ends on its own only when a component throws: that is a crash like any other.
		instance.waitUntilExit().then(
			() => guard.finish(0),
			(error: unknown) => guard.finish(1, error),
		);
	} catch (error) {
		guard.finish(1, error);
	}

	return guard.done;
}

const firstAnswerWaitMs = 400;

/** Resolves when the store has heard from the server (data, an error or a refused key), or after `ms`. */
function firstAnswer(store: Session['store'], ms: number): Promise<void> {
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

type Session = {
	id: number;
	store: ReturnType<typeof createDashboard>['store'];
	controller: ReturnType<typeof createDashboard>['controller'];
	close(): Promise<void>;
};

let sessions = 0;

/** One server's store, controller and alerts: the dashboard runs one at a time, a profile switch opens the next. */
function openSession(target: {baseUrl: string; apiKey: Secret | null; label: string; demo: boolean}, options: RunDashboardOptions, stdout: NodeJS.WriteStream): Session {
	// No retries inside the client: the poller has its own backoff under the request budget, and
	// hidden retries would spend requests the budget never counted.
	const appClient = new AppClient({baseUrl: target.baseUrl, apiKey: target.apiKey, maxRetries: 0});
	const {store, controller} = createDashboard({
		appClient,
		appBaseUrl: target.baseUrl,
		serverLabel: target.label,
		demo: target.demo,
		...(options.quietAfterMs === undefined ? {} : {quietAfterMs: options.quietAfterMs}),
		...(options.repeatThreshold === undefined ? {} : {repeatThreshold: options.repeatThreshold}),
	});
	// Written to the real stdout, between Ink's frames: a bell and an OSC 9 move no cursor.
	const detachAlerts = options.alerts ? attachAlerts(store, {write: (text) => stdout.write(text)}) : () => undefined;
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

import {render} from 'ink';
import {attachAlerts} from '../state/alerts.js';
import {createDashboard} from '../state/dashboard-store.js';
import {AppClient} from '../wire/app-client.js';
import {closeHttpAgent} from '../wire/http.js';
import {Secret} from '../wire/secret.js';
import {Dashboard} from './Dashboard.js';
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

	// Loaded only for the demo: a real server's start-up does not pay for the simulator.
	const simulator = options.demo ? await (await import('../simulator/server.js')).startSimulator({port: 0, tickMs: 700}) : null;
	const baseUrl = simulator?.url ?? options.baseUrl;
	if (!baseUrl) {
		await simulator?.close();
		stderr.write('agent-tui: no server configured (set OPENHANDS_BASE_URL or pass --base-url), or run the demo.\n');
		return 2;
	}

	// The demo simulator has its own key; a configured key is never sent to it.
	// No retries inside the client: the poller has its own backoff under the request budget, and
	// hidden retries would spend requests the budget never counted.
	const appClient = new AppClient({baseUrl, apiKey: simulator ? new Secret(simulator.apiKey) : options.apiKey, maxRetries: 0});
	const {store, controller} = createDashboard({
		appClient,
		appBaseUrl: baseUrl,
		serverLabel: options.serverLabel,
		demo: options.demo,
		...(options.quietAfterMs === undefined ? {} : {quietAfterMs: options.quietAfterMs}),
		...(options.repeatThreshold === undefined ? {} : {repeatThreshold: options.repeatThreshold}),
	});
	// Written to the real stdout, between Ink's frames: a bell and an OSC 9 move no cursor.
	const detachAlerts = options.alerts ? attachAlerts(store, {write: (text) => stdout.write(text)}) : () => undefined;
	const screen = openTerminalScreen(stdout);
	let unmount = () => undefined as void;
	const guard = createExitGuard({
		screen,
		stderr,
		unmount: () => unmount(),
		secrets: options.apiKey && !options.apiKey.isEmpty ? [options.apiKey.reveal()] : [],
		cleanup: () => {
			detachAlerts();
			return Promise.allSettled([controller.close(), simulator?.close()]).then(() => closeHttpAgent());
		},
	});
	guard.install();

	try {
		const instance = render(<Dashboard store={store} controller={controller} onQuit={() => guard.finish(0)} />, {
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

import {render} from 'ink';
import {firstAnswer, openSession, type PreparedDashboard, type PrepareOptions} from '../state/dashboard-session.js';
import {installInkPatches, warmUpTextMeasures} from '../ink-patches/index.js';
import {setUsageThresholds, type UsageThresholds} from './triage/usage-look.js';
import {publicMessage} from '../state/redact.js';
import type {Secret} from '../wire/secret.js';
import type {ReactElement} from 'react';
import {Dashboard} from './Dashboard.js';
import type {ProfileChoice} from './ProfilePicker.js';
import {diffingStdout} from './diff-stdout.js';
import {createExitGuard} from './exit-guard.js';
import {openTerminalScreen} from './terminal-screen.js';
import {openDebugLog} from '../config/debug-log.js';
import {captureStrayOutput} from './stray-output.js';

export type RunDashboardOptions = PrepareOptions & {
	/** Warning colours for cost and context use (view/triage/usage-look.ts). */
	usageThresholds?: Partial<UsageThresholds>;
	/** The config file's profiles for ctrl-p (names and servers, never keys), the one in use, and how to open one. */
	profiles?: readonly ProfileChoice[];
	profile?: string | null;
	resolveProfile?(name: string): Promise<{baseUrl: string; apiKey: Secret | null; label: string; keySource?: string | null}>;
};

/**
 * The interactive dashboard, from the first frame to the exit code. Enters the alternate screen
 * once, renders, and leaves through one exit guard whatever ends it, so the user's shell screen
 * always comes back. Resolves with the process exit code (0 on `q`, 128+n on a signal, 1 on a
 * crash); it closes everything it opened, so the process can end on its own.
 */
export async function runDashboard(options: RunDashboardOptions, prepared: PreparedDashboard, shutdown: () => Promise<void>): Promise<number> {
	const {stdout, stdin, stderr} = process;
	if (options.usageThresholds) setUsageThresholds(options.usageThresholds);
	const {secrets} = prepared;
	let session = prepared.session;
	const writeAlert = (text: string) => void stdout.write(text);
	let currentProfile = options.profile ?? null;
	// A frame drawn before the first answer is replaced at once, and it is the slowest frame of
	// the run (nothing is compiled yet): when the server answers quickly, the first frame has data.
	const answered = firstAnswer(session.store, firstAnswerWaitMs);
	// Ink's line builder with caches that outlive a frame, string-width's fast path (ink-patches/).
	installInkPatches();
	warmUpTextMeasures();
	await answered;
	const terminal = openTerminalScreen(stdout);
	// From the first frame to the way out, only the frame reaches the terminal: warnings and stray
	// stderr go to the debug log. Given back where the screen is, so a crash message still prints.
	const debugLog = openDebugLog();
	const stray = captureStrayOutput({log: debugLog, secrets});
	const strayOutput = {output: stray, logPath: debugLog.path};
	const screen = {
		active: terminal.active,
		restore() {
			stray.restore();
			terminal.restore();
		},
	};
	let unmount = () => undefined as void;
	let rerender = (_tree: ReactElement) => undefined as void;
	const guard = createExitGuard({
		screen,
		stderr,
		unmount: () => unmount(),
		secrets,
		// The current session here (profiles switch it); the simulator and the HTTP agent are the caller's.
		cleanup: () => Promise.allSettled([session.close()]).then(() => shutdown()),
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
			strayOutput={strayOutput}
		/>
	);
	// ctrl-p: the chosen profile gets a store of its own; the old one is closed once the new one shows.
	const switchTo = async (name: string): Promise<string | null> => {
		if (!options.resolveProfile) return 'Switching profiles needs a config file with profiles.';
		try {
			const target = await options.resolveProfile(name);
			if (target.apiKey && !target.apiKey.isEmpty) secrets.push(target.apiKey.reveal());
			const previous = session;
			session = openSession({...target, demo: false}, options, writeAlert);
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

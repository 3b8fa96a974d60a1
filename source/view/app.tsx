import {render} from 'ink';
import {firstAnswer, type DashboardRuntime} from '../state/dashboard-session.js';
import {warmUpGraphemes, warmUpTextMeasures} from '../terminal/cached-output.js';
import {installRenderSpeedups} from '../terminal/render-speedups.js';
import {guardStdin} from '../boundary/ink-stdin.js';
import {setUsageThresholds, type UsageThresholds} from './triage/usage-look.js';
import type {ReactElement} from 'react';
import {Dashboard} from './Dashboard.js';
import {diffingStdout} from '../terminal/diff-stdout.js';
import {createExitGuard} from '../terminal/exit-guard.js';
import {inkScreenOptions, inkTerminalScreen} from '../terminal/terminal-screen.js';
import {openDebugLog} from '../config/debug-log.js';
import {captureStrayOutput} from '../terminal/stray-output.js';
import {preferMemoryOverSpeed} from '../config/memory-profile.js';
import {preloadStreams} from '../state/stream-supervisor.js';

export type RunDashboardOptions = {
	/** Warning colours for cost and context use (view/triage/usage-look.ts). */
	usageThresholds?: Partial<UsageThresholds>;
};

/**
 * The interactive dashboard, from the first frame to the exit code. Enters the alternate screen
 * once, renders, and leaves through one exit guard whatever ends it, so the user's shell screen
 * always comes back. Resolves with the process exit code (0 on `q`, 128+n on a signal, 1 on a
 * crash). The servers are the runtime's (commands/dashboard-runtime.ts): the view shows its
 * session, asks it to switch, and closes it on the way out, so the process can end on its own.
 */
export async function runDashboard(options: RunDashboardOptions, runtime: DashboardRuntime): Promise<number> {
	const {stdout, stdin, stderr} = process;
	if (options.usageThresholds) setUsageThresholds(options.usageThresholds);
	const {secrets} = runtime;
	let session = runtime.session();
	// A frame drawn before the first answer is replaced at once, and it is the slowest frame of
	// the run (nothing is compiled yet): when the server answers quickly, the first frame has data.
	const answered = firstAnswer(session.store, firstAnswerWaitMs);
	// Ink's line builder with caches that outlive a frame (boundary/).
	installRenderSpeedups();
	warmUpTextMeasures();
	await answered;
	let unmount = () => undefined as void;
	// Ink takes the alternate screen, hides the cursor and turns bracketed paste on, and gives
	// them back when it unmounts; the guard below makes sure it unmounts on every way out.
	const terminal = inkTerminalScreen(stdout, () => unmount());
	// From the first frame to the way out, only the frame reaches the terminal: warnings and stray
	// stderr go to the debug log. Given back where the screen is, so a crash message still prints.
	const debugLog = openDebugLog();
	const stray = captureStrayOutput({log: debugLog, secrets});
	const strayOutput = {output: stray, logPath: debugLog.path};
	const screen = {
		active: terminal.active,
		restore() {
			terminal.restore();
			stray.restore();
		},
	};
	// A bracketed paste whose end never comes would hold every later key (boundary/ink-stdin.ts).
	const input = guardStdin(stdin);
	let rerender = (_tree: ReactElement) => undefined as void;
	const guard = createExitGuard({
		screen,
		stderr,
		unmount: () => unmount(),
		secrets,
		log: debugLog,
		// Every server of the run, the demo's simulator and the process's pool.
		cleanup: () => {
			input.dispose();
			return runtime.close();
		},
	});
	guard.install();

	const tree = (): ReactElement => (
		<Dashboard
			key={session.id}
			store={session.store}
			controller={session.controller}
			onQuit={() => guard.finish(0)}
			profiles={runtime.profiles}
			currentProfile={runtime.currentProfile()}
			onSwitchProfile={switchTo}
			strayOutput={strayOutput}
		/>
	);
	// ctrl-p: the chosen profile gets a session of its own; the runtime closes the old one once the new one shows.
	const switchTo = (name: string): Promise<string | null> =>
		runtime.switchTo(name, (next) => {
			session = next;
			rerender(tree());
		});

	try {
		const instance = render(tree(), {
			// On the alternate screen only the lines that changed are written (terminal/frame-diff.ts).
			stdout: screen.active ? diffingStdout(stdout) : stdout,
			stdin: input.stream,
			stderr,
			exitOnCtrlC: false,
			// Live frames, the alternate screen and the kitty keyboard exactly when the screen is ours.
			...inkScreenOptions(screen.active),
			patchConsole: false,
			// Ink's incremental mode rewrites changed lines relative to where it believes the cursor
			// is; diffingStdout writes only the changed cells, at absolute positions, and lets the
			// terminal scroll lines that moved as a block.
			incrementalRendering: false,
			maxFps: 15,
		});
		unmount = () => instance.unmount();
		rerender = (next) => instance.rerender(next);
		// With the first frame out: the grapheme segmenters (ICU's set-up) and the WebSocket library
		// (and the Node modules it brings), which the list does not need, so a key or opening a
		// conversation does not wait for them; then the heap flags, with every module of the
		// dashboard loaded (source/config/memory-profile.ts says why, and why after).
		setImmediate(() => {
			warmUpGraphemes();
			preloadStreams()
				.catch(() => undefined)
				.then(() => preferMemoryOverSpeed());
		});
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

import type {ResolvedConfig} from '../config/resolve.js';
import type {DashboardDefaults} from '../config/config-file.js';
import {detectionOptions} from './detection-flags.js';
import {printError, type Io} from './io.js';
import {notifyProtocols, type NotifyProtocol} from '../format/terminal-notify.js';
import {UsageError} from './exit-codes.js';
import {configProfiles, openDashboardRuntime} from './dashboard-runtime.js';

/**
 * Starts the interactive dashboard. It is loaded with a dynamic import so the headless commands
 * never load Ink and React (faster, and nothing draws on a pipe), and so a build without the
 * view still runs every headless command.
 */
export type DashboardLaunchOptions = {
	alerts: boolean;
	/** `--alert-command`: run for each alert, on its own or with `--alerts`. */
	alertCommand?: string;
	alertProtocol?: NotifyProtocol | 'bell';
	quietAfterMs?: number;
	repeatThreshold?: number;
	spendAfterMs?: number;
	deadAfterMs?: number;
	startingAfterMs?: number;
	/** Cost (USD) and context-share thresholds for the warning colours, from the config file. */
	usageThresholds?: {costUsd?: readonly [number, number]; contextFraction?: readonly [number, number]};
};

/** `config` null: every profile of the config file at once (`--all-profiles`). */
export async function launchDashboard(config: ResolvedConfig | null, io: Io, options: DashboardLaunchOptions = {alerts: false}): Promise<number> {
	if (!process.stdin.isTTY) {
		io.stderr.write('agent-tui: the dashboard needs a terminal on stdin; for scripts use e.g. `agent-tui conversations --json`.\n');
		return 2;
	}

	// Your own keys first: a mistake in them is an error naming its line, before anything opens.
	await (await import('./key-setup.js')).applyConfiguredKeys();
	const {alerts, usageThresholds, ...detection} = options;
	const profiles = configProfiles(process.env, (line) => {
		if (io.debug) io.stderr.write(line);
	});
	const {parsePollTuning} = await import('../config/poll-tuning.js');
	const tuning = parsePollTuning(process.env.AGENT_TUI_POLL, (message) => io.stderr.write(`agent-tui: warning: ${message}\n`));
	const poll = tuning.budget || tuning.intervals ? {poll: tuning} : {};
	// Every server of the run (and the demo's simulator) is opened here and closed by runtime.close().
	// The first requests go out before the view's modules load (Ink, React, yoga: the largest part
	// of start-up), so the server answers while they compile.
	const runtime = await openDashboardRuntime(config, {alerts, ...detection, ...profiles, ...poll, write: (text) => void process.stdout.write(text)});

	let view: typeof import('../view/app.js');
	try {
		view = await import('../view/app.js');
	} catch (error) {
		await runtime.close();
		const {code, message} = error as NodeJS.ErrnoException;
		// Only the view itself missing means "not in this build"; anything else is a real failure.
		if (code === 'ERR_MODULE_NOT_FOUND' && /view[\\/]app\.(js|tsx?)/.test(message)) {
			io.stderr.write('agent-tui: the dashboard is not available in this build; the headless commands work (see agent-tui --help)\n');
			if (io.debug) printError(io, error);
			return 1;
		}
		throw error;
	}
	return view.runDashboard({...(usageThresholds ? {usageThresholds} : {})}, runtime);
}

/**
 * The dashboard's options: each flag given on the command line, else the config file's
 * `dashboard` default, else the built-in one. `alerts` is undefined when the flag was not given.
 */
export function dashboardOptions(
	flags: {
		quietAfter?: string | undefined;
		repeatThreshold?: number | undefined;
		spendAfter?: string | undefined;
		deadAfter?: string | undefined;
		startingAfter?: string | undefined;
		alerts?: boolean | undefined;
		alertCommand?: string | undefined;
		alertProtocol?: string | undefined;
	},
	defaults: DashboardDefaults,
): DashboardLaunchOptions {
	const quietAfter = flags.quietAfter ?? defaults.quietAfter;
	const repeatThreshold = flags.repeatThreshold ?? defaults.repeatThreshold;
	const spendAfter = flags.spendAfter ?? defaults.spendAfter;
	const usage = {...(defaults.costWarnUsd ? {costUsd: defaults.costWarnUsd} : {}), ...(defaults.contextWarn ? {contextFraction: defaults.contextWarn} : {})};
	const alertCommand = flags.alertCommand ?? defaults.alertCommand;
	const alertProtocol = parseAlertProtocol(flags.alertProtocol ?? defaults.alertProtocol);
	return {
		alerts: flags.alerts ?? defaults.alerts ?? false,
		...(alertCommand?.trim() ? {alertCommand} : {}),
		...(alertProtocol ? {alertProtocol} : {}),
		...detectionOptions({quietAfter, repeatThreshold, spendAfter, deadAfter: flags.deadAfter ?? defaults.deadAfter, startingAfter: flags.startingAfter ?? defaults.startingAfter}),
		...(Object.keys(usage).length > 0 ? {usageThresholds: usage} : {}),
	};
}

/** `--alert-protocol`: one of the notification sequences, or `bell` for the bell alone. */
function parseAlertProtocol(value: string | undefined): NotifyProtocol | 'bell' | undefined {
	if (value === undefined) return undefined;
	const word = value.trim().toLowerCase();
	if (word === 'bell' || (notifyProtocols as readonly string[]).includes(word)) return word as NotifyProtocol | 'bell';
	throw new UsageError(`--alert-protocol takes ${[...notifyProtocols, 'bell'].join(', ')}, not "${value}"`);
}

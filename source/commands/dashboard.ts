import type {ResolvedConfig} from '../config/resolve.js';
import type {DashboardDefaults} from '../config/config-file.js';
import {detectionOptions} from './detection-flags.js';
import {printError, type Io} from './io.js';
import {Secret} from '../wire/secret.js';
import {notifyProtocols, type NotifyProtocol} from '../format/terminal-notify.js';
import {UsageError} from './exit-codes.js';

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
	/** Cost (USD) and context-share thresholds for the warning colours, from the config file. */
	usageThresholds?: {costUsd?: readonly [number, number]; contextFraction?: readonly [number, number]};
};

export async function launchDashboard(config: ResolvedConfig, io: Io, options: DashboardLaunchOptions = {alerts: false}): Promise<number> {
	if (!process.stdin.isTTY) {
		io.stderr.write('agent-tui: the dashboard needs a terminal on stdin; for scripts use e.g. `agent-tui conversations --json`.\n');
		return 2;
	}

	const {alerts, ...detection} = options;
	const profiles = await profileSwitching(io);
	const {parsePollTuning} = await import('../config/poll-tuning.js');
	const tuning = parsePollTuning(process.env.AGENT_TUI_POLL, (message) => io.stderr.write(`agent-tui: warning: ${message}\n`));
	const poll = tuning.budget || tuning.intervals ? {poll: tuning} : {};
	const run =
		config.kind === 'demo'
			? {demo: true, apiKey: null, serverLabel: 'DEMO', alerts, ...detection, ...profiles, ...poll}
			: {demo: false, baseUrl: config.baseUrl, apiKey: config.apiKey, serverLabel: config.label, keySource: keySourceOf(config), alerts, ...detection, ...profiles, ...poll, profile: config.profile ?? null};
	// The composition root: demo or server is decided here, and what this run starts (the demo's
	// simulator, the process's HTTP agent) is shut down here, after the view has closed its session.
	// The simulator is loaded only for the demo: a real server's start-up does not pay for it.
	const simulator = config.kind === 'demo' ? await (await import('../simulator/server.js')).startSimulator({port: 0, tickMs: 700, sharedSandboxes: true}) : null;
	const {closeHttpAgent} = await import('../wire/http.js');
	const shutdown = async () => {
		await simulator?.close();
		await closeHttpAgent();
	};
	// The demo simulator has its own key; a configured key is never sent to it.
	const server =
		config.kind === 'demo'
			? {baseUrl: simulator!.url, apiKey: new Secret(simulator!.apiKey), runningSandboxCap: simulator!.world.options.maxRunningSandboxes}
			: {baseUrl: config.baseUrl, apiKey: config.apiKey};
	// The first requests go out before the view's modules load (Ink, React, yoga: the largest
	// part of start-up), so the server answers while they compile.
	const {prepareDashboard} = await import('../state/dashboard-session.js');
	const prepared = prepareDashboard(run, server, (text) => void process.stdout.write(text));

	let view: typeof import('../view/app.js');
	try {
		view = await import('../view/app.js');
	} catch (error) {
		await prepared.session.close();
		await shutdown();
		const {code, message} = error as NodeJS.ErrnoException;
		// Only the view itself missing means "not in this build"; anything else is a real failure.
		if (code === 'ERR_MODULE_NOT_FOUND' && /view[\\/]app\.(js|tsx?)/.test(message)) {
			io.stderr.write('agent-tui: the dashboard is not available in this build; the headless commands work (see agent-tui --help)\n');
			if (io.debug) printError(io, error);
			return 1;
		}
		throw error;
	}
	return view.runDashboard(run, prepared, shutdown);
}

/**
 * The dashboard's options: each flag given on the command line, else the config file's
 * `dashboard` default, else the built-in one. `alerts` is undefined when the flag was not given.
 */
export function dashboardOptions(
	flags: {
		quietAfter?: string | undefined;
		repeatThreshold?: number | undefined;
		alerts?: boolean | undefined;
		alertCommand?: string | undefined;
		alertProtocol?: string | undefined;
	},
	defaults: DashboardDefaults,
): DashboardLaunchOptions {
	const quietAfter = flags.quietAfter ?? defaults.quietAfter;
	const repeatThreshold = flags.repeatThreshold ?? defaults.repeatThreshold;
	const usage = {...(defaults.costWarnUsd ? {costUsd: defaults.costWarnUsd} : {}), ...(defaults.contextWarn ? {contextFraction: defaults.contextWarn} : {})};
	const alertCommand = flags.alertCommand ?? defaults.alertCommand;
	const alertProtocol = parseAlertProtocol(flags.alertProtocol ?? defaults.alertProtocol);
	return {
		alerts: flags.alerts ?? defaults.alerts ?? false,
		...(alertCommand?.trim() ? {alertCommand} : {}),
		...(alertProtocol ? {alertProtocol} : {}),
		...detectionOptions({quietAfter, repeatThreshold}),
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

/** Where the key sent came from, as a rejected key's header says it; with none configured, that is the news. */
function keySourceOf(config: Extract<ResolvedConfig, {kind: 'server'}>): string {
	if (config.apiKey === null) return 'no key is set: OPENHANDS_API_KEY';
	return `key from ${config.apiKeySource ?? 'OPENHANDS_API_KEY'}`;
}

/** ctrl-p in the dashboard: the config file's profiles, and how to open one (as `--profile NAME` would). */
async function profileSwitching(io: Io) {
	const {listProfiles, resolveProfile} = await import('../config/profiles.js');
	const warn = (line: string) => {
		if (io.debug) io.stderr.write(line);
	};
	let profiles: Array<{name: string; label: string}> = [];
	try {
		profiles = listProfiles(process.env, warn);
	} catch {
		// A broken config file was reported when the dashboard's own server was resolved.
	}
	return {
		profiles,
		async resolveProfile(name: string) {
			const resolved = await resolveProfile(name, process.env, warn);
			if (resolved.kind !== 'server') throw new Error(`profile "${name}" names no server`);
			return {baseUrl: resolved.baseUrl, apiKey: resolved.apiKey, label: resolved.label, keySource: keySourceOf(resolved)};
		},
	};
}

import {after} from 'node:test';
import assert from 'node:assert/strict';
import {fileURLToPath} from 'node:url';
import {startSimulator, type Simulator, type SimulatorOptions} from '../../source/simulator/server.js';
import {cliCommand} from './built-cli.js';
import {shellQuote, startTmux, type TmuxSession} from './tmux.js';

/**
 * The shared start of the dashboard end-to-end tests: a simulator in this process, the built CLI
 * in a real terminal (tmux) pointed at it, and both closed when the test file ends. The pane
 * prints `EXIT=<status>` when the dashboard exits, so a test can check it quit cleanly.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));

/** `describe`'s skip reason where tmux is missing (on CI a missing tmux fails instead: helpers/tmux.ts). */
export {tmuxSkip} from './tmux.js';

export type DashboardRun = {tmux: TmuxSession; simulator: Simulator};

/**
 * More for the dashboard's command line: flags after --base-url, variables in its environment;
 * `simulator` is called with the simulator before the dashboard starts (faults to set first).
 */
export type LaunchExtras = {args?: readonly string[]; env?: Readonly<Record<string, string>>; simulator?: (simulator: Simulator) => void};

/** Registers the clean-up once per test file; `launch` starts one simulator and one dashboard. */
export function dashboardLauncher(simulatorOptions: SimulatorOptions): (columns: number, rows: number, extras?: LaunchExtras) => Promise<DashboardRun> {
	const simulators: Simulator[] = [];
	const sessions: TmuxSession[] = [];
	after(async () => {
		for (const session of sessions) session.kill();
		await Promise.all(simulators.map((simulator) => simulator.close()));
	});
	return async (columns, rows, extras = {}) => {
		const simulator = await startSimulator({port: 0, ...simulatorOptions});
		simulators.push(simulator);
		extras.simulator?.(simulator);
		const env = Object.entries(extras.env ?? {}).map(([name, value]) => `${name}=${shellQuote(value)}`);
		const app = ['env -u CI', `OPENHANDS_API_KEY=${shellQuote(simulator.apiKey)}`, 'NODE_ENV=production', ...env, cliCommand(), `--base-url ${shellQuote(simulator.baseUrl)}`, ...(extras.args ?? []).map(shellQuote)].join(' ');
		const command = `${app}; printf 'EXIT=%s\\n' $?; sleep 60`;
		const tmux = startTmux({columns, rows, command: `sh -c ${shellQuote(command)}`, cwd: root});
		sessions.push(tmux);
		return {tmux, simulator};
	};
}

export const screenLines = (screen: string) => screen.split('\n');

/** The filter line (`/ …`), or '' when the filter is closed. */
export const filterLine = (screen: string) => screenLines(screen).find((line) => line.startsWith('/ ')) ?? '';

/**
 * The selected row (`› `) with its figures masked: ages, times and costs change every second,
 * so two screens whose cursor is on the same row give the same answer. A wait for "the selection
 * moved" that compared whole lines was met by a clock tick; the next key then went out before the
 * first was handled and the cursor ran past its row (e2e-fleet on a busy run: `n` twice, then `k`
 * selected the row under the parent).
 */
export function selectedRow(screen: string): string {
	const line = screenLines(screen).find((candidate) => candidate.startsWith('› ')) ?? '';
	return line.replaceAll(/\d+(?:[.:]\d+)*[smhd]?/g, '#');
}

/**
 * The timeline is open and its history has arrived: its header counts at least one event
 * (`42 events`, `7 of 20 events`, `50 loaded events`). A timeline that has just opened says `0 events` and `Loading
 * events…`: a filter typed then is kept, but the rows it is checked for are not there yet
 * (e2e-events-2026 read the screen right after filtering and found no row, on a quiet run).
 */
export function timelineLoaded(screen: string): boolean {
	return screen.includes('[3 Timeline') && /· (?:[\d,]+ of )?[1-9][\d,]* (?:loaded )?events\b/.test(screen);
}

/** Every line of the screen fits the terminal's width. */
export function assertFits(screen: string, columns: number): void {
	for (const line of screenLines(screen)) assert.ok(line.length <= columns, `line wider than ${columns}: ${line}`);
}

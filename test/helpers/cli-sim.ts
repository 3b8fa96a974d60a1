import assert from 'node:assert/strict';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, type TestContext} from 'node:test';
import {setStatus} from '../../source/simulator/agent-runtime.js';
import {startSimulator, type Simulator, type SimulatorOptions} from '../../source/simulator/server.js';
import type {SimConversation} from '../../source/simulator/world-types.js';
import {closeHttpAgent} from '../../source/wire/http.js';
import {runCli, startCli, type CliOptions, type CliRun, type RunningCli} from './built-cli.js';
import {eventually} from './eventually.js';
import {stopChild} from './run-process.js';

/**
 * The built CLI against simulators on port 0, for the headless command tests: a HOME of the
 * file's own (removed after its tests), runs with the simulator's base URL and key, and the
 * seeded conversations those tests pick. Every run goes through runCli, so through cliEnv and
 * the tests' cache folder (suite-cache-folder.test.ts).
 */

/** A HOME for the file's CLI runs, `agent-tui-<name>-…` in the temp folder, removed after its tests. */
export function cliHome(name: string): string {
	const home = mkdtempSync(join(tmpdir(), `agent-tui-${name}-`));
	after(() => rmSync(home, {recursive: true, force: true}));
	return home;
}

type RunOptions = Omit<CliOptions, 'home' | 'encoding'>;

/** The built CLI with `args` against `sim` (its base URL, its key in the environment). */
export function cliAgainst(sim: Simulator, home: string, args: readonly string[], options: RunOptions = {}): Promise<CliRun> {
	return runCli([...args, '--base-url', sim.baseUrl], {...options, home, env: {OPENHANDS_API_KEY: sim.apiKey, ...options.env}});
}

export type SimulatedCli = {
	/** The file's simulator, once its before-hook has run. */
	readonly sim: Simulator;
	readonly home: string;
	/** The built CLI with `args` against the simulator. */
	cli(args: readonly string[], options?: RunOptions): Promise<CliRun>;
};

/**
 * One simulator for the file's tests (no ticking unless `options` say so: statuses change only
 * through the test), started before them and closed after, with a HOME of its own for the CLI.
 */
export function simulatedCli(name: string, options: SimulatorOptions, timeoutMs = 40_000): SimulatedCli {
	const home = cliHome(name);
	let sim: Simulator | undefined;
	before(async () => {
		sim = await startSimulator({port: 0, tickMs: 0, ...options});
	});
	after(async () => {
		await sim?.close();
		await closeHttpAgent();
	});
	const fixture: SimulatedCli = {
		get sim() {
			assert.ok(sim, 'the simulator has started (before-hook)');
			return sim;
		},
		home,
		cli: (args, runOptions = {}) => cliAgainst(fixture.sim, home, args, {timeoutMs, ...runOptions}),
	};
	return fixture;
}

/** A seeded conversation of `scenario` in a running sandbox. */
export function liveOf(sim: Simulator, scenario: string): SimConversation {
	const conversation = sim.world.conversationList().find((row) => row.scenario === scenario && sim.world.findSandbox(row.sandboxId)?.status === 'RUNNING');
	assert.ok(conversation, `a live ${scenario} conversation`);
	return conversation;
}

/** The seed's long-runner in a running sandbox, with some history. */
export function longRunner(sim: Simulator): SimConversation {
	const conversation = sim.world
		.conversationList()
		.find((candidate) => sim.world.findSandbox(candidate.sandboxId)?.status === 'RUNNING' && candidate.scenario === 'long-runner' && sim.world.events(candidate).length > 0);
	assert.ok(conversation, 'the seed has a running long-runner');
	return conversation;
}

/** longRunner, its agent set running (a follower waits for it to end). */
export function runningLongRunner(sim: Simulator): SimConversation {
	const conversation = longRunner(sim);
	if (conversation.executionStatus !== 'running') setStatus(sim.world, conversation, 'running');
	return conversation;
}

/** The built CLI left running with `args` against `sim` (`watch`, `--follow`), stopped when the test ends. */
export function startCliAgainst(t: TestContext, sim: Simulator, home: string, args: readonly string[]): RunningCli {
	const cli = startCli([...args, '--base-url', sim.baseUrl], {home, env: {OPENHANDS_API_KEY: sim.apiKey}});
	t.after(() => stopChild(cli.child));
	return cli;
}

/**
 * `watch --json` (and the `args` made from its HOME) against a simulator of its own (no ticking
 * unless `options` say so), in a HOME of its own (`agent-tui-<name>-…`): once it has read its
 * baseline ("watching N conversations"). The CLI stops, then the simulator closes, then the HOME
 * goes, when the test ends.
 */
export async function watching(t: TestContext, name: string, options: SimulatorOptions & {conversations: number}, args: (home: string) => string[] = () => [], baselineMs = 30_000) {
	const sim = await startSimulator({port: 0, tickMs: 0, ...options});
	const home = mkdtempSync(join(tmpdir(), `agent-tui-${name}-`));
	const cli = startCli(['watch', '--json', ...args(home), '--base-url', sim.baseUrl], {home, env: {OPENHANDS_API_KEY: sim.apiKey}});
	t.after(async () => {
		await stopChild(cli.child);
		await sim.close();
		await closeHttpAgent();
		rmSync(home, {recursive: true, force: true});
	});
	await eventually(() => cli.stderr.includes(`watching ${options.conversations} conversations`), 'the baseline', {timeoutMs: baselineMs, pollMs: 100, detail: cli.detail});
	return {sim, home, cli};
}

import assert from 'node:assert/strict';
import {mkdtempSync, readdirSync, readFileSync, rmSync, statSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, test} from 'node:test';
import {startSimulator, type Simulator} from '../source/simulator/server.js';
import {type RunningCli, startCli} from './helpers/built-cli.js';
import {eventually} from './helpers/eventually.js';
import {stopChild} from './helpers/run-process.js';

/**
 * Clients on one machine that use one server with one key share one request budget (a file in
 * the state directory), and learn the server's real limit from its 429s. Real processes
 * (`watch --json`, which runs the dashboard's own poller) against the simulator's per-key window
 * limiter. Minutes pass in seconds: the simulator's window is 3 s, and AGENT_TUI_POLL gives the
 * clients a "minute" of 3 s (`minuteMs`) and polls fast enough that each alone wants more than
 * half the limit.
 */

const home = mkdtempSync(join(tmpdir(), 'agent-tui-shared-budget-'));
after(() => rmSync(home, {recursive: true, force: true}));

const windowMs = 3000;
const poll = `perMinute=20,minuteMs=${windowMs},refreshMs=100,searchMs=1000,sandboxesMs=1000,sandboxesPendingMs=500,retryBaseMs=200,retryCapMs=1000`;

function watcher(sim: Simulator, stateHome: string, extraPoll = ''): RunningCli {
	return startCli(['watch', '--json', '--base-url', sim.baseUrl], {
		home,
		env: {OPENHANDS_API_KEY: sim.apiKey, XDG_STATE_HOME: stateHome, AGENT_TUI_POLL: `${poll}${extraPoll}`},
	});
}

/** The app server's answers so far (agent servers under /runtime/ are other servers). */
function appAnswers(sim: Simulator): Array<{status: number | null; at: number}> {
	return sim.stats.log.filter((entry) => !entry.path.startsWith('/runtime/') && !entry.path.startsWith('/_sim/')).map((entry) => ({status: entry.status, at: entry.at}));
}

const refusals = (sim: Simulator) => appAnswers(sim).filter((answer) => answer.status === 429).length;

async function simulator(limit: number): Promise<Simulator> {
	const sim = await startSimulator({port: 0, tickMs: 0, seed: 43, conversations: 30});
	sim.faults.requestsPerWindow({limit, windowMs});
	return sim;
}

test('two watchers on one key share one budget: no 429 where two separate budgets take several; the ledger is private and holds no key', {timeout: 90_000}, async (t) => {
	// Sixty requests: three windows' worth at the limit of 20, which two clients that each think
	// they have it all pass within the first window or two.
	const requests = 60;

	await t.test('shared (one state directory): no 429', async () => {
		const sim = await simulator(20);
		const state = join(home, 'shared-state');
		const clients = [watcher(sim, state), watcher(sim, state)];
		try {
			await eventually(() => appAnswers(sim).length, `${requests} requests`, {until: (count) => count >= requests, timeoutMs: 40_000, pollMs: 100, detail: () => clients.map((client) => client.detail()).join('\n')});
			assert.equal(refusals(sim), 0, clients.map((client) => client.detail()).join('\n'));

			const dir = join(state, 'agent-tui', 'budget');
			const [name, ...others] = readdirSync(dir).filter((file) => !file.includes('.'));
			assert.ok(name && others.length === 0, `one ledger: ${readdirSync(dir).join(', ')}`);
			assert.equal(statSync(dir).mode & 0o777, 0o700);
			assert.equal(statSync(join(dir, name)).mode & 0o777, 0o600);
			const text = readFileSync(join(dir, name), 'utf8');
			assert.ok(!text.includes(sim.apiKey) && !name.includes(sim.apiKey), 'no key in the ledger or its name');
			const ledger = JSON.parse(text) as {clients: Array<{pid: number}>};
			assert.deepEqual(ledger.clients.map((client) => client.pid).sort(), clients.map((client) => client.child.pid).sort(), 'both clients in the ledger');
		} finally {
			await Promise.all(clients.map((client) => stopChild(client.child)));
			await sim.close();
		}
	});

	await t.test('positive control: separate budgets (two state directories) take 429s', async () => {
		const sim = await simulator(20);
		const clients = [watcher(sim, join(home, 'state-a')), watcher(sim, join(home, 'state-b'))];
		try {
			await eventually(() => appAnswers(sim).length, `${requests} requests`, {until: (count) => count >= requests, timeoutMs: 40_000, pollMs: 100});
			assert.ok(refusals(sim) > 0, `429s from ${appAnswers(sim).length} requests`);
		} finally {
			await Promise.all(clients.map((client) => stopChild(client.child)));
			await sim.close();
		}
	});
});

test('against a limit lower than configured, a watcher learns it from the first 429 and takes at most one more over eight windows', {timeout: 120_000}, async () => {
	// The client thinks 20 per window; the server allows 8 (and names it, as the service does).
	const sim = await simulator(8);
	const client = watcher(sim, join(home, 'learn-state'));
	try {
		const first = (await eventually(() => appAnswers(sim).find((answer) => answer.status === 429), 'the first 429', {timeoutMs: 30_000, pollMs: 50, detail: () => client.detail()}))!;
		// Eight windows after the first 429, counted by the requests they allow once paced (about 6 a window).
		await eventually(() => appAnswers(sim).filter((answer) => answer.at > first.at && answer.status !== 429).length, 'eight windows of requests after the first 429', {until: (count) => count >= 48, timeoutMs: 60_000, pollMs: 100, detail: () => client.detail()});
		const answers = appAnswers(sim);
		const later = answers.filter((answer) => answer.at > first.at);
		assert.ok(later[later.length - 1]!.at - first.at >= 7 * windowMs, 'the run spans at least seven more windows');
		assert.ok(refusals(sim) <= 2, `${refusals(sim)} 429s:\n${client.detail()}`);
		const ledger = JSON.parse(readFileSync(join(home, 'learn-state', 'agent-tui', 'budget', readdirSync(join(home, 'learn-state', 'agent-tui', 'budget')).find((file) => !file.includes('.'))!), 'utf8')) as {learned: {limit: number; windowMs: number; named: boolean}};
		assert.deepEqual({limit: ledger.learned.limit, windowMs: ledger.learned.windowMs, named: ledger.learned.named}, {limit: 8, windowMs, named: true}, 'the named limit, shared in the ledger');
	} finally {
		await stopChild(client.child);
		await sim.close();
	}
});

import assert from 'node:assert/strict';
import {mkdtempSync, rmSync} from 'node:fs';
import {createServer, type Server as HttpServer} from 'node:http';
import {createServer as createNetServer, type AddressInfo} from 'node:net';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {startSimulator, type Simulator} from '../source/simulator/server.js';
import {runCli, startCli, type RunningCli} from './helpers/built-cli.js';
import {eventually} from './helpers/eventually.js';
import {stopChild} from './helpers/run-process.js';

/**
 * Issue 43.3, give up when told: `watch` against a server it cannot reach ends with exit 5 at its
 * `--timeout` (it retried for ten minutes); every command ends 130 on ctrl-c and 143 on SIGTERM
 * (`watch` ended 0, the follower 130 on SIGTERM); a late answer says which part was late.
 */

const home = mkdtempSync(join(tmpdir(), 'agent-tui-give-up-'));
let sim: Simulator;
const running: RunningCli[] = [];
before(async () => {
	sim = await startSimulator({port: 0, tickMs: 20, seed: 13, conversations: 6});
});
after(async () => {
	for (const cli of running) await stopChild(cli.child);
	await sim.close();
	rmSync(home, {recursive: true, force: true});
});

function start(args: string[], key = sim.apiKey): RunningCli {
	const cli = startCli(args, {home, env: {OPENHANDS_API_KEY: key}});
	running.push(cli);
	return cli;
}
const until = (cli: RunningCli, predicate: () => boolean, what: string) => eventually(predicate, what, {timeoutMs: 60_000, pollMs: 100, detail: cli.detail});

/** A port nothing listens on: taken, then freed. */
async function closedPort(): Promise<number> {
	const server = createNetServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const {port} = server.address() as AddressInfo;
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}

async function listen(server: HttpServer): Promise<string> {
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

test('watch against a closed port ends with exit 5 at its --timeout, saying why', async (t) => {
	const port = await closedPort();
	const started = Date.now();
	// runCli kills it after 60 s: a watch that retries on (it did for ten minutes) fails here.
	const run = await runCli(['watch', '--timeout', '4s', '--base-url', `http://127.0.0.1:${port}`], {home, env: {OPENHANDS_API_KEY: 'k-123456'}, timeoutMs: 60_000});
	t.diagnostic(`exit ${run.code} after ${((run.exitedAt - started) / 1000).toFixed(1)} s`);
	assert.equal(run.code, 5, run.stderr);
	assert.match(run.stderr, /gave up after 4s without an answer from the server \(.*connection refused.*\); none was read since it started/);
	// It did try: the retries were said, once.
	assert.match(run.stderr, /cannot refresh: .*connection refused/);
});

test('watch --timeout against a healthy server that is asked little: it keeps watching past the deadline', {timeout: 90_000}, async (t) => {
	const quiet = await startSimulator({port: 0, tickMs: 0, seed: 3, conversations: 1});
	t.after(() => quiet.close());
	const cli = start(['watch', '--json', '--timeout', '2s', '--base-url', quiet.baseUrl], quiet.apiKey);
	await until(cli, () => cli.stderr.includes('watching 1 conversations'), 'the baseline');
	// Answers come seconds apart (a look-up every 5 s): the server has answered over 8 s, 4x the deadline.
	const first = quiet.stats.log[0]!.at;
	await until(cli, () => quiet.stats.log.some((entry) => entry.at - first > 8000 && entry.status === 200), 'requests over 8 s');
	assert.equal(cli.child.exitCode, null, `still watching: ${cli.detail()}`);
	cli.child.kill('SIGINT');
	assert.equal(await cli.exited, 130, cli.detail());
});

test('watch: ctrl-c ends it with 130, SIGTERM with 143', async () => {
	for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
		const cli = start(['watch', '--json', '--base-url', sim.baseUrl]);
		await until(cli, () => cli.stderr.includes('watching 6 conversations'), 'the baseline');
		cli.child.kill(signal);
		assert.equal(await cli.exited, code, `${signal}: ${cli.detail()}`);
	}
});

test('events --follow: SIGTERM ends it with 143, ctrl-c with 130', async () => {
	const conversation = sim.world
		.conversationList()
		.find((candidate) => sim.world.findSandbox(candidate.sandboxId)?.status === 'RUNNING' && candidate.scenario === 'long-runner' && sim.world.events(candidate).length > 0);
	assert.ok(conversation, 'a running long-runner (it never ends by itself)');
	for (const [signal, code] of [['SIGTERM', 143], ['SIGINT', 130]] as const) {
		const cli = start(['events', conversation.id, '--follow', '--json', '--base-url', sim.baseUrl]);
		await until(cli, () => cli.stdout.split('\n').length > 3, 'the history printed');
		cli.child.kill(signal);
		assert.equal(await cli.exited, code, `${signal}: ${cli.detail()}`);
	}
});

test('a one-shot command waiting on a server: ctrl-c ends it with 130, SIGTERM with 143', async (t) => {
	let requests = 0;
	const server = createServer(() => {
		// Never answers.
		requests++;
	});
	const base = await listen(server);
	t.after(() => {
		server.closeAllConnections();
		server.close();
	});
	for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
		const before = requests;
		const cli = start(['conversations', '--base-url', base], 'k-123456');
		await until(cli, () => requests > before, 'the request sent');
		cli.child.kill(signal);
		assert.equal(await cli.exited, code, `${signal}: ${cli.detail()}`);
	}
});

test('headers that came, a body that did not: the message says the body was late', async (t) => {
	const server = createServer((_request, response) => {
		response.writeHead(200, {'content-type': 'application/json'});
		// Half an answer, then nothing.
		response.write('{"items": [');
	});
	const base = await listen(server);
	t.after(() => {
		server.closeAllConnections();
		server.close();
	});
	const run = await runCli(['conversations', '--timeout', '3s', '--base-url', base], {home, env: {OPENHANDS_API_KEY: 'k-123456'}, timeoutMs: 60_000});
	assert.equal(run.code, 5, run.stderr);
	assert.match(run.stderr, /sent its headers \(HTTP 200\), but the answer came too slowly/);
	assert.doesNotMatch(run.stderr, /did not answer in time/);
});

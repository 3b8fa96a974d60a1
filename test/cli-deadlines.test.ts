import assert from 'node:assert/strict';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, test} from 'node:test';
import {startSimulator} from '../source/simulator/server.js';
import {runCli, type CliRun} from './helpers/built-cli.js';
import {loopbackServer} from './helpers/loopback.js';

/**
 * A server that trickles its answer one byte a second used to cost 602 s before exit 5 (a
 * 120 s body deadline, five tries). A one-shot read now gives up inside 60 s: a 20 s body
 * deadline, and no try started that could not end inside the call's 45 s.
 *
 * Checked by what the server saw (how many tries) and what the CLI says, never by the clock: a
 * child process's start-up and timers stretch on a loaded machine. Each test's own timeout (and
 * runCli's) fails a CLI that does not give up at all.
 */

const home = mkdtempSync(join(tmpdir(), 'agent-tui-deadline-'));
after(() => rmSync(home, {recursive: true, force: true}));

function cli(args: string[], key = 'k-123456', onStdout?: (stdout: string) => void): Promise<CliRun> {
	return runCli(args, {home, env: {OPENHANDS_API_KEY: key}, timeoutMs: 120_000, onStdout});
}

test('a server that accepts and never answers: --timeout 3s ends a one-shot read with exit 5 after one try', async (t) => {
	let requests = 0;
	const base = await loopbackServer(t, () => {
		// Never answers.
		requests++;
	});
	const started = Date.now();
	const run = await cli(['conversations', '--timeout', '3s', '--base-url', base]);
	const seconds = (run.exitedAt - started) / 1000;
	t.diagnostic(`exit ${run.code} after ${seconds.toFixed(1)} s, ${requests} requests`);
	assert.equal(run.code, 5, run.stderr);
	assert.match(run.stderr, /did not answer in time/);
	// 3 s is the whole call: its one try waits that long for an answer, and no retry fits after it
	// (the default 45 s would have made three tries of 15 s).
	assert.equal(requests, 1, 'one try');
	const bad = await cli(['conversations', '--timeout', 'soon', '--base-url', 'http://127.0.0.1:9']);
	assert.equal(bad.code, 2);
	assert.match(bad.stderr, /--timeout takes a duration such as 30s, 2m or 1h, not "soon"/);
});

test('a dead server ends --follow with exit 5 inside its deadline, saying what it last saw', async (t) => {
	const sim = await startSimulator({port: 0, tickMs: 20, seed: 13, conversations: 4});
	let closed = false;
	t.after(() => (closed ? undefined : sim.close()));
	const conversation = sim.world
		.conversationList()
		.find((candidate) => sim.world.findSandbox(candidate.sandboxId)?.status === 'RUNNING' && candidate.scenario === 'long-runner' && sim.world.events(candidate).length > 0);
	assert.ok(conversation, 'a running long-runner (it never finishes)');
	let killedAt = 0;
	const run = await cli(['events', conversation.id, '--follow', '--json', '--timeout', '4s', '--base-url', sim.baseUrl], sim.apiKey, (stdout) => {
		// Once the history is out, the server dies.
		if (!closed && stdout.split('\n').length > 5) {
			closed = true;
			killedAt = Date.now();
			void sim.close();
		}
	});
	const seconds = (run.exitedAt - killedAt) / 1000;
	t.diagnostic(`exit ${run.code} ${seconds.toFixed(1)} s after the server died`);
	assert.ok(killedAt > 0, 'the follow printed events before the server died');
	assert.equal(run.code, 5, run.stderr);
	// The deadline said is the one given (the default is 3m, past runCli's 120 s kill).
	assert.match(run.stderr, /gave up after 4s without contact with the event stream \(.+\); the last event seen is from \d{4}-/);
});

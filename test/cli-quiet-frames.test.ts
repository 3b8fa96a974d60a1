import assert from 'node:assert/strict';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {startSimulator, type Simulator} from '../source/simulator/server.js';
import {startCli, type RunningCli} from './helpers/built-cli.js';
import {eventually} from './helpers/eventually.js';
import {stopChild} from './helpers/run-process.js';

/**
 * Issue 43.5: 305 stderr warnings in 30 s for bad WebSocket frames, where one per kind is
 * promised. Each kind of stream problem is now said once, and how many more at the end.
 */

const home = mkdtempSync(join(tmpdir(), 'agent-tui-quiet-'));
let sim: Simulator;
let cli: RunningCli | undefined;
before(async () => {
	sim = await startSimulator({port: 0, tickMs: 20, seed: 13, conversations: 4});
});
after(async () => {
	if (cli) await stopChild(cli.child);
	await sim.close();
	rmSync(home, {recursive: true, force: true});
});

test('40 malformed frames while following: one warning, then "39 more" at the end; every event still printed', {timeout: 120_000}, async () => {
	const conversation = sim.world
		.conversationList()
		.find((candidate) => sim.world.findSandbox(candidate.sandboxId)?.status === 'RUNNING' && candidate.scenario === 'long-runner' && sim.world.events(candidate).length > 0);
	assert.ok(conversation, 'a running long-runner (it never ends by itself)');
	const running = startCli(['events', conversation.id, '--follow', '--json', '--base-url', sim.baseUrl], {home, env: {OPENHANDS_API_KEY: sim.apiKey}});
	cli = running;
	const until = (predicate: () => boolean, what: string) => eventually(predicate, what, {timeoutMs: 90_000, pollMs: 100, detail: running.detail});
	await until(() => sim.openSockets() > 0 && running.stdout.split('\n').length > 3, 'the follow live');
	const before = sim.world.events(conversation).length;
	sim.faults.malformedFrames(40);
	// Each event sent over the socket takes one bad frame: past 40 new events, all 40 went out.
	await until(() => sim.world.events(conversation).length > before + 45, '45 more events');
	const last = sim.world.events(conversation).at(-1)!;
	// Lost frames are fetched again over REST: the newest event is printed all the same.
	await until(() => running.stdout.includes(last.id), 'the newest event printed');
	running.child.kill('SIGINT');
	assert.equal(await running.exited, 130, running.detail());
	const warnings = running.stderr.split('\n').filter((line) => line.includes('warning'));
	const malformed = warnings.filter((line) => line.includes('malformed-frame'));
	assert.equal(malformed.length, 2, running.stderr);
	assert.match(malformed[0]!, /further malformed-frame problems are counted, not repeated/);
	assert.match(malformed[1]!, /warning: 39 more malformed-frame problems/);
});

import assert from 'node:assert/strict';
import {test} from 'node:test';
import {TransitionDetector} from '../source/state/status-transitions.js';
import {AppClient} from '../source/wire/app-client.js';
import {conversationRow, hexId} from './helpers/dashboard-fixture.js';
import {watching} from './helpers/cli-sim.js';
import {eventually} from './helpers/eventually.js';

/**
 * Status transitions, each reported exactly once (state/status-transitions.ts), and the headless
 * `agent-tui watch --json` that prints them, as a real process against the simulator.
 */

test('transitions: the first list is the baseline; a change is reported once; a gap in a page is not a change', () => {
	const detector = new TransitionDetector();
	const a = conversationRow({id: hexId(1), title: 'A', execution: 'running'});
	const b = conversationRow({id: hexId(2), title: 'B', execution: 'running'});
	assert.deepEqual(detector.observe([a, b]), [], 'the baseline says nothing');
	assert.deepEqual(detector.observe([a, b]), [], 'a re-poll with the same statuses says nothing');
	const waiting = conversationRow({id: hexId(2), title: 'B', execution: 'waiting_for_confirmation'});
	const changes = detector.observe([a, waiting]);
	assert.equal(changes.length, 1);
	assert.deepEqual(
		{id: changes[0]!.id, which: changes[0]!.which, from: changes[0]!.from, to: changes[0]!.to, reason: changes[0]!.reason},
		{id: hexId(2), which: 'agent', from: 'running', to: 'waiting_for_confirmation', reason: 'waiting_for_confirmation'},
	);
	// Each transition carries the cause the queue groups the conversation by (watch --json prints it).
	assert.equal(changes[0]!.cause?.key, 'approval');
	assert.equal(typeof changes[0]!.cause?.since, 'string');
	assert.deepEqual(detector.observe([waiting]), [], 'A missing from one answer is not a change');
	assert.deepEqual(detector.observe([a, waiting]), [], 'nor is it when it comes back unchanged');
	// The server sends no agent status while the sandbox is paused: only the sandbox changed.
	const paused = conversationRow({id: hexId(1), title: 'A', execution: null, sandbox: 'PAUSED', lastKnown: 'running'});
	const pausedChanges = detector.observe([paused, waiting]);
	assert.deepEqual(pausedChanges.map((change) => `${change.which} ${change.from}→${change.to}`), ['sandbox running→paused'], 'the sandbox paused, named as such');
	assert.equal(pausedChanges[0]!.cause?.kind, 'paused', 'paused while its agent ran: its cause, with resume as the remedy');
	const added = detector.observe([paused, waiting, conversationRow({id: hexId(3), title: 'C', execution: 'idle'})]);
	assert.deepEqual(added.map((change) => [change.which, change.from, change.to]), [['agent', null, 'idle']], 'a conversation started later is reported once, from null');
	// Resumed and back to what it did: the sandbox changed; the agent's last known status did not.
	const resumed = conversationRow({id: hexId(1), title: 'A', execution: 'running', sandbox: 'RUNNING'});
	assert.deepEqual(detector.observe([resumed]).map((change) => `${change.which} ${change.from}→${change.to}`), ['sandbox paused→running']);
});

test('agent-tui watch --json: one NDJSON line per transition, exactly once across re-polls and a server restart', {timeout: 90_000}, async (t) => {
	const {sim, cli} = await watching(t, 'watch', {seed: 5, conversations: 30, sandboxTransitionMs: 50});
	const until = (predicate: () => boolean, what: string, timeoutMs = 30_000) => eventually(predicate, what, {timeoutMs, pollMs: 100, detail: cli.detail});
	assert.equal(cli.stdout, '', 'nothing printed for how things already were');

	// Pause two running sandboxes: each of their conversations goes running → paused, once.
	const app = new AppClient({baseUrl: sim.baseUrl, apiKey: sim.apiKey, maxRetries: 0});
	const running = (await app.listSandboxes()).filter((sandbox) => sandbox.status === 'RUNNING').slice(0, 2);
	assert.equal(running.length, 2);
	for (const sandbox of running) await app.pauseSandbox(String(sandbox.id));
	type Line = {id: string; which: string; from: string | null; to: string | null; time: string; title: string; kind?: string; server?: string; server_time?: string};
	const all = () => cli.stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Line);
	// Status changes; the changes of cause they bring are lines of their own (which: cause).
	const lines = () => all().filter((line) => line.which !== 'cause');
	const causeLines = () => all().filter((line) => line.which === 'cause');
	await until(() => lines().filter((line) => line.to === 'paused').length >= 2, 'two paused transitions');
	assert.ok(lines().every((line) => line.which === 'sandbox'), `a sandbox pause is named as one: ${cli.stdout}`);
	assert.ok(lines().every((line) => 'cause' in line), `each line carries its cause (null when nothing needs a person): ${cli.stdout}`);
	// A running agent's sandbox paused under it: its cause became paused mid-run, said once, with the server and its clock's time.
	const pausedMidRun = () => lines().filter((line) => line.to === 'paused' && (line as {cause?: {key: string} | null}).cause?.key === 'paused').length;
	await until(() => causeLines().filter((line) => line.to === 'paused').length >= pausedMidRun() && pausedMidRun() > 0, 'each cause that became paused');
	for (const line of causeLines().filter((entry) => entry.to === 'paused')) {
		assert.equal(line.kind, 'paused');
		assert.equal(line.server, new URL(sim.baseUrl).host);
		assert.ok(!Number.isNaN(Date.parse(line.server_time ?? '')), JSON.stringify(line));
	}
	// Several more polls, and a restart of the server in between: nothing is reported again.
	await sim.restart();
	// Nothing repeats across re-polls: let the watch poll the server again (every 5 s) a few
	// times, counted by the simulator, then check the transitions are still printed once each.
	const polled = sim.stats.requests;
	await until(() => sim.stats.requests >= polled + 3, 'three more polls after the transitions');
	const paused = lines().filter((line) => line.to === 'paused');
	assert.equal(paused.length, 2, cli.stdout);
	assert.equal(new Set(paused.map((line) => line.id)).size, 2);
	assert.equal(causeLines().filter((line) => line.to === 'paused').length, pausedMidRun(), `each cause said once: ${cli.stdout}`);
	for (const line of all()) {
		assert.match(line.id, /^[0-9a-f]{32}$/);
		assert.ok(!Number.isNaN(Date.parse(line.time)));
		assert.notEqual(line.from, line.to);
	}
	assert.ok(!cli.stdout.includes(sim.apiKey) && !cli.stderr.includes(sim.apiKey), 'the key is never printed');
	cli.child.kill('SIGINT');
	// Ended by ctrl-c: 130, as every command (commands/signals.ts).
	assert.equal(await cli.exited, 130, cli.stderr);
});

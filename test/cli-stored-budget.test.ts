import assert from 'node:assert/strict';
import diagnostics from 'node:diagnostics_channel';
import {PassThrough} from 'node:stream';
import {test, type TestContext} from 'node:test';
import type {Io} from '../source/commands/io.js';
import {checkInvocation} from '../source/commands/invocation.js';
import {readStoredEvents} from '../source/commands/stored-history-read.js';
import {startSimulator, type Simulator} from '../source/simulator/server.js';
import {AppClient} from '../source/wire/app-client.js';
import {closeHttpAgent} from '../source/wire/http.js';
import {commandServer} from './helpers/command-server.js';
import {maxInWindow} from './helpers/send-window.js';

/**
 * A long stored history read headless: one request per 100 events, every one under the app
 * server's budget (never more than 10 in any second, 100 in any minute), counted as they leave
 * the process; and the progress a person at a terminal sees.
 */

/** A simulator, the headless commands' budgeted server on it, and a terminal's stderr (its text so far). */
async function onSimulator(t: TestContext) {
	const sim = await startSimulator({port: 0, tickMs: 0, seed: 3, conversations: 30});
	t.after(async () => {
		await sim.close();
		await closeHttpAgent();
	});
	const app = new AppClient({baseUrl: sim.baseUrl, apiKey: sim.apiKey});
	const server = commandServer(sim, app);
	t.after(() => server.close());
	const stderr = Object.assign(new PassThrough(), {isTTY: true});
	let errText = '';
	stderr.on('data', (chunk: Buffer) => (errText += chunk.toString()));
	return {sim, app, server, stderr, errText: () => errText};
}

/** A conversation in a sandbox of `status`, given `count` events in all. */
function withEvents(sim: Simulator, status: string, count: number) {
	const target = sim.world.conversationList().find((row) => sim.world.findSandbox(row.sandboxId)?.status === status)!;
	while (sim.world.events(target).length < count) sim.world.appendEvent(target, {kind: 'PauseEvent', source: 'user'});
	return target;
}

test('2,500 stored events: 25 requests, never more than the budget allows in any window, progress on a terminal', {timeout: 60_000}, async (t) => {
	const sent: number[] = [];
	const listener = (message: unknown) => {
		const {request} = message as {request: {path: string}};
		if (/\/events\/search/.test(request.path)) sent.push(Date.now());
	};
	diagnostics.subscribe('undici:request:create', listener);
	t.after(() => diagnostics.unsubscribe('undici:request:create', listener));
	const {sim, app, server, stderr, errText} = await onSimulator(t);
	const target = withEvents(sim, 'MISSING', 2500);
	assert.equal(sim.world.events(target).length, 2500);

	const io: Io = {stdout: new PassThrough(), stderr, secrets: [], debug: false};
	const [conversation] = await app.getConversations([target.id]);

	const events = await readStoredEvents(server, io, conversation!, {}, 'TIMESTAMP');
	assert.deepEqual(
		events.map((event) => event.id),
		sim.world.events(target).map((event) => event.id),
	);
	assert.equal(sent.length, 25, 'ceil(2500 / 100) requests');
	const peak = (windowMs: number) => maxInWindow(sent, windowMs);
	assert.ok(peak(1000) <= 10, `at most 10 in any second (${peak(1000)})`);
	assert.ok(peak(60_000) <= 100);
	// Progress from the fourth page on, rewritten in place, ended with a newline.
	assert.doesNotMatch(errText(), /: [1-3] pages/, "quiet for the first three pages");
	assert.match(errText(), /\r\x1b\[Kagent-tui: reading stored history: 4 pages, 400 events/);
	assert.match(errText(), /reading stored history: 25 pages, 2500 events\n$/);

	// Not a terminal: nothing on stderr.
	const quiet = new PassThrough();
	let quietText = '';
	quiet.on('data', (chunk: Buffer) => (quietText += chunk.toString()));
	await readStoredEvents(server, {...io, stderr: quiet}, conversation!, {}, 'TIMESTAMP');
	assert.equal(quietText, '');
	assert.equal(sent.length, 50);
});

test('a running conversation read from its agent server shows the same progress on a terminal', {timeout: 60_000}, async (t) => {
	const {sim, server, stderr, errText} = await onSimulator(t);
	const target = withEvents(sim, 'RUNNING', 420);
	let outText = '';
	const stdout = new PassThrough();
	stdout.on('data', (chunk: Buffer) => (outText += chunk.toString()));
	const invocation = checkInvocation(['events', target.id], {json: true}, ['json']);
	const code = await invocation.command!.run(server, {stdout, stderr, secrets: [], debug: false}, invocation.args, invocation.commandFlags);
	assert.equal(code, 0);
	assert.equal((JSON.parse(outText) as unknown[]).length, 420);
	assert.doesNotMatch(errText(), /: [1-3] pages/);
	assert.match(errText(), /reading events: 5 pages, 420 events\n$/);
	assert.equal(sim.stats.byRoute['GET /api/v1/conversation/:id/events/search'] ?? 0, 0, 'a running sandbox is read from its agent server');
});

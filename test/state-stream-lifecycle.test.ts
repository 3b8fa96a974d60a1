import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import type {AddressInfo} from 'node:net';
import {test, type TestContext} from 'node:test';
import {fileURLToPath} from 'node:url';
import {WebSocketServer, type WebSocket as ServerSocket} from 'ws';
import {EventLog} from '../source/state/event-log.js';
import {StreamSupervisor, type StreamClient, type StreamStatus} from '../source/state/stream-supervisor.js';
import {parseEvent, type WireEvent} from '../source/wire/schemas/events.js';
import {Secret} from '../source/wire/secret.js';
import {clientFor, serverIds, startSim, waitUntil} from './wire-agent-fixtures.js';
import {timersLeft} from './helpers/timers-left.js';

/** A ws server that sends a first frame and then does what the test says with the connection. */
async function frameServer(t: TestContext, onConnection: (ws: ServerSocket) => void): Promise<{url: string; clients: () => ServerSocket[]}> {
	const server = new WebSocketServer({port: 0, host: '127.0.0.1'});
	server.on('connection', (ws) => {
		ws.once('message', () => {
			ws.send(JSON.stringify({kind: 'ConversationStateUpdateEvent', id: `fs-${Date.now()}-${Math.random()}`, timestamp: '2025-01-01T00:00:00', source: 'environment', key: 'full_state', value: {execution_status: 'idle'}}));
			onConnection(ws);
		});
	});
	await new Promise<void>((resolve) => server.once('listening', () => resolve()));
	t.after(async () => {
		for (const client of server.clients) client.terminate();
		await new Promise<void>((resolve) => server.close(() => resolve()));
	});
	return {url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/sockets/events/abc`, clients: () => [...server.clients]};
}

/** No history at all (the REST side is not what these tests are about). */
function emptyHistoryClient(url: string): StreamClient {
	return {
		async *allEvents(): AsyncGenerator<WireEvent, void, undefined> {
			// An empty history: nothing to yield.
		},
		socketUrl: () => url,
		sessionApiKey: new Secret('k'),
	};
}

test('accept-then-close loop: the backoff keeps growing; only a connection that stayed healthy resets it', async (t) => {
	let hold = false;
	const {url, clients} = await frameServer(t, (ws) => {
		if (!hold) ws.close(1011, 'going away');
	});
	let now = 1_000_000;
	const statuses: StreamStatus[] = [];
	const supervisor = new StreamSupervisor({
		client: emptyHistoryClient(url),
		backoff: {baseMs: 2, capMs: 64},
		healthyAfterMs: 30_000,
		// The top of each jitter window, so the schedule is visible.
		random: () => 0.999,
		now: () => now,
		onStatus: (status) => statuses.push(status),
	});
	t.after(() => supervisor.close());
	supervisor.start();

	const retries = () => statuses.filter((status) => status.state === 'reconnecting' && status.nextRetryInMs !== undefined);
	await waitUntil(() => retries().length >= 7, 5000, 'seven reconnects');
	const schedule = retries().slice(0, 7);
	assert.deepEqual(schedule.map((status) => status.attempt), [1, 2, 3, 4, 5, 6, 7]);
	assert.deepEqual(schedule.map((status) => status.nextRetryInMs), [1, 3, 7, 15, 31, 63, 63], 'doubling, capped, never reset by a brief open');
	assert.ok(schedule.every((status) => /1011/.test(status.lastError ?? '')));

	// Now a connection stays up; 31 s pass on the injected clock before it drops.
	hold = true;
	await waitUntil(() => supervisor.status.state === 'live', 3000, 'a held connection');
	now += 31_000;
	const before = retries().length;
	hold = false;
	for (const ws of clients()) ws.close(1011, 'later');
	await waitUntil(() => retries().length > before, 3000, 'the next reconnect');
	const after = retries()[before]!;
	assert.equal(after.attempt, 1, 'a healthy connection reset the counter');
	assert.equal(after.nextRetryInMs, 1);
});

test('a reconnect that delivers new events starts the backoff again from its minimum; a replay of known ones does not', async (t) => {
	// 'silent': accept and close; 'fresh': one event never seen before, then close; 'known': the same event again.
	let mode: 'silent' | 'fresh' | 'known' = 'silent';
	let sent = 0;
	const event = (n: number) => ({kind: 'MessageEvent', id: `ev-${n}`, timestamp: `2025-01-01T00:00:${String(n).padStart(2, '0')}`, source: 'agent', llm_message: {role: 'assistant', content: [{type: 'text', text: `hello ${n}`}]}});
	const {url} = await frameServer(t, (ws) => {
		if (mode === 'fresh') ws.send(JSON.stringify(event(++sent)));
		else if (mode === 'known' && sent > 0) ws.send(JSON.stringify(event(sent)));
		setTimeout(() => ws.close(1011, 'going away'), 20);
	});
	const statuses: StreamStatus[] = [];
	const supervisor = new StreamSupervisor({
		client: emptyHistoryClient(url),
		backoff: {baseMs: 2, capMs: 64},
		random: () => 0.999,
		onStatus: (status) => statuses.push(status),
	});
	t.after(() => supervisor.close());
	supervisor.start();
	const retries = () => statuses.filter((status) => status.state === 'reconnecting' && status.nextRetryInMs !== undefined);

	await waitUntil(() => retries().length >= 4, 5000, 'four silent reconnects');
	assert.deepEqual(retries().slice(0, 4).map((status) => status.nextRetryInMs), [1, 3, 7, 15], 'no data: the wait grows');
	mode = 'fresh';
	const firstFresh = retries().length;
	await waitUntil(() => sent >= 3 && retries().length >= firstFresh + 4, 5000, 'reconnects that deliver');
	const afterData = retries().slice(firstFresh + 1, firstFresh + 4);
	assert.deepEqual(afterData.map((status) => status.attempt), [1, 1, 1], 'each connection that brought an event reset the counter');
	assert.deepEqual(afterData.map((status) => status.nextRetryInMs), [1, 1, 1], 'the shortest wait again');
	assert.ok(supervisor.log.has('ev-1') && supervisor.log.has('ev-2'), 'the events were kept');

	mode = 'known';
	const firstKnown = retries().length;
	await waitUntil(() => retries().length >= firstKnown + 4, 5000, 'reconnects that replay known events');
	const replayed = retries().slice(firstKnown + 1, firstKnown + 4).map((status) => status.attempt);
	assert.ok(replayed[2]! > replayed[0]!, `a replay of known events is no progress: the counter grows (${replayed.join(', ')})`);
});

test('the execution status follows state updates (full_state and execution_status); notifications are batched', async (t) => {
	const sim = await startSim(t);
	const {conversation, client} = await clientFor(t, sim, 'long-runner');
	const batches: number[] = [];
	const supervisor = new StreamSupervisor({
		client,
		backoff: {baseMs: 5, capMs: 40},
		onEvents: (events) => batches.push(events.length),
	});
	t.after(() => supervisor.close());
	supervisor.start();
	await waitUntil(() => supervisor.status.state === 'live', 3000, 'live');
	assert.equal(supervisor.status.executionStatus, 'running');
	const historyBatches = batches.length;
	assert.ok(historyBatches <= 2, 'the history arrives as one page');

	await client.pause();
	await waitUntil(() => supervisor.status.executionStatus === 'paused', 3000, 'paused');
	await client.run();
	await waitUntil(() => supervisor.status.executionStatus === 'running', 3000, 'running again');

	const calls = batches.length;
	const before = supervisor.log.size;
	sim.step(20);
	await waitUntil(() => supervisor.log.size === sim.world.events(conversation).length, 3000, 'the burst');
	const burst = supervisor.log.size - before;
	assert.ok(burst >= 20);
	assert.ok(batches.length - calls < burst / 2, `${burst} events in ${batches.length - calls} notifications`);
	assert.deepEqual(supervisor.log.events.map((event) => event.id), serverIds(sim, conversation), 'no full_state in the log');
	assert.ok(supervisor.status.lastEventAt !== undefined && supervisor.status.lastEventTimestamp === supervisor.log.lastTimestamp);
});

test('a new supervisor on a handed-over log resumes from where it was complete: no re-read, no duplicate', async (t) => {
	const sim = await startSim(t);
	const {conversation, client} = await clientFor(t, sim, 'long-runner');
	while (sim.world.events(conversation).length < 450) sim.step(1);
	const log = new EventLog();
	const first = new StreamSupervisor({client, log, backoff: {baseMs: 5, capMs: 40}});
	first.start();
	await waitUntil(() => first.status.state === 'live' && log.size === sim.world.events(conversation).length, 3000, 'the first stream');
	await first.close();
	assert.equal(log.syncedThrough, log.lastTimestamp, 'closing a complete connection records how far the log is complete');

	sim.step(5);
	const searches = () => sim.stats.byRoute['GET /runtime/:n/api/conversations/:id/events/search'] ?? 0;
	const before = searches();
	const announced: string[] = [];
	// No overlap: this history was made in under a second, and the test is about the watermark.
	const second = new StreamSupervisor({client, log, backoff: {baseMs: 5, capMs: 40}, resyncOverlapMs: 0, onEvents: (events) => announced.push(...events.map((event) => event.id))});
	t.after(() => second.close());
	second.start();
	await waitUntil(() => second.status.state === 'live' && log.size === sim.world.events(conversation).length, 3000, 'the second stream');
	assert.deepEqual(log.events.map((event) => event.id), serverIds(sim, conversation));
	const ids = serverIds(sim, conversation);
	assert.deepEqual(announced, ids.slice(ids.length - announced.length), 'only the new events are announced');
	assert.ok(announced.length >= 5 && announced.length < 50);
	assert.ok(searches() - before <= 2, `${searches() - before} searches (a full re-read would take 5)`);
});

test('a handed-over log with an unverified range is completed from its watermark, not its newest event', async (t) => {
	const sim = await startSim(t);
	const {conversation, client} = await clientFor(t, sim, 'long-runner');
	while (sim.world.events(conversation).length < 150) sim.step(1);
	const all = sim.world.events(conversation);
	// The log has the first 100 events verified, then a hole, then 10 newer events.
	const log = new EventLog();
	log.add(all.slice(0, 100).map((event) => parseEvent(structuredClone(event))));
	log.syncedThrough = all[99]!.timestamp;
	log.add(all.slice(140).map((event) => parseEvent(structuredClone(event))));
	const supervisor = new StreamSupervisor({client, log, backoff: {baseMs: 5, capMs: 40}, resyncOverlapMs: 0});
	t.after(() => supervisor.close());
	supervisor.start();
	await waitUntil(() => supervisor.status.state === 'live' && log.size === sim.world.events(conversation).length, 3000, 'the hole to be filled');
	assert.deepEqual(log.events.map((event) => event.id), serverIds(sim, conversation));
});

test('close() stops everything: status closed, nothing announced after, and a process exits on its own', async (t) => {
	const sim = await startSim(t);
	const {client} = await clientFor(t, sim, 'long-runner');
	const timers = timersLeft();
	const supervisor = new StreamSupervisor({client, backoff: {baseMs: 5, capMs: 40}});
	supervisor.start();
	await waitUntil(() => supervisor.status.state === 'live', 3000, 'live');
	sim.faults.dropSockets();
	await supervisor.close();
	assert.equal(supervisor.status.state, 'closed');
	const size = supervisor.log.size;
	const before = sim.world.events(sim.world.findConversation(client.conversationId)!).length;
	sim.step(5);
	assert.ok(sim.world.events(sim.world.findConversation(client.conversationId)!).length > before, 'the agent went on');
	// Nothing can bring its events: no socket of it is open and no timer of it is left to retry.
	await waitUntil(() => sim.openSockets() === 0, 3000, 'its socket closed');
	assert.equal(timersLeft(), timers, `timers left: ${JSON.stringify(process.getActiveResourcesInfo())}`);
	assert.equal(supervisor.log.size, size);
	assert.equal(supervisor.status.state, 'closed');

	// The same in a child process that never calls process.exit: it must end by itself.
	const root = fileURLToPath(new URL('..', import.meta.url));
	const script = `
		import {startSimulator} from './source/simulator/server.ts';
		import {AgentClient} from './source/wire/agent-client.ts';
		import {appConversationSchema} from './source/wire/schemas/app.ts';
		import {StreamSupervisor} from './source/state/stream-supervisor.ts';
		const sim = await startSimulator({port: 0, seed: 1, tickMs: 0});
		const target = sim.world.conversationList().find((entry) => entry.scenario === 'long-runner');
		const response = await fetch(sim.baseUrl + '/api/v1/app-conversations/search', {headers: {authorization: 'Bearer ' + sim.apiKey}});
		const row = appConversationSchema.parse((await response.json()).items.find((item) => item.id === target.id));
		const supervisor = new StreamSupervisor({client: AgentClient.fromConversation(row, sim.baseUrl), backoff: {baseMs: 5, capMs: 40}, heartbeatIntervalMs: 50});
		supervisor.start();
		const until = async (predicate) => { while (!predicate()) await new Promise((resolve) => setTimeout(resolve, 5)); };
		await until(() => supervisor.status.state === 'live');
		sim.step(5);
		sim.faults.dropSockets();
		await until(() => supervisor.status.state === 'reconnecting');
		await supervisor.close();
		await sim.close();
		// A timer left behind (a retry, a heartbeat, a close handshake's 30 s) would keep it alive.
		console.log('closed ' + supervisor.log.size + ' ' + JSON.stringify(process.getActiveResourcesInfo()));
	`;
	const started = Date.now();
	const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {cwd: root, stdio: ['ignore', 'pipe', 'pipe']});
	let output = '';
	child.stdout.on('data', (chunk) => (output += chunk));
	child.stderr.on('data', (chunk) => (output += chunk));
	// It must end by itself: only a hang is killed, and generously (start-up under tsx is slow on a
	// loaded machine); how soon is not timed: the child says no timer was left at the end.
	const killer = setTimeout(() => child.kill('SIGKILL'), 45_000);
	const code = await new Promise<number | null>((resolve) => child.on('exit', (exitCode) => resolve(exitCode)));
	clearTimeout(killer);
	t.diagnostic(`the child exited ${Date.now() - started} ms after it was started`);
	assert.equal(code, 0, output);
	const left = /closed \d+ (.*)/.exec(output);
	assert.ok(left, output);
	assert.deepEqual((JSON.parse(left[1]!) as string[]).filter((resource) => resource === 'Timeout'), [], `timers left: ${output}`);
});

import assert from 'node:assert/strict';
import {test, type TestContext} from 'node:test';
import type {StreamClient, StreamSupervisorOptions} from '../source/state/stream-supervisor.js';
import type {Simulator} from '../source/simulator/server.js';
import type {SimConversation} from '../source/simulator/world-types.js';
import {AgentClient} from '../source/wire/agent-client.js';
import {Secret} from '../source/wire/secret.js';
import {clientFor, serverIds, startSim, waitUntil} from './wire-agent-fixtures.js';
import {supervise, type Supervised} from './helpers/supervise.js';
import {timersLeft} from './helpers/timers-left.js';

/**
 * The stream against the real embedded simulator over loopback, with its faults: dropped and
 * silent sockets, malformed and invalid-UTF-8 frames, 5xx during a resync, a restart.
 */

const socketRoute = 'GET /runtime/:n/sockets/events/:id';

type Watched = Supervised;

/** Fast settings for tests: small backoff, quick heartbeat. */
function watch(t: TestContext, client: StreamClient, options: Partial<StreamSupervisorOptions> = {}): Watched {
	return supervise(t, client, {backoff: {baseMs: 5, capMs: 40}, heartbeatIntervalMs: 150, heartbeatGraceMs: 150, firstFrameTimeoutMs: 500, handshakeTimeoutMs: 1000, ...options});
}

function logIds(watched: Watched): string[] {
	return watched.supervisor.log.events.map((event) => event.id);
}

/** Waits until the client holds exactly the server's events, live, and checks order and uniqueness. */
async function assertInSync(sim: Simulator, conversation: SimConversation, watched: Watched, timeoutMs = 5000): Promise<void> {
	await waitUntil(
		() => watched.supervisor.status.state === 'live' && !watched.supervisor.status.gap && watched.supervisor.log.size === sim.world.events(conversation).length,
		timeoutMs,
		'the client log to catch up with the server',
	);
	const expected = serverIds(sim, conversation);
	assert.deepEqual(logIds(watched), expected, 'same ids, same order');
	assert.equal(new Set(watched.announced).size, watched.announced.length, 'no event announced twice');
	assert.equal(watched.announced.length, expected.length, 'every event announced once');
}

/**
 * The agent writes `count` events (one every 4 ms) while the sockets are dropped every
 * `dropEveryMs`, and the server restarts once when `restartBefore` events are left to write;
 * resolves when all are written and the restart is over.
 */
async function writeThroughDropsAndARestart(t: TestContext, sim: Simulator, conversation: SimConversation, count: number, dropEveryMs: number, restartBefore: number, timeoutMs: number): Promise<void> {
	const target = sim.world.events(conversation).length + count;
	let restarting: Promise<void> | null = null;
	const stepper = setInterval(() => sim.step(1), 4);
	const dropper = setInterval(() => sim.faults.dropSockets(), dropEveryMs);
	t.after(() => {
		clearInterval(stepper);
		clearInterval(dropper);
	});
	await waitUntil(
		() => {
			const length = sim.world.events(conversation).length;
			if (!restarting && length > target - restartBefore) restarting = sim.restart();
			return length >= target;
		},
		timeoutMs,
		`${count} new server events`,
	);
	clearInterval(stepper);
	clearInterval(dropper);
	await restarting;
}

test('1,000+ live events with sockets dropped every 100 ms and a server restart: the log equals the server list', async (t) => {
	const sim = await startSim(t);
	const {conversation, client} = await clientFor(t, sim, 'long-runner');
	const watched = watch(t, client);
	await waitUntil(() => watched.supervisor.status.state === 'live', 3000, 'live');
	await writeThroughDropsAndARestart(t, sim, conversation, 1000, 100, 500, 20_000);

	await assertInSync(sim, conversation, watched);
	assert.ok(watched.supervisor.log.size >= 1000);
	assert.ok(watched.reconnects() >= 5, `reconnected ${watched.reconnects()} times`);
	t.diagnostic(`${watched.supervisor.log.size} events, ${watched.reconnects()} reconnects, ${sim.stats.byRoute[socketRoute]} socket connections`);
	assert.equal(watched.supervisor.status.executionStatus, 'running');
	assert.deepEqual(watched.problems.filter((problem) => problem.kind !== 'resync-failed'), [], 'no bad frames or items');
	// After the restart, the stream carries on live.
	const before = sim.world.events(conversation).length;
	sim.step(3);
	assert.ok(sim.world.events(conversation).length > before);
	await assertInSync(sim, conversation, watched);
});

test('without socket replay, the REST resync alone closes every gap from drops and a restart', async (t) => {
	const sim = await startSim(t);
	const {conversation, client} = await clientFor(t, sim, 'long-runner');
	const watched = watch(t, client, {replay: false});
	await waitUntil(() => watched.supervisor.status.state === 'live', 3000, 'live');
	await writeThroughDropsAndARestart(t, sim, conversation, 300, 60, 150, 10_000);
	await assertInSync(sim, conversation, watched);
	assert.ok(watched.reconnects() >= 3, `reconnected ${watched.reconnects()} times`);
});

test('a malformed frame is reported once; the stream stays up and the lost event is fetched (no gap)', async (t) => {
	const sim = await startSim(t);
	const {conversation, client} = await clientFor(t, sim, 'long-runner');
	const watched = watch(t, client);
	await waitUntil(() => watched.supervisor.status.state === 'live', 3000, 'live');
	const connections = sim.stats.byRoute[socketRoute];
	sim.faults.malformedFrames(1);
	sim.step(3);
	await assertInSync(sim, conversation, watched);
	assert.deepEqual(watched.problems.map((problem) => problem.kind), ['malformed-frame']);
	assert.equal(sim.stats.byRoute[socketRoute], connections, 'no reconnect for a malformed frame');
	assert.equal(watched.reconnects(), 0);
});

test('an invalid UTF-8 frame closes the socket; the stream reconnects and resyncs with no gap or duplicate', async (t) => {
	const sim = await startSim(t);
	const {conversation, client} = await clientFor(t, sim, 'long-runner');
	const watched = watch(t, client);
	await waitUntil(() => watched.supervisor.status.state === 'live', 3000, 'live');
	sim.faults.invalidUtf8Frames(1);
	sim.step(3);
	await waitUntil(() => watched.reconnects() === 1, 3000, 'a reconnect');
	sim.step(3);
	await assertInSync(sim, conversation, watched);
	assert.deepEqual(watched.problems.map((problem) => problem.kind), ['invalid-utf8']);
});

test('a silent socket is detected by the heartbeat and replaced; events from the silence arrive', async (t) => {
	const sim = await startSim(t);
	const {conversation, client} = await clientFor(t, sim, 'long-runner');
	const watched = watch(t, client, {heartbeatIntervalMs: 60, heartbeatGraceMs: 60, firstFrameTimeoutMs: 200});
	await waitUntil(() => watched.supervisor.status.state === 'live', 3000, 'live');
	sim.faults.silentSockets(true);
	sim.step(3);
	await waitUntil(() => watched.supervisor.status.state === 'reconnecting', 10_000, 'the heartbeat to notice');
	// Within interval + grace: at most two pings went unanswered (counted, not timed).
	assert.ok(sim.unansweredPings() <= 2, `${sim.unansweredPings()} unanswered pings`);
	assert.match(watched.supervisor.status.lastError ?? '', /silent/);
	sim.step(2);
	// The next socket opens into the silence too, before it ends.
	const connections = sim.stats.byRoute[socketRoute] ?? 0;
	await waitUntil(() => (sim.stats.byRoute[socketRoute] ?? 0) > connections, 5000, 'a socket opened into the silence');
	sim.faults.silentSockets(false);
	await assertInSync(sim, conversation, watched);
});

test('a failed resync shows a gap, then heals itself while the socket stays up', async (t) => {
	const sim = await startSim(t);
	const {conversation, client} = await clientFor(t, sim, 'long-runner');
	// Without the socket's replay, only the REST resync can bring back what happened meanwhile.
	const watched = watch(t, client, {replay: false});
	await waitUntil(() => watched.supervisor.status.state === 'live', 3000, 'live');
	sim.faults.serverErrors({count: 3, status: 503});
	sim.faults.dropSockets();
	sim.step(3);
	await waitUntil(() => watched.statuses.some((status) => status.gap), 3000, 'the gap marker');
	const gapped = watched.statuses.find((status) => status.gap)!;
	assert.match(gapped.lastError ?? '', /could not check for missed events.*503/);
	sim.step(2);
	await assertInSync(sim, conversation, watched);
	assert.ok(watched.problems.some((problem) => problem.kind === 'resync-failed'));
	assert.equal(watched.supervisor.status.gap, false);
});

test('a gap survives reconnects until a resync succeeds: the watermark never moves past missing events', async (t) => {
	const sim = await startSim(t);
	const {conversation, client} = await clientFor(t, sim, 'long-runner');
	// No replay and no overlap: only the watermark decides where the resync starts.
	const watched = watch(t, client, {replay: false, resyncOverlapMs: 0});
	await waitUntil(() => watched.supervisor.status.state === 'live', 3000, 'live');
	// Every REST call fails from now on; events happen while the socket is down.
	sim.faults.serverErrors({count: 100_000, status: 503});
	sim.faults.dropSockets();
	sim.step(3);
	await waitUntil(() => watched.supervisor.status.state === 'live' && watched.supervisor.status.gap, 3000, 'live with a gap');
	// Newer events arrive live on the gapped connection, then it drops too.
	sim.step(3);
	const newest = sim.world.events(conversation).at(-1)!.id;
	await waitUntil(() => watched.supervisor.log.has(newest), 3000, 'the live events');
	assert.ok(watched.supervisor.log.size < sim.world.events(conversation).length, 'the events of the first outage are missing');
	sim.faults.dropSockets();
	await waitUntil(() => watched.reconnects() === 2 && watched.supervisor.status.state === 'live', 3000, 'the second reconnect');
	assert.equal(watched.supervisor.status.gap, true);
	sim.faults.reset();
	await assertInSync(sim, conversation, watched);
});

test('an event over the frame limit is reported once, fetched over REST, and causes no reconnect loop', async (t) => {
	const sim = await startSim(t);
	const {conversation, client} = await clientFor(t, sim, 'long-runner');
	const watched = watch(t, client, {maxPayloadBytes: 64 * 1024});
	await waitUntil(() => watched.supervisor.status.state === 'live', 3000, 'live');
	const connections = sim.stats.byRoute[socketRoute] ?? 0;
	sim.world.sendMessage(conversation, `Here is the log:\n${'line of output\n'.repeat(20_000)}`, false);
	sim.step(2);
	await waitUntil(() => watched.reconnects() === 1, 3000, 'the reconnect after the oversized frame');
	sim.step(2);
	await assertInSync(sim, conversation, watched);
	// The socket that replaced it keeps delivering: new events come live on it, after anything it
	// replayed (in order on one socket), so a replay of the oversized event would have closed it first.
	const socketEvents = watched.announced.length;
	sim.step(2);
	await assertInSync(sim, conversation, watched);
	assert.ok(watched.announced.length > socketEvents);
	assert.deepEqual(watched.problems.map((problem) => problem.kind), ['oversized-frame']);
	assert.equal(watched.reconnects(), 1, 'the same event does not close the socket again');
	assert.equal((sim.stats.byRoute[socketRoute] ?? 0) - connections, 1);
});

test('replayed history produces no duplicates (resend since + overlapping search)', async (t) => {
	const sim = await startSim(t);
	const {conversation, client} = await clientFor(t, sim, 'long-runner');
	// A large overlap makes every resync re-read the whole history.
	const watched = watch(t, client, {resyncOverlapMs: 24 * 3600_000});
	await waitUntil(() => watched.supervisor.status.state === 'live', 3000, 'live');
	for (let round = 0; round < 3; round++) {
		sim.step(2);
		sim.faults.dropSockets();
		await waitUntil(() => watched.reconnects() === round + 1 && watched.supervisor.status.state === 'live', 3000, `reconnect ${round + 1}`);
	}
	await assertInSync(sim, conversation, watched);
});

test('a refused key on the socket (4001) stops the stream with a clear error and no retry', async (t) => {
	const sim = await startSim(t);
	const {client} = await clientFor(t, sim, 'long-runner');
	const wrongSocketKey: StreamClient = {
		allEvents: (params) => client.allEvents(params),
		socketUrl: () => client.socketUrl(),
		sessionApiKey: new Secret('sk-oh-not-the-key'),
	};
	const timers = timersLeft();
	const watched = watch(t, wrongSocketKey);
	await waitUntil(() => watched.supervisor.status.state === 'failed', 3000, 'failed');
	assert.match(watched.supervisor.status.lastError ?? '', /refused the session key \(4001/);
	assert.ok(!JSON.stringify(watched.statuses).includes('not-the-key'));
	// Stopped: no timer of the stream is left to try again (a sleep could only hope to see that).
	assert.equal(timersLeft(), timers, `timers left: ${JSON.stringify(process.getActiveResourcesInfo())}`);
	assert.equal(sim.stats.byRoute[socketRoute], 1, 'one attempt only');
	assert.equal(watched.supervisor.status.state, 'failed');
});

test('an unknown conversation on the socket (4004) stops the stream with a clear error and no retry', async (t) => {
	const sim = await startSim(t);
	const {client} = await clientFor(t, sim, 'long-runner');
	const elsewhere: StreamClient = {
		allEvents: (params) => client.allEvents(params),
		socketUrl: () => client.socketUrl().replace(/[^/]+$/, '0123456789abcdef0123456789abcdef'),
		sessionApiKey: client.sessionApiKey,
	};
	const timers = timersLeft();
	const watched = watch(t, elsewhere);
	await waitUntil(() => watched.supervisor.status.state === 'failed', 3000, 'failed');
	assert.match(watched.supervisor.status.lastError ?? '', /does not know this conversation \(4004/);
	assert.equal(timersLeft(), timers, `timers left: ${JSON.stringify(process.getActiveResourcesInfo())}`);
	assert.equal(sim.stats.byRoute[socketRoute], 1);
});

test('HTTP 401 and 404 from the REST history stop the stream without retrying', async (t) => {
	const sim = await startSim(t);
	const {row} = await clientFor(t, sim, 'long-runner');
	const timers = timersLeft();
	const wrongKey = AgentClient.fromConversation({...row, session_api_key: new Secret('sk-wrong')}, sim.baseUrl, {maxRetries: 0});
	const refused = watch(t, wrongKey);
	await waitUntil(() => refused.supervisor.status.state === 'failed', 3000, 'failed on 401');
	assert.match(refused.supervisor.status.lastError ?? '', /key rejected \(401/);

	const unknown = new AgentClient({baseUrl: wrongKey.baseUrl, conversationId: '0123456789abcdef0123456789abcdef', sessionApiKey: row.session_api_key ?? null, maxRetries: 0});
	const missing = watch(t, unknown);
	await waitUntil(() => missing.supervisor.status.state === 'failed', 3000, 'failed on 404');
	assert.match(missing.supervisor.status.lastError ?? '', /not found/);
	// Both stopped: no timer left that could open a socket later.
	assert.equal(timersLeft(), timers, `timers left: ${JSON.stringify(process.getActiveResourcesInfo())}`);
	assert.equal(sim.stats.byRoute[socketRoute] ?? 0, 0, 'never got as far as the socket');
});

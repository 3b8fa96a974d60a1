import assert from 'node:assert/strict';
import {test} from 'node:test';
import {supervise} from './helpers/supervise.js';
import {clientFor, serverIds, startSim, waitUntil} from './wire-agent-fixtures.js';

/**
 * Issue 4's soak: a conversation streams 20,000 events while the simulator drops every socket
 * once a second and restarts twice (every connection gone, the port kept). The real stream
 * supervisor (REST backfill, WebSocket with resend since the newest event, REST resync after each
 * reconnect) must end with exactly the server's events: same ids, same order, none twice, and it
 * must have announced each exactly once.
 */

const total = 20_000;

test('soak: 20,000 events, the socket dropped every second, two server restarts: nothing lost, nothing twice', {timeout: 120_000}, async (t) => {
	const sim = await startSim(t);
	const {conversation, client} = await clientFor(t, sim, 'long-runner');
	const {supervisor, problems, announced, reconnects: countReconnects} = supervise(t, client, {
		backoff: {baseMs: 10, capMs: 200},
		heartbeatIntervalMs: 500,
		heartbeatGraceMs: 500,
		firstFrameTimeoutMs: 2000,
		handshakeTimeoutMs: 2000,
	});
	await waitUntil(() => supervisor.status.state === 'live', 5000, 'live');

	const template = sim.world.events(conversation).find((event) => event.kind === 'ObservationEvent');
	assert.ok(template, 'the long runner has an observation to copy');
	const {id: _id, timestamp: _timestamp, source: _source, ...body} = template;
	const start = sim.world.events(conversation).length;
	const target = start + total;
	let restarts = 0;
	let restarting: Promise<void> = Promise.resolve();
	const dropper = setInterval(() => sim.faults.dropSockets(), 1000);
	t.after(() => clearInterval(dropper));
	// About 2,000 events a second: the run lasts ~10 s, so ~10 drops land mid-stream.
	while (sim.world.events(conversation).length < target) {
		for (let index = 0; index < 20 && sim.world.events(conversation).length < target; index++) {
			sim.world.appendEvent(conversation, {...body, kind: 'ObservationEvent', source: 'environment'});
		}
		const done = sim.world.events(conversation).length - start;
		if ((restarts === 0 && done > total / 3) || (restarts === 1 && done > (2 * total) / 3)) {
			restarts++;
			await restarting;
			restarting = sim.restart();
		}
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
	clearInterval(dropper);
	await restarting;

	await waitUntil(
		() => supervisor.status.state === 'live' && !supervisor.status.gap && supervisor.log.size === sim.world.events(conversation).length,
		30_000,
		'the client log to catch up with the server',
	);
	const expected = serverIds(sim, conversation);
	const actual = supervisor.log.events.map((event) => event.id);
	assert.equal(actual.length, expected.length);
	assert.deepEqual(actual, expected, 'same ids, same order');
	assert.equal(new Set(announced).size, announced.length, 'no event announced twice');
	assert.equal(announced.length, expected.length, 'every event announced once');
	const reconnects = countReconnects();
	t.diagnostic(`${actual.length} events (${total} during the soak), ${reconnects} reconnects, ${restarts} restarts`);
	assert.equal(restarts, 2);
	assert.ok(reconnects >= 5, `reconnected ${reconnects} times`);
	assert.deepEqual(problems.filter((problem) => problem.kind !== 'resync-failed'), [], 'no bad frames or items');
});

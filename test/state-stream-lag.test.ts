import {test} from 'node:test';
import assert from 'node:assert/strict';
import {normalizeId} from '../source/wire/ids.js';
import {serverClock} from '../source/wire/server-clock.js';
import {dashboardOnSimulator} from './helpers/sim-dashboard.js';

/**
 * Live means live: the dashboard following a conversation whose socket the server drops every
 * second (the simulator's drop fault, real WebSocket and HTTP over loopback, the dashboard's own
 * stream settings) keeps its newest row within 2 s of the server's newest event: sampled every
 * 100 ms while the agent writes ten events a second, no event the server has had for more than
 * 2 s is missing from the timeline. The server's clock is three weeks behind
 * ours: the lag the header shows is measured on the server's clock, not ours.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('following under a socket drop every second, the newest row stays within 2 s of the server', {timeout: 60_000}, async (t) => {
	// The process's estimate, which every HTTP client of this process reports to.
	const clock = serverClock;
	const {sim, store, controller} = await dashboardOnSimulator(t, {seed: 3, tickMs: 0, conversations: 6, clockOffsetMs: -21 * 86_400_000}, {
		polling: {intervals: {refreshMs: 1000, searchMs: 60_000}, flushMs: 20},
		dashboard: (server) => ({serverLabel: 'simulator', secrets: [server.apiKey], clock}),
	});

	const conversation = sim.world.conversationList().find((entry) => entry.scenario === 'long-runner' && sim.world.findSandbox(entry.sandboxId)?.status === 'RUNNING');
	assert.ok(conversation, 'a running conversation to follow');
	const key = normalizeId(conversation.id);
	const snapshot = () => store.getSnapshot();
	for (let waited = 0; !snapshot().conversations.has(key); waited += 20) {
		assert.ok(waited < 10_000, 'the conversation is listed');
		await sleep(20);
	}
	controller.openTimeline(key);
	for (let waited = 0; snapshot().timeline?.stream.state !== 'live'; waited += 20) {
		assert.ok(waited < 10_000, 'the timeline goes live');
		await sleep(20);
	}

	const template = sim.world.events(conversation).find((event) => event.kind === 'ObservationEvent');
	assert.ok(template, 'an observation to copy');
	const {id: _id, timestamp: _timestamp, source: _source, ...body} = template;

	let states = '';
	const unsubscribe = store.subscribe(() => {
		const state = snapshot().timeline?.stream.state ?? '';
		if (!states.endsWith(state)) states += ` ${state}`;
	});
	t.after(unsubscribe);
	const dropper = setInterval(() => sim.faults.dropSockets(), 1000);
	t.after(() => clearInterval(dropper));
	// When each new event was written, by our clock: how long the first one the dashboard does
	// not have yet has existed is how far behind it is.
	const writtenAt = new Map<string, number>();
	const writer = setInterval(() => {
		const event = sim.world.appendEvent(conversation, {...body, kind: 'ObservationEvent', source: 'environment'});
		writtenAt.set(event.id, Date.now());
	}, 100);
	t.after(() => clearInterval(writer));

	const behind: number[] = [];
	const started = Date.now();
	while (Date.now() - started < 10_000) {
		await sleep(100);
		const server = sim.world.events(conversation);
		const newest = snapshot().timeline?.events.at(-1)?.id;
		const firstMissing = server[server.findLastIndex((event) => event.id === newest) + 1];
		behind.push(firstMissing ? Date.now() - (writtenAt.get(firstMissing.id) ?? 0) : 0);
	}
	clearInterval(dropper);
	clearInterval(writer);

	const worst = Math.max(...behind);
	const reconnects = (states.match(/reconnecting/g) ?? []).length;
	t.diagnostic(`${behind.length} samples, worst ${worst} ms behind, median ${behind.sort((a, b) => a - b)[Math.floor(behind.length / 2)]} ms; ${reconnects} reconnects`);
	assert.ok(reconnects >= 5, `the socket really was dropped (${reconnects} reconnects seen)`);
	assert.ok(worst <= 2000, `the newest row was ${worst} ms behind the server at worst`);
	// The header's figure: the stream's own lag on the server's clock, three weeks off ours.
	const lag = snapshot().timeline?.lag;
	assert.ok(lag?.lagMs !== null && lag?.lagMs !== undefined && lag.lagMs < 2000, `the header's lag is ${lag?.lagMs} ms`);
	assert.ok(Math.abs(clock.offsetMs() + 21 * 86_400_000) < 5000, 'the server clock was estimated three weeks behind');
});

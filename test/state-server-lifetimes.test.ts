import assert from 'node:assert/strict';
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {test, type TestContext} from 'node:test';
import {configProfiles, openDashboardRuntime} from '../source/commands/dashboard-runtime.js';
import {resolveConfig} from '../source/config/resolve.js';
import {parseClockOffset} from '../source/simulator/clock.js';
import {startSimulator} from '../source/simulator/server.js';
import type {DashboardRuntime, Session, ShownSession} from '../source/state/dashboard-session.js';
import type {DashboardSnapshot} from '../source/state/dashboard-types.js';
import {eventually} from './helpers/eventually.js';
import {waitForSnapshot} from './helpers/store-wait.js';

/**
 * Lifetimes in one place (commands/dashboard-runtime.ts): every server of a dashboard run is a
 * session the runtime opens and closes whole. A profile switch starts from nothing of the previous
 * server (clock estimate, request budget, 429 pacing, health), and closing the runtime leaves no
 * socket, timer or server behind (counted as the bench's "long run" handle row counts them).
 */

const day = 86_400_000;
const poll = {budget: {perSecond: 200, perMinute: 10_000}, intervals: {refreshMs: 200, sandboxesMs: 300, sandboxesPendingMs: 100, searchMs: 60_000, retryBaseMs: 100, retryCapMs: 400}};

/** Two simulators as profiles `a` and `b` in a private XDG config dir. */
async function twoProfiles(t: TestContext, a: Parameters<typeof startSimulator>[0], b: Parameters<typeof startSimulator>[0]) {
	const simA = await startSimulator({port: 0, tickMs: 0, ...a});
	const simB = await startSimulator({port: 0, tickMs: 0, ...b});
	const home = mkdtempSync(join(tmpdir(), 'agent-tui-lifetimes-'));
	mkdirSync(join(home, 'agent-tui'), {recursive: true});
	writeFileSync(
		join(home, 'agent-tui', 'config.json'),
		JSON.stringify({profiles: {a: {baseUrl: simA.baseUrl, apiKey: simA.apiKey}, b: {baseUrl: simB.baseUrl, apiKey: simB.apiKey}}}),
		{mode: 0o600},
	);
	const env: NodeJS.ProcessEnv = {XDG_CONFIG_HOME: home, HOME: home};
	t.after(async () => {
		await Promise.all([simA.close(), simB.close()]);
		rmSync(home, {recursive: true, force: true});
	});
	return {simA, simB, env};
}

async function runtimeOn(t: TestContext, env: NodeJS.ProcessEnv, flags: {profile?: string; demo?: boolean}): Promise<DashboardRuntime> {
	const config = await resolveConfig(flags, {env: {...env}, warn: () => undefined});
	const runtime = await openDashboardRuntime(config, {...configProfiles(env, () => undefined), poll, write: () => undefined});
	t.after(() => runtime.close());
	return runtime;
}

/** Every snapshot a session's store publishes from now on. */
function record(session: Session): DashboardSnapshot[] {
	const seen = [session.store.getSnapshot()];
	session.store.subscribe(() => seen.push(session.store.getSnapshot()));
	return seen;
}

test('a profile switch starts from fresh per-server state: clock estimate, request budget, 429 pacing and health', {timeout: 60_000}, async (t) => {
	const {simA, simB, env} = await twoProfiles(t, {seed: 3, conversations: 30, clockOffsetMs: parseClockOffset('-21d')!}, {seed: 4, conversations: 12});
	const runtime = await runtimeOn(t, env, {profile: 'a'});
	const [first] = runtime.servers() as [Session];
	assert.equal(runtime.session().store, first.store);
	assert.equal(runtime.currentProfile(), 'a');
	await waitForSnapshot(first.store, (snapshot) => snapshot.conversations.size === 30 && Math.abs(snapshot.connection.clockOffsetMs + 21 * day) < 5000, 'profile a loaded, three weeks behind');
	// A 429 from a: its origin is paced from then on.
	simA.faults.rateLimit({count: 1, retryAfterSeconds: 1});
	first.controller.refresh();
	await eventually(() => first.transport.pacedOrigins().length === 1, 'profile a paced after its 429');
	// a's budget has counted a good number of requests by now (a refresh round every 200 ms).
	const spentOnA = await eventually(() => first.budget.requestsLastMinute(), "profile a's budget at 10 requests", {until: (count) => count >= 10});
	// a goes down: its health turns bad, and must not follow the switch.
	await simA.close();
	await waitForSnapshot(first.store, (snapshot) => snapshot.connection.health === 'stale' || snapshot.connection.health === 'offline', 'profile a down');

	let shown: ShownSession | null = null;
	const answer = await runtime.switchTo('b', (next) => {
		shown = next;
	});
	assert.equal(answer, null);
	const [second] = runtime.servers() as [Session];
	assert.equal(shown, runtime.session());
	assert.equal(runtime.session().store, second.store);
	assert.equal(runtime.currentProfile(), 'b');
	const published = record(second);
	await waitForSnapshot(second.store, (snapshot) => snapshot.conversations.size === 12, 'profile b loaded');

	// Each is b's own, not a's carried over.
	assert.deepEqual(second.transport.pacedOrigins(), [], 'no pacing from a 429 of another server');
	// With a's fifteen samples three weeks behind still in the estimate, b's first answers would read "21d behind".
	for (const snapshot of published) assert.ok(Math.abs(snapshot.connection.clockOffsetMs) < 5000, `b's offset ${snapshot.connection.clockOffsetMs} ms`);
	assert.ok(second.transport.clock.samples() <= simB.stats.requests, `b's estimate rests on b's answers only (${second.transport.clock.samples()} samples, ${simB.stats.requests} requests)`);
	const firstData = published.find((snapshot) => snapshot.conversations.size > 0)!;
	assert.ok(firstData.connection.requestsLastMinute < spentOnA, `b's budget counts b's requests only (${firstData.connection.requestsLastMinute} at b's first list; a had spent ${spentOnA})`);
	for (const snapshot of published) assert.ok(snapshot.connection.health !== 'stale' && snapshot.connection.health !== 'offline', `b starts healthy, not ${snapshot.connection.health}`);
	assert.notEqual(second.transport, first.transport);
	assert.notEqual(second.budget, first.budget);
	// The previous server was closed whole.
	assert.equal(first.budget.closed, true);
	assert.equal(first.transport.open, false);
});

test('a switch to a profile that cannot be opened keeps the server on screen', {timeout: 30_000}, async (t) => {
	const {env} = await twoProfiles(t, {seed: 3, conversations: 5}, {seed: 4, conversations: 5});
	const runtime = await runtimeOn(t, env, {profile: 'a'});
	const [first] = runtime.servers() as [Session];
	const answer = await runtime.switchTo('nope', () => assert.fail('nothing to show'));
	assert.match(answer ?? '', /Cannot switch to profile "nope": profile "nope" is not defined/);
	assert.equal(runtime.servers()[0], first);
	assert.equal(runtime.currentProfile(), 'a');
	await waitForSnapshot(first.store, (snapshot) => snapshot.conversations.size === 5, 'profile a still polled');
});

test('every profile at once opens each server and key once: a second profile for the same one is said, not polled twice', {timeout: 60_000}, async (t) => {
	const {simA, simB, env} = await twoProfiles(t, {seed: 3, conversations: 5}, {seed: 4, conversations: 4});
	// `a-again` is `a` spelt another way (a trailing slash): the same account, with its own 100 requests a minute only once.
	writeFileSync(
		join(env.XDG_CONFIG_HOME!, 'agent-tui', 'config.json'),
		JSON.stringify({profiles: {a: {baseUrl: simA.baseUrl, apiKey: simA.apiKey}, b: {baseUrl: simB.baseUrl, apiKey: simB.apiKey}, 'a-again': {baseUrl: `${simA.baseUrl}/`, apiKey: simA.apiKey}}}),
		{mode: 0o600},
	);
	const runtime = await openDashboardRuntime(null, {...configProfiles(env, () => undefined), poll, write: () => undefined});
	t.after(() => runtime.close());
	assert.equal(runtime.servers().length, 2, 'one session per server and key');
	const shown = runtime.session();
	const loaded = await waitForSnapshot(shown.store, (snapshot) => snapshot.conversationsListed && snapshot.notice !== null, 'both servers listed, and the notice');
	assert.equal(loaded.conversations.size, 9, 'each conversation once');
	assert.deepEqual(new Set([...loaded.conversations.values()].map((row) => row.server?.name)), new Set(['a', 'b']));
	assert.match(loaded.notice?.text ?? '', /a-again.* same server and key as a\b/);
});

/** Sockets, servers and timers of the process by kind, as the bench's "long run" row counts handles (plus timers). */
function resources(): Map<string, number> {
	const counts = new Map<string, number>();
	for (const kind of process.getActiveResourcesInfo()) counts.set(kind, (counts.get(kind) ?? 0) + 1);
	return counts;
}

/** The kinds of which `now` holds more than `before`: what was left open. */
function leftOpen(before: Map<string, number>, now: Map<string, number>): string[] {
	return [...now].filter(([kind, count]) => count > (before.get(kind) ?? 0)).map(([kind, count]) => `${kind} ×${count - (before.get(kind) ?? 0)}`);
}

test('closing the runtime leaves no socket, timer or server: the demo simulator, both servers, their streams', {timeout: 60_000}, async (t) => {
	const {env} = await twoProfiles(t, {seed: 3, conversations: 8}, {seed: 4, conversations: 8});
	const before = resources();
	const config = await resolveConfig({demo: true}, {env: {...env}, warn: () => undefined});
	const runtime = await openDashboardRuntime(config, {...configProfiles(env, () => undefined), poll, write: () => undefined});
	const [demo] = runtime.servers() as [Session];
	const loaded = await waitForSnapshot(demo.store, (snapshot) => snapshot.demo && snapshot.conversations.size > 0 && snapshot.sandboxesListed, 'the demo loaded');
	const running = [...loaded.conversations.values()].find((row) => row.conversation.sandbox_status === 'RUNNING')!;
	demo.controller.openTimeline(running.key);
	await waitForSnapshot(demo.store, (snapshot) => snapshot.timeline?.stream.state === 'live', 'a live stream in the demo');

	assert.equal(await runtime.switchTo('b', () => undefined), null);
	const [second] = runtime.servers() as [Session];
	const b = await waitForSnapshot(second.store, (snapshot) => snapshot.conversations.size === 8, 'profile b loaded');
	const live = [...b.conversations.values()].find((row) => row.conversation.sandbox_status === 'RUNNING')!;
	second.controller.openTimeline(live.key);
	await waitForSnapshot(second.store, (snapshot) => snapshot.timeline?.stream.state === 'live', 'a live stream on b');
	assert.ok(leftOpen(before, resources()).length > 0, 'while open, the run holds sockets and timers');

	await runtime.close();
	await runtime.close();
	// The simulators' side of a closed socket goes on the next turn or two of the event loop. An
	// idle socket left open instead lingers until the server's keep-alive hint (5 s) runs out,
	// three seconds and more after the last poll: well past this wait.
	await eventually(resources, 'every handle of the run closed', {
		timeoutMs: 2000,
		until: (now) => leftOpen(before, now).length === 0,
		detail: (now) => `left open: ${leftOpen(before, now ?? new Map()).join(', ')}`,
	});
	assert.equal(await runtime.switchTo('a', () => assert.fail('closed')), 'The dashboard is closing.');
});

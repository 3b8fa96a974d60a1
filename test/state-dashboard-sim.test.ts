import {test, type TestContext} from 'node:test';
import assert from 'node:assert/strict';
import diagnostics from 'node:diagnostics_channel';
import type {createDashboard, CreateDashboardOptions} from '../source/state/dashboard-store.js';
import type {Simulator, SimulatorOptions} from '../source/simulator/server.js';
import {dashboardOnSimulator, fastPolling} from './helpers/sim-dashboard.js';
import {eventually} from './helpers/eventually.js';
import {causesRead, waitForSnapshot} from './helpers/store-wait.js';
import {maxInWindow} from './helpers/send-window.js';

/**
 * The dashboard store against the real simulator over HTTP and WebSocket (port 0, no ticking:
 * the agents move only when the test calls `sim.step()`). Every app-server request the process
 * sends is recorded from undici's diagnostics channel, so budget checks count what really went
 * out, retries included.
 */

type Sent = {at: number; method: string; path: string; ids: string[]};
const sent: Sent[] = [];
diagnostics.subscribe('undici:request:create', (message) => {
	const {request} = message as {request: {method: string; path: string}};
	if (!request.path.startsWith('/api/v1/')) return;
	const [path, query] = request.path.split('?');
	sent.push({at: Date.now(), method: request.method, path: path!, ids: new URLSearchParams(query ?? '').getAll('ids')});
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves with the first snapshot that satisfies `predicate`, or fails after `timeoutMs`. */
const waitFor = waitForSnapshot;

/** Fast polling and a roomy budget unless a test is about the budget itself. */
const fast = fastPolling;

function setup(
	t: TestContext,
	simOptions: SimulatorOptions,
	options: Partial<CreateDashboardOptions> = fast,
	apiKey?: string,
): Promise<{sim: Simulator} & ReturnType<typeof createDashboard>> {
	return dashboardOnSimulator(t, {seed: 7, tickMs: 0, sandboxTransitionMs: 50, startTaskPhaseMs: 20, ...simOptions}, {
		polling: options,
		dashboard: (sim) => ({serverLabel: 'simulator', secrets: [sim.apiKey]}),
		apiKey,
	});
}

test('first snapshot has every conversation (all pages), sandboxes and specs', async (t) => {
	const {sim, store} = await setup(t, {conversations: 250});
	const snapshot = await waitFor(store, (s) => s.conversations.size === 250 && s.sandboxes.size > 0 && s.specs.length > 0, '250 conversations');
	assert.equal(sim.stats.byRoute['GET /api/v1/app-conversations/search'], 3);
	assert.equal(snapshot.connection.health, 'polling');
	assert.equal(snapshot.connection.keyRejected, false);
	const row = [...snapshot.conversations.values()][0]!;
	assert.match(row.key, /^[0-9a-f]{32}$/);
	const linked = [...snapshot.sandboxes.values()].some((sandbox) => sandbox.conversationKeys.length > 0);
	assert.ok(linked, 'sandboxes know their conversations');
});

test('a 1,000-conversation refresh round is 11 batched look-ups', async (t) => {
	const {sim, store} = await setup(t, {conversations: 1000}, {...fast, intervals: {...fast.intervals, refreshMs: 1200}});
	await waitFor(store, (s) => s.conversations.size === 1000, '1,000 conversations', 15_000);
	const keys = new Set([...store.getSnapshot().conversations.keys()]);
	// A round asks for each conversation once: it ends where an id comes again. Counted by what
	// was asked, not by the time between requests (a loaded machine spreads a round out).
	const rounds = () => {
		const found: Array<{requests: number; ids: Set<string>}> = [];
		let current = {requests: 0, ids: new Set<string>()};
		for (const request of sent.filter((entry) => entry.path === '/api/v1/app-conversations' && entry.ids.length > 0)) {
			if (request.ids.some((id) => current.ids.has(id))) {
				found.push(current);
				current = {requests: 0, ids: new Set()};
			}
			current.requests++;
			for (const id of request.ids) current.ids.add(id);
		}
		return found;
	};
	const whole = (round: {ids: Set<string>}) => [...keys].every((key) => round.ids.has(key));
	const complete = await eventually(() => rounds().filter(whole), 'a whole refresh round', {until: (found) => found.length >= 1, timeoutMs: 30_000});
	t.diagnostic(`look-ups per round: ${rounds().map((round) => round.requests).join(', ')}; search pages ${sim.stats.byRoute['GET /api/v1/app-conversations/search']}`);
	assert.equal(complete[0]!.requests, 11, 'ceil(1000 / 99) look-ups');
	assert.ok(sent.every((request) => request.ids.length <= 99), 'at most 99 ids a request');
});

test('a burst of refreshes and actions never exceeds 10/s or 100/min', async (t) => {
	const start = Date.now();
	const {store, controller, budget} = await setup(t, {conversations: 250}, {intervals: {refreshMs: 1000}, flushMs: 20});
	const loaded = await waitFor(store, (s) => s.conversations.size === 250 && s.sandboxes.size > 0, '250 conversations');
	const sandboxKeys = [...loaded.sandboxes.keys()];
	const actions: Array<Promise<void>> = [];
	for (let index = 0; index < 25; index++) {
		controller.refresh();
		// User actions are not paced like polls; only the budget holds them back.
		const key = sandboxKeys[index % sandboxKeys.length]!;
		actions.push(index % 2 === 0 ? controller.pauseSandbox(key) : controller.resumeSandbox(key));
		await sleep(20);
	}

	await Promise.all(actions);
	// Everything the burst queued has gone out and come back (the budget holds none).
	await eventually(() => budget.state(), 'the burst drained', {until: (state) => state.queued === 0 && state.inFlight === 0, timeoutMs: 30_000});
	const times = sent.filter((request) => request.at >= start).map((request) => request.at);
	t.diagnostic(`${times.length} requests; busiest second ${maxInWindow(times, 1000)}; budget says ${budget.requestsLastMinute()} in the last minute`);
	assert.ok(times.length > 30, 'the burst really happened');
	assert.ok(maxInWindow(times, 1000) <= 10, `busiest 1 s window: ${maxInWindow(times, 1000)}`);
	assert.ok(times.length <= 100);
	assert.ok(budget.requestsLastMinute() <= 100);
});

test('429: one shared backoff honouring Retry-After, then recovery', async (t) => {
	const {sim, store, budget} = await setup(t, {conversations: 30});
	// Every row's own reads done (an errored one's cause), so the one 429 goes to a poll.
	await waitFor(store, (s) => s.conversations.size === 30 && causesRead(s), 'conversations');
	sim.faults.rateLimit({count: 1, retryAfterSeconds: 2});
	const limitedFrom = Date.now();
	await waitFor(store, (s) => s.connection.health === 'stale', 'stale after 429', 5000);
	const until = budget.backoffUntil();
	assert.ok(until !== null && until >= limitedFrom + 2000, 'the budget backs off for Retry-After: 2');
	// From the moment the 429 came back (the backoff began: Retry-After before it ends) to its end.
	const during = sent.filter((request) => request.at > until! - 2000 && request.at < until!);
	assert.equal(during.length, 0, 'no request of any kind while backing off');
	const recovered = await waitFor(store, (s) => s.connection.health === 'polling', 'recovery', 8000);
	assert.equal(recovered.connection.lastError, null);
	assert.ok(Date.now() >= until!);
});

test('5xx storm: stale with the last data, then recovers by itself', async (t) => {
	const {sim, store} = await setup(t, {conversations: 30});
	await waitFor(store, (s) => s.conversations.size === 30, 'conversations');
	sim.faults.serverErrors({count: 10, status: 503});
	const stale = await waitFor(store, (s) => s.connection.health === 'stale', 'stale', 5000);
	assert.match(stale.connection.lastError ?? '', /503/);
	assert.ok(stale.connection.nextRetryAt !== null);
	assert.ok(stale.connection.lastSuccessAt !== null);
	assert.equal(stale.conversations.size, 30, 'the last data is kept');
	const back = await waitFor(store, (s) => s.connection.health === 'polling', 'recovery', 15_000);
	assert.equal(back.connection.lastError, null);
	assert.ok(back.connection.lastSuccessAt! > stale.connection.lastSuccessAt!);
});

test('a wrong key: keyRejected, a clear message, and polling stops', async (t) => {
	const {sim, store, controller} = await setup(t, {conversations: 10}, fast, 'wrong-key');
	const snapshot = await waitFor(store, (s) => s.connection.keyRejected, 'key rejected', 5000);
	assert.match(snapshot.connection.lastError ?? '', /key/i);
	assert.ok(!(snapshot.connection.lastError ?? '').includes('wrong-key'));
	// Polling stopped: nothing is scheduled that could ask again (no timer is left at all).
	assert.equal(snapshot.connection.nextRetryAt, null);
	assert.deepEqual(process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout'), [], 'no timer left to poll with');
	const before = sim.stats.requests;
	// ... until the user says so (ctrl-r after fixing the key): then it asks again, once.
	controller.refresh();
	await eventually(() => sim.stats.requests, 'the request ctrl-r sends', {until: (requests) => requests > before});
	await waitFor(store, (s) => s.connection.keyRejected && s.connection.nextRetryAt === null, 'key rejected again');
	assert.equal(sim.stats.requests, before + 1, 'one request for ctrl-r, no polling after it');
});

test('resume and pause: pending until the polled status changes; a cap pause is flagged', async (t) => {
	const {store, controller} = await setup(t, {conversations: 12, maxRunningSandboxes: 3, sandboxTransitionMs: 400});
	const loaded = await waitFor(store, (s) => s.sandboxes.size > 0, 'sandboxes');
	const byStatus = (status: string) => [...store.getSnapshot().sandboxes.values()].filter((row) => row.sandbox.status === status);
	t.diagnostic(`${byStatus('RUNNING').length} running, ${byStatus('PAUSED').length} paused of ${loaded.sandboxes.size} (cap 3)`);
	assert.equal(byStatus('RUNNING').length, 3, 'the simulator starts at its cap');

	// Resuming a paused sandbox at the cap makes the service pause the oldest running one.
	const resumed = byStatus('PAUSED')[0]!;
	await controller.resumeSandbox(resumed.key);
	await waitFor(store, (s) => s.sandboxes.get(resumed.key)?.pending?.kind === 'resuming', 'resuming');
	await waitFor(store, (s) => s.sandboxes.get(resumed.key)?.pending === null, 'resume done');
	// Under load a sandbox-list answer sent before the resume can land after the look-up that saw
	// RUNNING (seen once in CI); the next poll corrects it, so wait for the status rather than
	// assert it on the same frame. The ordering is recorded as a known issue in the closing note.
	const afterResume = await waitFor(store, (s) => s.sandboxes.get(resumed.key)?.sandbox.status === 'RUNNING', 'running again');
	assert.equal(afterResume.sandboxes.get(resumed.key)?.pending, null);
	const capped = await waitFor(store, (s) => [...s.sandboxes.values()].some((row) => row.pausedByCap), 'cap pause flagged');
	const victim = [...capped.sandboxes.values()].find((row) => row.pausedByCap)!;
	assert.notEqual(victim.key, resumed.key);
	assert.equal(victim.sandbox.status, 'PAUSED');
	assert.match(capped.notice?.text ?? '', /running-sandbox limit/);

	// Pausing: pending until the poll shows PAUSED.
	await controller.pauseSandbox(resumed.key);
	await waitFor(store, (s) => s.sandboxes.get(resumed.key)?.pending?.kind === 'pausing', 'pausing');
	const paused = await waitFor(store, (s) => s.sandboxes.get(resumed.key)?.pending === null, 'pause done');
	assert.equal(paused.sandboxes.get(resumed.key)?.sandbox.status, 'PAUSED');
	assert.equal(paused.sandboxes.get(resumed.key)?.pausedByCap, false, 'our own pause is not the cap');

	// An unknown sandbox is refused locally, with a notice.
	await controller.pauseSandbox('sb-does-not-exist');
	await waitFor(store, (s) => /No sandbox sb-does-/.test(s.notice?.text ?? ''), 'unknown sandbox notice');
});

test('a pause the conversation list already shows settles the sandbox row too, before the sandbox poll', async (t) => {
	// The sandbox list is polled once a minute here, the conversations every 200 ms.
	const slowSandboxes = {...fast, intervals: {...fast.intervals, sandboxesMs: 60_000, sandboxesPendingMs: 60_000}};
	const {store, controller} = await setup(t, {conversations: 6, sandboxTransitionMs: 50}, slowSandboxes);
	const loaded = await waitFor(store, (s) => [...s.sandboxes.values()].some((row) => row.sandbox.status === 'RUNNING' && [...s.conversations.values()].some((c) => c.conversation.sandbox_id === row.sandbox.id)), 'a running sandbox with a conversation');
	const row = [...loaded.sandboxes.values()].find((candidate) => candidate.sandbox.status === 'RUNNING' && [...loaded.conversations.values()].some((c) => c.conversation.sandbox_id === candidate.sandbox.id))!;
	// In no snapshot may the list say PAUSED while the sandbox row still says pausing.
	const conversationKeys = [...loaded.conversations.values()].filter((c) => c.conversation.sandbox_id === row.sandbox.id).map((c) => c.key);
	const disagreements: string[] = [];
	const unsubscribe = store.subscribe(() => {
		const s = store.getSnapshot();
		const pending = s.sandboxes.get(row.key)?.pending;
		for (const key of conversationKeys) {
			if (String(s.conversations.get(key)?.conversation.sandbox_status) === 'PAUSED' && pending && !pending.error) disagreements.push(`${key.slice(0, 8)} PAUSED, sandbox ${pending.kind}`);
		}
	});
	t.after(unsubscribe);
	const started = Date.now();
	await controller.pauseSandbox(row.key);
	await waitFor(store, (s) => s.sandboxes.get(row.key)?.pending?.kind === 'pausing', 'pausing');
	const settled = await waitFor(store, (s) => s.sandboxes.get(row.key)?.pending === null, 'the pause settled', 10_000);
	t.diagnostic(`settled after ${Date.now() - started} ms with the sandbox poll a minute away`);
	assert.equal(settled.sandboxes.get(row.key)?.sandbox.status, 'PAUSED');
	assert.match(settled.notice?.text ?? '', /paused\./);
	assert.deepEqual(disagreements, []);
});

test('start a conversation: every phase, READY, then its timeline opens with events', async (t) => {
	const {sim, store, controller} = await setup(t, {conversations: 5});
	await waitFor(store, (s) => s.conversations.size === 5, 'conversations');
	const starting = controller.startConversation({message: 'Add a health check endpoint', repository: 'acme/payments-api'});
	assert.equal(store.getSnapshot().start.state === 'starting' || store.getSnapshot().start.state === 'idle', true);
	await starting;
	const ready = await waitFor(store, (s) => s.start.state === 'ready' && s.timeline !== null, 'ready and open');
	const phases = ready.start.phases.map((phase) => phase.status);
	t.diagnostic(`phases: ${phases.join(' → ')}`);
	assert.equal(phases.at(-1), 'READY');
	assert.ok(phases.length >= 3);
	const key = ready.start.conversationKey!;
	assert.equal(ready.timeline?.conversationKey, key);
	assert.ok(ready.conversations.has(key), 'the new conversation is in the list at once');
	assert.match(ready.notice?.text ?? '', /is READY; its timeline is open/);
	sim.step(5);
	const withEvents = await waitFor(store, (s) => (s.timeline?.events.length ?? 0) > 0 && s.timeline?.stream.state === 'live', 'timeline events');
	assert.ok(withEvents.timeline!.version > 0);
	// Events that arrive while it is live count as unseen until it is opened again.
	const live = withEvents.timeline!.events.length;
	sim.step(20);
	const counted = await waitFor(store, (s) => (s.conversations.get(key)?.unseenEvents ?? 0) > 0, 'unseen events');
	assert.ok(counted.timeline!.events.length > live);
	assert.ok(counted.conversations.get(key)!.lastActivityAt !== null);
	controller.openTimeline(key);
	await waitFor(store, (s) => s.conversations.get(key)?.unseenEvents === 0, 'seen again');
	assert.equal(store.getSnapshot().timeline?.conversationKey, key, 'still the same stream');
	const text = JSON.stringify(withEvents, (_key, value: unknown) => (value instanceof Map ? [...value.values()] : value));
	assert.ok(!text.includes(sim.apiKey), 'no API key in the snapshot');
	assert.ok(!/sk-oh-/.test(text), 'no session key in the snapshot');
});

test('start: opening the new conversation the moment the task says READY (as the form does) is no warning', async (t) => {
	const {sim, store, controller} = await setup(t, {conversations: 5});
	await waitFor(store, (s) => s.conversations.size === 5, 'conversations');
	// A slow server: the look-up of the new conversation is still out when the form asks.
	sim.faults.setLatency(300);
	let asked: string | null = null;
	// What the start form does: open the timeline as soon as progress says ready, before the flow
	// has fetched the conversation.
	const unsubscribe = store.subscribe(() => {
		const {start} = store.getSnapshot();
		if (asked === null && start.state === 'ready' && start.conversationKey) {
			asked = start.conversationKey;
			controller.openTimeline(asked);
		}
	});
	t.after(unsubscribe);
	await controller.startConversation({message: 'Say hello'});
	const open = await waitFor(store, (s) => asked !== null && s.timeline?.conversationKey === asked && s.notice !== null, 'opened');
	assert.match(open.notice?.text ?? '', /^Conversation \w+ is READY; its timeline is open\.$/);
	assert.doesNotMatch(open.notice?.text ?? '', /not in the list/);
});

test('a conversation whose sandbox is paused: the timeline shows its stored history, marked, without resuming it', async (t) => {
	const {sim, store, controller} = await setup(t, {conversations: 24});
	const loaded = await waitFor(store, (s) => s.conversations.size === 24, 'conversations');
	const paused = [...loaded.conversations.values()].find((row) => row.conversation.sandbox_status === 'PAUSED');
	assert.ok(paused, 'the seeded world has a paused conversation');
	controller.openTimeline(paused.key);
	const opened = await waitFor(store, (s) => (s.timeline?.events.length ?? 0) > 0, 'stored events');
	assert.deepEqual(opened.timeline?.stored, {sandboxStatus: 'PAUSED'});
	assert.notEqual(opened.timeline?.stream.state, 'failed');
	assert.equal(sim.world.findConversation(paused.key) && String(store.getSnapshot().conversations.get(paused.key)?.conversation.sandbox_status), 'PAUSED');
	controller.closeTimeline();
	await waitFor(store, (s) => s.timeline === null, 'closed');
});

test('an idle store publishes nothing while polls bring the same data', async (t) => {
	const {sim, store} = await setup(t, {conversations: 40});
	await waitFor(store, (s) => s.conversations.size === 40 && s.specs.length > 0 && causesRead(s), 'loaded');
	// Polls come one at a time, each after the one before was read and its change (if any) published
	// (the 20 ms publish is due long before the next 200 ms poll): counted in polls, not in time.
	const polls = () => sim.stats.log.filter((entry) => entry.key.startsWith('GET /api/v1/')).length;
	const pollsAfter = async (count: number) => {
		const from = polls();
		await eventually(polls, `${count} more polls`, {until: (now) => now >= from + count, timeoutMs: 20_000});
	};
	await pollsAfter(2);
	let publishes = 0;
	const unsubscribe = store.subscribe(() => publishes++);
	const requests = sim.stats.requests;
	await pollsAfter(4);
	unsubscribe();
	t.diagnostic(`${sim.stats.requests - requests} requests, ${publishes} publishes`);
	assert.equal(publishes, 0);
	// The same polls publish a change the moment there is one.
	const changing = store.subscribe(() => publishes++);
	t.after(changing);
	sim.step(3);
	await eventually(() => publishes, 'a publish once the agents moved', {until: (count) => count > 0, timeoutMs: 20_000});
});

test('opening a conversation waiting for an hour does not make it look as if it just started waiting', async (t) => {
	const {store, controller} = await setup(t, {conversations: 24});
	const loaded = await waitFor(store, (s) => [...s.conversations.values()].some((row) => row.attention[0]?.kind === 'waiting_for_confirmation'), 'a waiting conversation');
	const waiting = [...loaded.conversations.values()].find((row) => row.attention[0]?.kind === 'waiting_for_confirmation')!;
	const before = waiting.attention[0]!;
	assert.equal(before.kind, 'waiting_for_confirmation');
	const openedAt = Date.now();
	controller.openTimeline(waiting.key);
	// The backfill replays `running` and then `waiting_for_confirmation`: the row must not pass
	// through `running`, nor restart its clock.
	const live = await waitFor(store, (s) => s.timeline?.stream.state === 'live' && (s.timeline.events.length ?? 0) > 0, 'the live timeline');
	const after = live.conversations.get(waiting.key)?.attention[0];
	assert.equal(after?.kind, 'waiting_for_confirmation');
	assert.ok(after && 'since' in after && after.since !== null && after.since < openedAt, `since ${after && 'since' in after ? after.since : '?'} is before the open at ${openedAt}`);
	assert.deepEqual(after, before);
});

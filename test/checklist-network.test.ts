import assert from 'node:assert/strict';
import http from 'node:http';
import {test, type TestContext} from 'node:test';
import {createDashboard} from '../source/state/dashboard-store.js';
import {AgentClient} from '../source/wire/agent-client.js';
import {AppClient} from '../source/wire/app-client.js';
import {KeyRejectedError, OutcomeUnknownError, ProtocolError, RateLimitedError, ServerError, TimeoutError} from '../source/wire/errors.js';
import {HttpClient} from '../source/wire/http.js';
import {normalizeId} from '../source/wire/ids.js';
import {startFaultProxy, type FaultProxy} from './helpers/fault-proxy.js';
import {supervise} from './helpers/supervise.js';
import {liveConversation, serverIds, startSim, testDispatcher, waitUntil} from './wire-agent-fixtures.js';

/**
 * docs/security-checklist.md checklist, items 24–38: network faults. Each test is named after its
 * item. Real parts: the simulator on port 0, real HTTP and WebSocket, and a TCP fault proxy
 * (test/helpers/fault-proxy.ts) where the fault is below HTTP.
 */

async function proxied(t: TestContext, port: number): Promise<FaultProxy> {
	const proxy = await startFaultProxy({port});
	t.after(() => proxy.close());
	return proxy;
}

/** An agent client for a live conversation, reaching its agent server through `origin`. */
async function agentThrough(t: TestContext, sim: Awaited<ReturnType<typeof startSim>>, origin: string) {
	const {conversation, row} = await liveConversation(sim, 'long-runner');
	const path = new URL(row.conversation_url!).pathname.replace(/\/api\/conversations\/.*$/, '');
	const client = new AgentClient({baseUrl: `${origin}${path}`, conversationId: row.id, sessionApiKey: row.session_api_key ?? null, maxRetries: 0, dispatcher: testDispatcher(t)});
	return {conversation, client};
}

function plainServer(t: TestContext, handler: http.RequestListener): Promise<string> {
	const server = http.createServer(handler);
	t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
	server.keepAliveTimeout = 1;
	return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as {port: number}).port}`)));
}

test('24. TCP accepted, handshake never answered: timeout, jittered retry, attempt number shown', async (t) => {
	const sim = await startSim(t);
	const proxy = await proxied(t, new URL(sim.baseUrl).port ? Number(new URL(sim.baseUrl).port) : 80);
	const {client} = await agentThrough(t, sim, proxy.url);
	const watched = supervise(t, client);
	await waitUntil(() => watched.supervisor.status.state === 'live', 5000, 'live through the proxy');
	proxy.mode = 'silent';
	sim.faults.dropSockets();
	await waitUntil(() => watched.supervisor.status.attempt >= 4, 10_000, 'four attempts');
	const retries = watched.statuses.filter((status) => status.state === 'reconnecting' && status.nextRetryInMs !== undefined);
	assert.ok(retries.some((status) => /timed out|timeout|handshake|no answer/i.test(status.lastError ?? '')), JSON.stringify(retries.at(-1)));
	const attempts = [...new Set(retries.map((status) => status.attempt))];
	assert.ok(attempts.length >= 3, `attempt numbers shown: ${attempts.join(', ')}`);
	const waits = new Set(retries.map((status) => status.nextRetryInMs));
	assert.ok(waits.size >= 2, 'the waits are jittered, not one fixed delay');
	proxy.mode = 'pass';
	await waitUntil(() => watched.supervisor.status.state === 'live', 10_000, 'live again once the peer answers');
});

test('25. silent dead socket: detected within ping interval plus grace; reconnected', async (t) => {
	const sim = await startSim(t);
	const {client} = await agentThrough(t, sim, sim.baseUrl);
	const watched = supervise(t, client);
	await waitUntil(() => watched.supervisor.status.state === 'live', 5000, 'live');
	sim.faults.silentSockets(true);
	await waitUntil(() => watched.supervisor.status.state === 'reconnecting', 10_000, 'the silence detected');
	// Within interval + grace of quiet: the first unanswered ping, its grace, then at most the ping
	// of the next interval. Counted in pings, not ms, so a loaded machine gives the same verdict.
	const pings = sim.unansweredPings();
	t.diagnostic(`detected after ${pings} unanswered pings (interval 200 ms + grace 200 ms)`);
	assert.ok(pings <= 2, `${pings} pings went unanswered before the socket was given up`);
	assert.match(watched.supervisor.status.lastError ?? '', /went silent/);
	sim.faults.silentSockets(false);
	await waitUntil(() => watched.supervisor.status.state === 'live', 5000, 'reconnected');
});

test('26. server restart with events during the gap: every event exactly once, in order', async (t) => {
	const sim = await startSim(t);
	const {conversation, client} = await agentThrough(t, sim, sim.baseUrl);
	const watched = supervise(t, client);
	await waitUntil(() => watched.supervisor.status.state === 'live', 5000, 'live');
	const restarting = sim.restart();
	sim.step(15);
	await restarting;
	sim.step(5);
	await waitUntil(() => watched.supervisor.status.state === 'live' && watched.supervisor.log.size === sim.world.events(conversation).length, 10_000, 'caught up');
	assert.deepEqual(watched.supervisor.log.events.map((event) => event.id), serverIds(sim, conversation));
	assert.equal(new Set(watched.announced).size, watched.announced.length, 'nothing announced twice');
});

test('27. server replays old events: no duplicates', async (t) => {
	const sim = await startSim(t);
	const {conversation, client} = await agentThrough(t, sim, sim.baseUrl);
	const watched = supervise(t, client);
	await waitUntil(() => watched.supervisor.status.state === 'live', 5000, 'live');
	// Every reconnect asks for a replay since the newest event and resyncs over REST: overlap on purpose.
	for (let round = 0; round < 3; round++) {
		sim.step(3);
		sim.faults.dropSockets();
		await waitUntil(() => watched.supervisor.status.state === 'live', 5000, 'live again');
	}
	await waitUntil(() => watched.supervisor.log.size === sim.world.events(conversation).length, 5000, 'caught up');
	assert.deepEqual(watched.supervisor.log.events.map((event) => event.id), serverIds(sim, conversation));
	assert.equal(new Set(watched.announced).size, watched.announced.length);
});

test('28. accept-then-close loop: jittered spacing; the counter does not reset on a brief open', async (t) => {
	const sim = await startSim(t);
	const proxy = await proxied(t, Number(new URL(sim.baseUrl).port));
	const {client} = await agentThrough(t, sim, proxy.url);
	const watched = supervise(t, client, {healthyAfterMs: 5000});
	await waitUntil(() => watched.supervisor.status.state === 'live', 5000, 'live');
	proxy.mode = 'accept-then-close';
	sim.faults.dropSockets();
	await waitUntil(() => watched.supervisor.status.attempt >= 5, 10_000, 'five attempts');
	const attempts = watched.statuses.filter((status) => status.state === 'reconnecting').map((status) => status.attempt);
	for (let index = 1; index < attempts.length; index++) assert.ok(attempts[index]! >= attempts[index - 1]!, `the counter never went back: ${attempts.join(',')}`);
	proxy.mode = 'pass';
	await waitUntil(() => watched.supervisor.status.state === 'live', 10_000, 'live again');
});

test('29. 503 with Retry-After: 2 or an HTTP date waits at least that long; Retry-After: 120 is handed back and said', async (t) => {
	let calls = 0;
	let retryAfter = '2';
	const origin = await plainServer(t, (request, response) => {
		calls++;
		if (calls % 2 === 1) {
			response.writeHead(503, {'content-type': 'application/json', 'retry-after': retryAfter});
			response.end('{"detail":"busy"}');
			return;
		}
		response.writeHead(200, {'content-type': 'application/json'});
		response.end('{"ok":true}');
	});
	const waits: number[] = [];
	const client = new HttpClient({baseUrl: origin, headers: () => ({}), onRetry: (info) => waits.push(info.delayMs)});
	const started = Date.now();
	assert.deepEqual(await client.json({path: '/x'}), {ok: true});
	assert.ok(Date.now() - started >= 1900, 'waited Retry-After: 2');
	assert.equal(waits[0], 2000);
	retryAfter = new Date(Date.now() + 2000).toUTCString();
	const dated = Date.now();
	await client.json({path: '/x'});
	assert.ok(Date.now() - dated >= 900, 'an HTTP-date Retry-After is waited for too');
	retryAfter = '120';
	const error = await client.json({path: '/x'}).catch((caught: unknown) => caught);
	assert.ok(error instanceof ServerError || error instanceof RateLimitedError, String(error));
	assert.equal((error as {retryAfterMs?: number}).retryAfterMs, 120_000, 'the wait is handed to the caller, which says so');
});

test('30. 429 on every poll: one shared backoff, at most one request in flight per endpoint', async (t) => {
	const sim = await startSim(t, {conversations: 30});
	const appClient = new AppClient({baseUrl: sim.baseUrl, apiKey: sim.apiKey, maxRetries: 0});
	const {store, controller} = createDashboard({
		appClient,
		appBaseUrl: sim.baseUrl,
		serverLabel: 'sim',
		demo: false,
		// A roomy budget: polls are not spaced out by it, so only the 429's backoff holds them.
		budget: {perSecond: 200, perMinute: 10_000},
		intervals: {refreshMs: 100, sandboxesMs: 100, retryBaseMs: 50, retryCapMs: 200},
	});
	t.after(() => controller.close());
	await waitUntil(() => store.getSnapshot().conversations.size === 30, 10_000, 'loaded');
	const healthy = store.getSnapshot().connection.health;
	sim.stats.reset();
	sim.faults.rateLimit({count: 1_000_000, retryAfterSeconds: 1});
	// It keeps asking under 429: three refused requests, each answered, so two backoffs were waited out.
	const refused = () => sim.stats.log.filter((entry) => entry.status === 429);
	await waitUntil(() => refused().length >= 3 && sim.stats.log.every((entry) => entry.endedAt !== null), 15_000, 'three refused requests');
	const log = [...sim.stats.log];
	t.diagnostic(log.map((entry) => `${entry.key} ${entry.at - log[0]!.at}-${entry.endedAt! - log[0]!.at} ms ${entry.status}`).join('; '));
	// One shared backoff honouring Retry-After: 1, whatever the endpoint: within a second after a
	// 429 was answered nothing is asked again, save what was already on its way when it was sent
	// (another endpoint's poll can reach the server a moment after the 429 left it, before the
	// client has read it: busy run 1 here saw one 1 ms after): never the refused endpoint itself,
	// at most one request of each other one (one in flight per endpoint), and no second round.
	for (const limited of refused()) {
		const early = log.filter((entry) => entry.at > limited.endedAt! && entry.at < limited.endedAt! + 900);
		const words = early.map((entry) => `${entry.key} ${entry.at - limited.endedAt!} ms after`);
		const where = `asked while backing off from the 429 at ${limited.endedAt! - log[0]!.at} ms: ${words.join(', ')}`;
		assert.ok(!early.some((entry) => entry.key === limited.key), where);
		assert.equal(new Set(early.map((entry) => entry.key)).size, early.length, where);
		// What was on its way was refused too: it was sent under the same limit, not after a success.
		assert.ok(early.every((entry) => entry.status === 429), where);
	}
	// At most one request in flight per endpoint.
	for (const [index, entry] of log.entries()) {
		const overlapping = log.slice(index + 1).filter((other) => other.key === entry.key && other.at < entry.endedAt!);
		assert.deepEqual(overlapping.map((other) => other.key), [], 'two requests of one endpoint in flight at once');
	}
	assert.notEqual(store.getSnapshot().connection.health, 'live');
	// Once the server answers again, the next poll finds it: healthy again without a restart.
	sim.faults.reset();
	const sent = sim.stats.requests;
	await waitUntil(() => store.getSnapshot().connection.health === healthy, 10_000, `${healthy} again after the 429s stop`);
	assert.ok(sim.stats.requests > sent, 'a poll after the 429s stopped');
});

test('31. minutes of 5xx: backoff, last data marked stale with its age, recovery on its own', async (t) => {
	const sim = await startSim(t, {conversations: 20});
	const appClient = new AppClient({baseUrl: sim.baseUrl, apiKey: sim.apiKey, maxRetries: 0});
	const {store, controller} = createDashboard({appClient, appBaseUrl: sim.baseUrl, serverLabel: 'sim', demo: false, intervals: {refreshMs: 100, retryBaseMs: 50, retryCapMs: 300}});
	t.after(() => controller.close());
	await waitUntil(() => store.getSnapshot().conversations.size === 20, 10_000, 'loaded');
	sim.faults.serverErrors({count: 1_000_000, status: 500});
	await waitUntil(() => store.getSnapshot().connection.health === 'stale', 10_000, 'stale');
	const stale = store.getSnapshot();
	assert.equal(stale.conversations.size, 20, 'the last data is kept');
	assert.ok(stale.connection.lastSuccessAt !== null, 'its age can be shown');
	assert.ok(stale.connection.nextRetryAt !== null, 'the next retry is known');
	sim.faults.reset();
	await waitUntil(() => store.getSnapshot().connection.health !== 'stale', 10_000, 'recovered by itself');
});

test('32. headers never arrive: aborted at the timeout; the caller stays responsive', async (t) => {
	const sim = await startSim(t);
	const proxy = await proxied(t, Number(new URL(sim.baseUrl).port));
	proxy.mode = 'silent';
	const client = new HttpClient({baseUrl: proxy.url, headers: () => ({}), maxRetries: 0});
	// Timers fire in the order they are due, however loaded the machine: a 20 ms ticker must tick
	// during the wait, and a timer set for twenty times the headers timeout (the default one is
	// 15 s) must not fire before it ends.
	let ticks = 0;
	const ticker = setInterval(() => ticks++, 20);
	let late = false;
	const twentyfold = setTimeout(() => (late = true), 8000);
	const error = await client.json({path: '/api/v1/sandboxes/search', headersTimeoutMs: 400}).catch((caught: unknown) => caught);
	clearInterval(ticker);
	clearTimeout(twentyfold);
	assert.ok(error instanceof TimeoutError, String(error));
	assert.equal(late, false, 'ended at its 400 ms headers timeout, not some longer one');
	assert.ok(ticks >= 1, 'the event loop kept running while waiting');
});

test('33. a 10 MB body at 1 KB/s is stopped by the body timeout or the size cap, with a message', async (t) => {
	const big = `{"items":[${'"x",'.repeat(2_500_000)}"x"]}`;
	const origin = await plainServer(t, (_request, response) => {
		response.writeHead(200, {'content-type': 'application/json'});
		response.end(big);
	});
	const proxy = await proxied(t, Number(new URL(origin).port));
	proxy.mode = 'slow-body';
	proxy.bytesPerSecond = 1024;
	const client = new HttpClient({baseUrl: proxy.url, headers: () => ({}), maxRetries: 0});
	const slow = await client.json({path: '/big', bodyTimeoutMs: 500, bodyDeadlineMs: 1500}).catch((caught: unknown) => caught);
	assert.ok(slow instanceof TimeoutError, String(slow));
	assert.match((slow as Error).message, /too slowly/);
	proxy.mode = 'pass';
	const capped = await client.json({path: '/big', maxBytes: 1024 * 1024}).catch((caught: unknown) => caught);
	assert.ok(capped instanceof ProtocolError, String(capped));
	assert.match((capped as Error).message, /larger than 1 MiB; stopped reading/);
});

test('34. reset mid-body: a GET is retried; a POST create is not, and may have gone through', async (t) => {
	let posts = 0;
	const origin = await plainServer(t, (request, response) => {
		if (request.method === 'POST') posts++;
		response.writeHead(200, {'content-type': 'application/json'});
		response.end(JSON.stringify({items: 'y'.repeat(4000)}));
	});
	const proxy = await proxied(t, Number(new URL(origin).port));
	proxy.mode = 'reset-mid-body';
	proxy.afterBytes = 300;
	const retries: number[] = [];
	const client = new HttpClient({baseUrl: proxy.url, headers: () => ({}), maxRetries: 2, onRetry: (info) => retries.push(info.attempt)});
	const get = await client.json({path: '/list'}).catch((caught: unknown) => caught);
	assert.ok(get instanceof Error);
	assert.deepEqual(retries, [1, 2], 'the GET was retried');
	retries.length = 0;
	const post = await client.json({method: 'POST', path: '/api/v1/app-conversations', body: {}}).catch((caught: unknown) => caught);
	assert.ok(post instanceof OutcomeUnknownError, String(post));
	assert.match((post as Error).message, /may have/i);
	assert.equal(posts, 1, 'sent once');
	assert.deepEqual(retries, []);
});

test('35. 401/403: no retry loop; "key rejected"', async (t) => {
	const sim = await startSim(t);
	const client = new AppClient({baseUrl: sim.baseUrl, apiKey: 'wrong-key', maxRetries: 4});
	sim.stats.reset();
	const error = await client.listSandboxes().catch((caught: unknown) => caught);
	assert.ok(error instanceof KeyRejectedError, String(error));
	assert.match((error as Error).message, /key/i);
	assert.equal(sim.stats.requests, 1, 'asked once');
});

test('36. leaving a view mid-poll: aborted; no state set after unmount; no leaked sockets', async (t) => {
	const sim = await startSim(t, {conversations: 24});
	const timers = () => process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;
	const timersBefore = timers();
	const appClient = new AppClient({baseUrl: sim.baseUrl, apiKey: sim.apiKey, maxRetries: 0});
	const {store, controller} = createDashboard({appClient, appBaseUrl: sim.baseUrl, serverLabel: 'sim', demo: false});
	await waitUntil(() => store.getSnapshot().conversations.size === 24, 10_000, 'loaded');
	const running = [...store.getSnapshot().conversations.values()].find((row) => row.conversation.sandbox_status === 'RUNNING')!;
	// Every answer held 10 s, so the view is surely left before the history is answered (400 ms was
	// less than a loaded machine took to close it: busy run 2 saw it answered, not aborted). The
	// simulator notes an abort when it comes to answer: the request ends 10 s on, as aborted.
	sim.faults.setLatency(10_000);
	sim.stats.reset();
	controller.openTimeline(running.key);
	// Leave while its history request is on the wire: the simulator has it and has not answered.
	// Its own history read, by the conversation's id in the path: the dashboard also reads events of
	// other conversations meanwhile (why an errored one failed), which the view's close leaves alone.
	const history = () => sim.stats.log.find((entry) => /\/events\/search$/.test(entry.key) && entry.path.replaceAll('-', '').toLowerCase().includes(normalizeId(running.key)));
	await waitUntil(() => history() !== undefined, 5000, 'the history request on the wire');
	assert.equal(history()!.endedAt, null, 'not answered yet');
	controller.closeTimeline();
	await waitUntil(() => store.getSnapshot().timeline === null, 2000, 'the timeline closed');
	// The request is aborted: the simulator sees the connection close before its answer.
	await waitUntil(() => history()!.endedAt !== null, 15_000, 'the history request to end (the simulator sees an abort once its 10 s are up)');
	assert.equal(history()!.aborted, true, `the history request was aborted: ${JSON.stringify(history())}`);
	assert.equal(store.getSnapshot().timeline, null, 'the late answer did not bring it back');
	await controller.close();
	const closedAt = Date.now();
	const version = store.getSnapshot().version;
	sim.faults.reset();
	// A poll sent while answers were held 10 s is answered by then, then its socket closes.
	await waitUntil(() => sim.openSockets() === 0, 25_000, 'no socket left open');
	// Whatever was in flight at close has ended (answered or aborted), and nothing is scheduled:
	// no timer of the dashboard is left to ask or publish later.
	await waitUntil(() => sim.stats.log.every((entry) => entry.endedAt !== null && entry.handledAt !== null), 25_000, 'every request to end');
	assert.equal(timers(), timersBefore, `timers left after close: ${JSON.stringify(process.getActiveResourcesInfo())}`);
	assert.deepEqual(sim.stats.log.filter((entry) => entry.at > closedAt).map((entry) => entry.key), [], 'nothing asked after close');
	assert.equal(store.getSnapshot().version, version, 'nothing published after close');
});

test('37. ENOTFOUND or a wrong host: a clear message and backoff', async (t) => {
	const appClient = new AppClient({baseUrl: 'http://agent-tui-no-such-host.invalid', apiKey: 'k', maxRetries: 0});
	// The dashboard's clock stands still: when the retry is due is then exact, however long the look-up took.
	const now = Date.now();
	const {store, controller} = createDashboard({
		appClient,
		appBaseUrl: 'http://agent-tui-no-such-host.invalid',
		serverLabel: 'nowhere',
		demo: false,
		now: () => now,
		intervals: {retryBaseMs: 200, retryCapMs: 1000},
	});
	t.after(() => controller.close());
	await waitUntil(() => store.getSnapshot().connection.lastError !== null, 15_000, 'an error');
	const {connection} = store.getSnapshot();
	assert.match(connection.lastError ?? '', /ENOTFOUND|not found|resolve|EAI_AGAIN|no-such-host/i);
	assert.ok(connection.nextRetryAt !== null && connection.nextRetryAt >= now + 100, `a retry is scheduled at least half the base wait later, not a loop: ${connection.nextRetryAt === null ? null : connection.nextRetryAt - now} ms`);
});

test('38. server clock skew: dedupe by id; resume uses server timestamps', async (t) => {
	const sim = await startSim(t);
	const {conversation, client} = await agentThrough(t, sim, sim.baseUrl);
	const watched = supervise(t, client);
	await waitUntil(() => watched.supervisor.status.state === 'live', 5000, 'live');
	// Events stamped a day in the future and a day in the past (naive server time, as the agent server sends).
	const future = new Date(Date.now() + 86_400_000).toISOString().replace('Z', '');
	const past = new Date(Date.now() - 86_400_000).toISOString().replace('Z', '');
	sim.world.appendEvent(conversation, {kind: 'MessageEvent', source: 'agent', timestamp: future, llm_message: {role: 'assistant', content: [{type: 'text', text: 'from the future'}]}});
	sim.world.appendEvent(conversation, {kind: 'MessageEvent', source: 'agent', timestamp: past, llm_message: {role: 'assistant', content: [{type: 'text', text: 'from the past'}]}});
	sim.faults.dropSockets();
	await waitUntil(() => watched.supervisor.status.state === 'live' && watched.supervisor.log.size === sim.world.events(conversation).length, 10_000, 'caught up');
	assert.equal(new Set(watched.supervisor.log.events.map((event) => event.id)).size, watched.supervisor.log.size, 'each id once');
	assert.equal(watched.supervisor.log.lastTimestamp, future, 'the resume point is the server\'s own newest timestamp');
});

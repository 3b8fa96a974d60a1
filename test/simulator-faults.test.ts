import assert from 'node:assert/strict';
import {test} from 'node:test';
import {agent, app, appConversations, seeded, startTestSimulator, type Json} from './helpers/sim-harness.js';

test('rateLimit: the next N requests get 429 with Retry-After and X-RateLimit-* headers', async (t) => {
	const sim = await startTestSimulator(t);
	const {row} = await seeded(sim, 'coding');
	sim.faults.rateLimit({count: 2, retryAfterSeconds: 3});
	const first = await app(sim, '/api/v1/app-conversations/count');
	assert.equal(first.status, 429);
	assert.match(first.body.error, /^Rate limit exceeded: /);
	assert.equal(first.headers.get('retry-after'), '3');
	assert.equal(first.headers.get('x-ratelimit-limit'), '10');
	assert.equal(first.headers.get('x-ratelimit-remaining'), '0');
	assert.ok(Number(first.headers.get('x-ratelimit-reset')) > Date.now() / 1000);
	assert.equal((await agent(row, `/api/conversations/${row.id}`)).status, 429, 'the agent server is limited too');
	assert.equal((await app(sim, '/api/v1/app-conversations/count')).status, 200);
});

test('requestsPerWindow: past the limit in a window, the app server answers 429 naming it as the service does; agent servers are not counted', async (t) => {
	const sim = await startTestSimulator(t);
	const {row} = await seeded(sim, 'coding');
	sim.faults.requestsPerWindow({limit: 3, windowMs: 60_000});
	for (let index = 0; index < 3; index++) assert.equal((await app(sim, '/api/v1/app-conversations/count')).status, 200);
	// Another server (an agent server under /runtime/): not this limiter's to count.
	assert.notEqual((await agent(row, `/api/conversations/${row.id}`)).status, 429);
	const refused = await app(sim, '/api/v1/app-conversations/count');
	assert.equal(refused.status, 429);
	assert.equal(refused.body.error, 'Rate limit exceeded: 3 per 1 minute');
	assert.equal(refused.headers.get('x-ratelimit-limit'), '3 per 1 minute');
	const retryAfter = Number(refused.headers.get('retry-after'));
	assert.ok(retryAfter >= 58 && retryAfter <= 59, `Retry-After ${retryAfter}: the rest of the minute, rounded down`);
	assert.ok(Number(refused.headers.get('x-ratelimit-reset')) * 1000 > Date.now() + 58_000);
	sim.faults.requestsPerWindow({limit: 0, windowMs: 60_000});
	assert.equal((await app(sim, '/api/v1/app-conversations/count')).status, 200, 'off again');
});

test('serverErrors: the next N requests get a 5xx with a JSON detail; latency delays every answer', async (t) => {
	const sim = await startTestSimulator(t);
	sim.faults.serverErrors({count: 2});
	const first = await app(sim, '/api/v1/app-conversations/count');
	assert.equal(first.status, 503);
	assert.equal(typeof first.body.detail, 'string');
	assert.equal((await app(sim, '/api/v1/sandboxes/search')).status, 503);
	assert.equal((await app(sim, '/api/v1/app-conversations/count')).status, 200);
	sim.faults.serverErrors({count: 1, status: 502});
	assert.equal((await app(sim, '/api/v1/app-conversations/count')).status, 502);

	sim.faults.setLatency(120);
	const started = Date.now();
	assert.equal((await app(sim, '/api/v1/app-conversations/count')).status, 200);
	assert.ok(Date.now() - started >= 110);
	sim.faults.reset();
	const state = (await (await fetch(`${sim.baseUrl}/_sim/faults`)).json()) as Json;
	assert.equal(state.latencyMs, 0);
});

test('hostileText: escape sequences in agent text and titles, an unknown kind and an unknown status', async (t) => {
	const sim = await startTestSimulator(t);
	const {conversation, row} = await seeded(sim, 'long-runner');
	const quiet = await seeded(sim, 'quiet');
	const before = sim.world.events(conversation).length;
	sim.faults.hostileText(true);
	sim.step(9);
	const added = sim.world.events(conversation).slice(before);
	const text = JSON.stringify(added);
	assert.ok(/\u001b\]52;|\u001b\]0;|\u001b\[2J|\u202e|\u009b|\r/.test(text), 'terminal control sequences in agent text');
	assert.ok(added.some((event) => event.kind === 'FutureEvent'), 'an event kind no client knows');
	assert.ok(added.some((event) => event.key === 'execution_status' && event.value === 'archived'), 'a status value no client knows');
	const [hostileRow, quietRow] = await appConversations(sim, [row.id, quiet.row.id]);
	assert.match(hostileRow.title, /[\u001b\u009b\u202e\r\u0007]/);
	assert.equal(quietRow.execution_status, 'archived');
	sim.faults.reset();
	const [calm] = await appConversations(sim, [row.id]);
	assert.equal(calm.title, row.title);
});

test('HTTP control plane: /_sim/faults and /_sim/step steer a simulator in another process; stats skip it', async (t) => {
	const sim = await startTestSimulator(t);
	const {conversation} = await seeded(sim, 'long-runner');
	sim.stats.reset();
	const post = (path: string, body?: unknown) =>
		fetch(`${sim.baseUrl}${path}`, {method: 'POST', headers: {'content-type': 'application/json'}, body: body === undefined ? undefined : JSON.stringify(body)});

	const applied = (await (await post('/_sim/faults', {rateLimit: {count: 1, retryAfterSeconds: 5}, serverErrors: {count: 1, status: 500}, hostileText: true})).json()) as Json;
	assert.deepEqual(applied.applied, ['rateLimit', 'serverErrors', 'hostileText']);
	assert.equal((await app(sim, '/api/v1/app-conversations/count')).status, 429);
	assert.equal((await app(sim, '/api/v1/app-conversations/count')).status, 500);
	assert.equal((await app(sim, '/api/v1/app-conversations/count')).status, 200);

	const before = sim.world.events(conversation).length;
	assert.deepEqual(await (await post('/_sim/step?n=3')).json(), {stepped: 3});
	assert.ok(sim.world.events(conversation).length > before);
	await post('/_sim/faults', {reset: true});
	assert.equal(((await (await fetch(`${sim.baseUrl}/_sim/faults`)).json()) as Json).hostileText, false);

	assert.equal(sim.stats.requests, 3, 'control requests are not counted');
	assert.equal(sim.stats.byRoute['GET /api/v1/app-conversations/count'], 3);
	const {row} = await seeded(sim, 'coding');
	await agent(row, `/api/conversations/${row.id}/events/search?limit=5`);
	assert.equal(sim.stats.byRoute['GET /runtime/:n/api/conversations/:id/events/search'], 1);
	sim.stats.reset();
	assert.equal(sim.stats.requests, 0);
	assert.deepEqual(sim.stats.byRoute, {});
});

import assert from 'node:assert/strict';
import {test} from 'node:test';
import {agent, app, appConversations, seeded, startTestSimulator, waitUntil, type Json} from './helpers/sim-harness.js';

async function sandboxStatus(sim: Awaited<ReturnType<typeof startTestSimulator>>, id: string): Promise<string> {
	const result = await app(sim, `/api/v1/sandboxes?id=${id}`);
	return result.body[0].status;
}

test('sandboxes: search pages, batch get by singular id with null for unknown, specs', async (t) => {
	const sim = await startTestSimulator(t);
	const first = await app(sim, '/api/v1/sandboxes/search?limit=10');
	assert.equal(first.body.items.length, 10);
	assert.equal(first.body.next_page_id, '10');
	const running = first.body.items.find((row: Json) => row.status === 'RUNNING');
	assert.deepEqual(running.exposed_urls[0], {name: 'AGENT_SERVER', url: `${sim.baseUrl}/runtime/${running.exposed_urls[0].url.split('/').pop()}`, port: 8000});
	assert.equal(typeof running.session_api_key, 'string');
	const paused = (await app(sim, '/api/v1/sandboxes/search?limit=100')).body.items.find((row: Json) => row.status === 'PAUSED');
	assert.equal(paused.exposed_urls, null);

	const batch = await app(sim, `/api/v1/sandboxes?id=${running.id}&id=sb-unknown`);
	assert.equal(batch.body[0].id, running.id);
	assert.equal(batch.body[1], null);
	const tooMany = Array.from({length: 101}, () => 'id=x').join('&');
	assert.equal((await app(sim, `/api/v1/sandboxes?${tooMany}`)).status, 400);

	const specs = await app(sim, '/api/v1/sandbox-specs/search');
	assert.ok(specs.body.items.length >= 3);
	for (const spec of specs.body.items) assert.deepEqual(Object.keys(spec).sort(), ['command', 'created_at', 'id', 'initial_env', 'working_dir']);
	const spec = await app(sim, `/api/v1/sandbox-specs?id=${encodeURIComponent(specs.body.items[1].id)}&id=nope`);
	assert.equal(spec.body[0].id, specs.body.items[1].id);
	assert.equal(spec.body[1], null);
});

test('pause and resume answer at once and change the status a moment later', async (t) => {
	const sim = await startTestSimulator(t, {sandboxTransitionMs: 250});
	const {conversation, row} = await seeded(sim, 'long-runner');
	const paused = await app(sim, `/api/v1/sandboxes/${row.sandbox_id}/pause`, {method: 'POST'});
	assert.deepEqual(paused.body, {success: true});
	assert.equal(await sandboxStatus(sim, row.sandbox_id), 'RUNNING', 'not paused yet');
	await waitUntil(async () => (await sandboxStatus(sim, row.sandbox_id)) === 'PAUSED');

	const [whilePaused] = await appConversations(sim, [row.id]);
	assert.equal(whilePaused.execution_status, null);
	assert.equal(whilePaused.conversation_url, null);
	const before = sim.world.events(conversation).length;
	sim.step(5);
	assert.equal(sim.world.events(conversation).length, before, 'a paused sandbox runs no agent');
	assert.equal((await agent(row, `/api/conversations/${row.id}`)).status, 503);

	assert.deepEqual((await app(sim, `/api/v1/sandboxes/${row.sandbox_id}/resume`, {method: 'POST'})).body, {success: true});
	const seen = new Set<string>();
	await waitUntil(async () => {
		const status = await sandboxStatus(sim, row.sandbox_id);
		seen.add(status);
		return status === 'RUNNING';
	});
	assert.ok(seen.has('STARTING'), 'resume passes through STARTING');
	const [back] = await appConversations(sim, [row.id]);
	assert.equal(back.execution_status, 'running');
	sim.step(2);
	assert.ok(sim.world.events(conversation).length > before, 'the agent runs again');

	assert.deepEqual((await app(sim, '/api/v1/sandboxes/sb-nope/pause', {method: 'POST'})).body, {detail: 'Not Found'});
	assert.equal((await app(sim, '/api/v1/sandboxes/sb-nope/resume', {method: 'POST'})).status, 404);
});

test('resuming past the cap pauses the oldest other RUNNING sandbox; a STARTING one is neither counted nor paused', async (t) => {
	const sim = await startTestSimulator(t, {maxRunningSandboxes: 3, startingSandboxes: 1});
	const running = () =>
		sim.world
			.sandboxList()
			.filter((sandbox) => sandbox.status === 'RUNNING')
			.map((sandbox) => sandbox.id);
	const before = running();
	assert.equal(before.length, 3);
	const starting = sim.world.sandboxList().find((sandbox) => sandbox.status === 'STARTING')!;
	const oldest = [...sim.world.sandboxList()].filter((sandbox) => sandbox.status === 'RUNNING').sort((a, b) => a.createdAt - b.createdAt)[0]!;
	assert.ok(starting.createdAt < oldest.createdAt, 'the STARTING sandbox is the oldest of all');
	const target = sim.world.sandboxList().find((sandbox) => sandbox.status === 'PAUSED')!;
	await app(sim, `/api/v1/sandboxes/${target.id}/resume`, {method: 'POST'});
	// Asked for before the resume, done after it: the oldest RUNNING one, not the STARTING one.
	await waitUntil(async () => (await sandboxStatus(sim, target.id)) === 'RUNNING');
	await waitUntil(async () => (await sandboxStatus(sim, oldest.id)) === 'PAUSED');
	assert.equal(await sandboxStatus(sim, starting.id), 'STARTING');
	assert.equal(running().length, 3);
	assert.ok(!running().includes(oldest.id));

	const started = await app(sim, `/api/v1/sandboxes?sandbox_spec_id=${encodeURIComponent(sim.world.specs[1]!.id)}`, {method: 'POST'});
	assert.equal(started.body.status, 'STARTING');
	assert.equal(started.body.sandbox_spec_id, sim.world.specs[1]!.id);
	await waitUntil(async () => (await sandboxStatus(sim, started.body.id)) === 'RUNNING');
	// The start paused the oldest running one too, a moment after it runs.
	await waitUntil(async () => running().length === 3);
	assert.equal(await sandboxStatus(sim, starting.id), 'STARTING');
	assert.equal((await app(sim, '/api/v1/sandboxes?sandbox_spec_id=unknown', {method: 'POST'})).status, 404);
});

test('DELETE takes the id from the path or from ?sandbox_id=', async (t) => {
	const sim = await startTestSimulator(t);
	const [a, b] = sim.world.sandboxList().filter((sandbox) => sandbox.status === 'PAUSED');
	assert.deepEqual((await app(sim, `/api/v1/sandboxes/${a!.id}`, {method: 'DELETE'})).body, {success: true});
	assert.deepEqual((await app(sim, `/api/v1/sandboxes/ignored?sandbox_id=${b!.id}`, {method: 'DELETE'})).body, {success: true});
	assert.equal(await sandboxStatus(sim, a!.id), 'MISSING');
	assert.equal(await sandboxStatus(sim, b!.id), 'MISSING');
	const [row] = (await app(sim, `/api/v1/sandboxes?id=${a!.id}`)).body;
	assert.equal(row.session_api_key, null);
	assert.equal((await app(sim, `/api/v1/sandboxes/${a!.id}`, {method: 'DELETE'})).status, 404);
});

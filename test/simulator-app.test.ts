import assert from 'node:assert/strict';
import {test} from 'node:test';
import {dashedId} from '../source/wire/ids.js';
import {app, appConversations, startTestSimulator, waitUntil, type Json} from './helpers/sim-harness.js';

test('app server: a wrong or missing key is 401 {"error"}; unrouted paths get the SPA page', async (t) => {
	const sim = await startTestSimulator(t);
	for (const headers of [{authorization: 'Bearer nope'}, {authorization: ''}]) {
		const result = await app(sim, '/api/v1/app-conversations/search', {headers});
		assert.equal(result.status, 401);
		assert.deepEqual(result.body, {error: 'Invalid API key'});
	}
	for (const path of ['/', '/api/v1/not-a-route', '/api/nothing-here']) {
		const result = await app(sim, path);
		assert.equal(result.status, 200, path);
		assert.match(result.headers.get('content-type') ?? '', /text\/html/);
		assert.match(result.text, /<div id="root">/);
	}
});

test('search pages through every conversation newest first, with offsets as page ids', async (t) => {
	const sim = await startTestSimulator(t, {conversations: 57});
	const seen: Json[] = [];
	let pageId: string | null = null;
	let pages = 0;
	do {
		const result = await app(sim, `/api/v1/app-conversations/search?limit=20${pageId ? `&page_id=${pageId}` : ''}`);
		assert.equal(result.status, 200);
		seen.push(...result.body.items);
		pageId = result.body.next_page_id;
		pages++;
	} while (pageId !== null);
	assert.equal(pages, 3);
	assert.equal(seen.length, 57);
	assert.equal(new Set(seen.map((row) => row.id)).size, 57);
	const created = seen.map((row) => row.created_at);
	assert.deepEqual(created, [...created].sort().reverse(), 'created_at desc');
	for (const row of seen) {
		assert.match(row.id, /^[0-9a-f]{32}$/);
		assert.match(row.created_at, /Z$/);
		assert.ok('execution_status' in row && 'conversation_url' in row && 'metrics' in row);
		if (row.sandbox_status === 'RUNNING') {
			assert.match(row.conversation_url, new RegExp(`^${sim.baseUrl}/runtime/\\d+/api/conversations/${row.id}$`));
			assert.equal(typeof row.session_api_key, 'string');
		} else {
			assert.equal(row.execution_status, null);
			assert.equal(row.conversation_url, null);
			assert.equal(row.session_api_key, null);
		}
	}
	const statuses = new Set(seen.map((row) => row.sandbox_status));
	for (const status of ['RUNNING', 'PAUSED', 'ERROR', 'MISSING']) assert.ok(statuses.has(status), status);

	const restart = await app(sim, '/api/v1/app-conversations/search?limit=5&page_id=bogus');
	assert.deepEqual(restart.body.items.map((row: Json) => row.id), seen.slice(0, 5).map((row) => row.id), 'a non-integer page id starts over');
	assert.equal((await app(sim, '/api/v1/app-conversations/count')).body, 57);
});

test('search filters, count, and limit validation', async (t) => {
	const sim = await startTestSimulator(t);
	const titled = await app(sim, '/api/v1/app-conversations/search?title__contains=django');
	assert.ok(titled.body.items.length > 0);
	for (const row of titled.body.items) assert.match(row.title, /django/i);
	assert.equal((await app(sim, '/api/v1/app-conversations/count?title__contains=django')).body, titled.body.items.length);

	const [first] = (await app(sim, '/api/v1/app-conversations/search?limit=1')).body.items;
	const bySandbox = await app(sim, `/api/v1/app-conversations/search?sandbox_id__eq=${first.sandbox_id}`);
	assert.deepEqual(bySandbox.body.items.map((row: Json) => row.id), [first.id]);
	const newer = await app(sim, `/api/v1/app-conversations/count?created_at__gte=${encodeURIComponent(first.created_at)}`);
	assert.equal(newer.body, 1);

	const tooMany = await app(sim, '/api/v1/app-conversations/search?limit=101');
	assert.equal(tooMany.status, 422);
	assert.ok(Array.isArray(tooMany.body.detail));
	const [issue] = tooMany.body.detail;
	assert.deepEqual(Object.keys(issue).sort(), ['ctx', 'input', 'loc', 'msg', 'type']);
	assert.deepEqual(issue.loc, ['query', 'limit']);
});

test('batch get: aligned with the input, null for unknown ids, both id spellings, at most 99', async (t) => {
	const sim = await startTestSimulator(t);
	const [a, b] = sim.world.conversationList();
	const unknown = '0123456789abcdef0123456789abcdef';
	const rows = await appConversations(sim, [a!.id, unknown, dashedId(b!.id).toUpperCase()]);
	assert.equal(rows.length, 3);
	assert.equal(rows[0].id, a!.id);
	assert.equal(rows[1], null);
	assert.equal(rows[2].id, b!.id);

	const many = Array.from({length: 100}, () => unknown).map((id) => `ids=${id}`).join('&');
	const tooMany = await app(sim, `/api/v1/app-conversations?${many}`);
	assert.equal(tooMany.status, 400);
	assert.deepEqual(tooMany.body, {detail: 'Too many ids requested. Maximum is 99.'});
	assert.equal((await app(sim, '/api/v1/app-conversations?ids=not-a-uuid')).status, 400);
});

test('stream-start writes the phases incrementally, then the conversation exists and runs', async (t) => {
	const sim = await startTestSimulator(t, {startTaskPhaseMs: 25});
	const response = await fetch(`${sim.baseUrl}/api/v1/app-conversations/stream-start`, {
		method: 'POST',
		headers: {authorization: `Bearer ${sim.apiKey}`, 'content-type': 'application/json'},
		body: JSON.stringify({
			initial_message: {role: 'user', content: [{type: 'text', text: 'Fix the flaky date test in tests/test_dates.py'}]},
			selected_repository: 'acme/invoice-parser',
			plugins: [{source: 'github:acme/skills', ref: 'v1', repo_path: 'plugins/lint'}],
			observability_metadata: {team: 'payments', tier: 2, labels: ['a', 'b']},
		}),
	});
	assert.equal(response.status, 200);
	assert.match(response.headers.get('content-type') ?? '', /application\/json/);
	const chunks: string[] = [];
	const decoder = new TextDecoder();
	for await (const chunk of response.body!) chunks.push(decoder.decode(chunk as Uint8Array, {stream: true}));
	assert.ok(chunks.length > 2, `expected several chunks, got ${chunks.length}`);
	assert.ok(chunks[0]!.startsWith('[\n'));
	assert.ok(!chunks[0]!.includes('READY'), 'the first chunk is not the whole array');
	const tasks: Json[] = JSON.parse(chunks.join(''));
	assert.deepEqual(
		tasks.map((task) => task.status),
		['WORKING', 'WAITING_FOR_SANDBOX', 'PREPARING_REPOSITORY', 'RUNNING_SETUP_SCRIPT', 'SETTING_UP_GIT_HOOKS', 'SETTING_UP_SKILLS', 'STARTING_CONVERSATION', 'READY'],
	);
	assert.equal(new Set(tasks.map((task) => task.id)).size, 1);
	assert.equal(tasks[0].sandbox_id, null);
	assert.ok(tasks[1].sandbox_id);
	assert.equal(tasks[5].agent_server_url, null);
	assert.match(tasks[6].agent_server_url, /\/runtime\/\d+$/);
	const ready = tasks.at(-1);
	const [row] = await appConversations(sim, [ready.app_conversation_id]);
	assert.equal(row.sandbox_status, 'RUNNING');
	assert.equal(row.execution_status, 'running');
	assert.equal(row.selected_repository, 'acme/invoice-parser');
	const events = sim.world.events(ready.app_conversation_id);
	assert.deepEqual(events.slice(0, 3).map((event) => event.kind), ['SystemPromptEvent', 'MessageEvent', 'ConversationStateUpdateEvent']);
	sim.step(3);
	assert.ok(sim.world.events(ready.app_conversation_id).length > 3, 'its agent works on step()');

	const polled = await app(sim, `/api/v1/app-conversations/start-tasks?ids=${ready.id}&ids=0123456789abcdef0123456789abcdef`);
	assert.equal(polled.body[0].status, 'READY');
	assert.equal(polled.body[1], null);
	const search = await app(sim, `/api/v1/app-conversations/start-tasks/search?conversation_id__eq=${ready.app_conversation_id}`);
	assert.deepEqual(search.body.items.map((task: Json) => task.id), [ready.id]);
	assert.equal((await app(sim, '/api/v1/app-conversations/start-tasks/count')).body, 1);
});

test('FAIL_START ends in ERROR with a detail; TRUNCATE_START cuts the array after the first task', async (t) => {
	const sim = await startTestSimulator(t, {startTaskPhaseMs: 5});
	const body = (text: string) => ({initial_message: {content: [{type: 'text', text}]}, selected_repository: 'acme/missing'});
	const failed = await app(sim, '/api/v1/app-conversations/stream-start', {method: 'POST', json: body('please FAIL_START')});
	const tasks: Json[] = JSON.parse(failed.text);
	assert.equal(tasks.at(-1).status, 'ERROR');
	assert.match(tasks.at(-1).detail, /FAIL_START/);

	const response = await fetch(`${sim.baseUrl}/api/v1/app-conversations/stream-start`, {
		method: 'POST',
		headers: {authorization: `Bearer ${sim.apiKey}`, 'content-type': 'application/json'},
		body: JSON.stringify(body('TRUNCATE_START now')),
	});
	let text = '';
	let failure: unknown = null;
	try {
		for await (const chunk of response.body!) text += Buffer.from(chunk as Uint8Array).toString('utf8');
	} catch (error) {
		failure = error;
	}
	assert.ok(failure, 'the body ends with a connection error');
	assert.ok(text.startsWith('[\n{'));
	assert.ok(!text.includes(']\n') && !text.trimEnd().endsWith(']'), 'the array is never closed');
	const first = JSON.parse(text.slice(2));
	assert.equal(first.status, 'WORKING');

	const plain = await app(sim, '/api/v1/app-conversations', {method: 'POST', json: body('FAIL_START again')});
	assert.equal(plain.status, 200);
	assert.equal(plain.body.status, 'WORKING');
	await waitUntil(async () => (await app(sim, `/api/v1/app-conversations/start-tasks?ids=${plain.body.id}`)).body[0].status === 'ERROR');
});

test('create requests are validated: plugin source required, observability metadata scalar or homogeneous', async (t) => {
	const sim = await startTestSimulator(t);
	const noSource = await app(sim, '/api/v1/app-conversations', {method: 'POST', json: {plugins: [{ref: 'main'}]}});
	assert.equal(noSource.status, 422);
	assert.deepEqual(noSource.body.detail[0].loc, ['body', 'plugins', 0, 'source']);
	const mixed = await app(sim, '/api/v1/app-conversations', {method: 'POST', json: {observability_metadata: {ok: [1, 2], bad: [1, 'two'], nested: {a: 1}}}});
	assert.equal(mixed.status, 422);
	assert.deepEqual(mixed.body.detail.map((issue: Json) => issue.loc.at(-1)).sort(), ['bad', 'nested']);
	const invalidJson = await app(sim, '/api/v1/app-conversations', {method: 'POST', body: '{nope', headers: {'content-type': 'application/json'}});
	assert.equal(invalidJson.status, 422);
});

test('send-message, PATCH and DELETE follow the sandbox state', async (t) => {
	const sim = await startTestSimulator(t);
	const world = sim.world;
	const byStatus = (status: string) => world.conversationList().find((row) => world.findSandbox(row.sandboxId)?.status === status)!;
	const message = {role: 'user', content: [{type: 'text', text: 'Please also update the README.'}], run: true};

	const running = byStatus('RUNNING');
	const sent = await app(sim, `/api/v1/app-conversations/${running.id}/send-message`, {method: 'POST', json: message});
	assert.equal(sent.status, 200);
	assert.equal(sent.body.success, true);
	assert.equal(sent.body.sandbox_status, 'RUNNING');
	assert.ok(world.events(running).some((event) => event.kind === 'MessageEvent' && JSON.stringify(event).includes('update the README')));
	assert.equal((await app(sim, `/api/v1/app-conversations/${byStatus('PAUSED').id}/send-message`, {method: 'POST', json: message})).status, 409);
	assert.equal((await app(sim, `/api/v1/app-conversations/${byStatus('MISSING').id}/send-message`, {method: 'POST', json: message})).status, 410);
	assert.equal((await app(sim, `/api/v1/app-conversations/${running.id}/send-message`, {method: 'POST', json: {content: []}})).status, 422);

	const patched = await app(sim, `/api/v1/app-conversations/${running.id}`, {method: 'PATCH', json: {title: 'Renamed', public: true}});
	assert.equal(patched.body.title, 'Renamed');
	assert.equal(patched.body.public, true);
	const missing = await app(sim, '/api/v1/app-conversations/0123456789abcdef0123456789abcdef', {method: 'PATCH', json: {title: 'x'}});
	assert.deepEqual([missing.status, missing.body], [404, {detail: 'unknown_app_conversation'}]);

	const victim = byStatus('PAUSED');
	assert.deepEqual((await app(sim, `/api/v1/app-conversations/${victim.id}`, {method: 'DELETE'})).body, {success: true});
	assert.deepEqual(await appConversations(sim, [victim.id]), [null]);
	assert.equal(world.findSandbox(victim.sandboxId)?.status, 'MISSING');
	assert.equal((await app(sim, `/api/v1/app-conversations/${victim.id}`, {method: 'DELETE'})).status, 404);
});

test('V0: the start is gone (405, as on the service since 2026-04-19); the list pages with a cursor', async (t) => {
	const sim = await startTestSimulator(t);
	const created = await app(sim, '/api/conversations', {method: 'POST', json: {initial_user_msg: 'Add a health endpoint', repository: 'acme/api'}});
	assert.equal(created.status, 405);
	const list = await app(sim, '/api/conversations');
	assert.equal(list.body.results.length, 20);
	assert.equal(list.body.results[0].conversation_id, sim.world.conversationList()[0]!.id);
	const next = await app(sim, `/api/conversations?page_id=${encodeURIComponent(list.body.next_page_id)}`);
	assert.equal(next.body.results[0].conversation_id, sim.world.conversationList()[20]!.id);
	assert.equal((await app(sim, '/api/conversations/0123456789abcdef0123456789abcdef')).text, 'null');
});

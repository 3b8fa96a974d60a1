import assert from 'node:assert/strict';
import {createServer, type IncomingHttpHeaders} from 'node:http';
import type {AddressInfo} from 'node:net';
import {test} from 'node:test';
import {inspect} from 'node:util';
import {AgentClient, agentBaseUrl} from '../source/wire/agent-client.js';
import {KeyRejectedError, NotFoundError, ProtocolError, RequestRefusedError} from '../source/wire/errors.js';
import {dashedId} from '../source/wire/ids.js';
import {Secret} from '../source/wire/secret.js';
import {clientFor, serverIds, startSim, testDispatcher} from './wire-agent-fixtures.js';

test('agentBaseUrl: strips /api/conversations/<id>, keeps the path prefix, resolves relative URLs', () => {
	assert.equal(agentBaseUrl('http://host/runtime/3/api/conversations/abc', 'https://app.example'), 'http://host/runtime/3');
	assert.equal(agentBaseUrl('https://h.example:8443/api/conversations/abc/', 'https://app.example'), 'https://h.example:8443');
	assert.equal(agentBaseUrl('/runtime/55313/api/conversations/0123abcd', 'https://app.example/some/path'), 'https://app.example/runtime/55313');
	assert.equal(agentBaseUrl('http://host/runtime/3/', 'https://app.example'), 'http://host/runtime/3', 'a bare base is kept as it is');
	assert.equal(agentBaseUrl('http://host/runtime/3/api/conversations/abc?x=1#y', 'https://app.example'), 'http://host/runtime/3');
	assert.throws(() => agentBaseUrl('javascript:alert(1)', 'https://app.example'), /unsupported scheme/);
	assert.throws(() => agentBaseUrl('', 'https://app.example'), /no agent server URL/);
});

test('AgentClient.fromConversation: needs a conversation_url; socket URL scheme follows the base; the key never prints', () => {
	assert.throws(
		() => AgentClient.fromConversation({id: 'abc', conversation_url: null}, 'https://app.example'),
		/abc has no agent server URL: its sandbox is not running/,
	);
	const key = new Secret('sk-oh-very-secret');
	const plain = AgentClient.fromConversation(
		{id: 'c0ffee', conversation_url: 'http://host:3000/runtime/7/api/conversations/c0ffee', session_api_key: key},
		'https://app.example',
	);
	assert.equal(plain.baseUrl, 'http://host:3000/runtime/7');
	assert.equal(plain.socketUrl(), 'ws://host:3000/runtime/7/sockets/events/c0ffee');
	const tls = AgentClient.fromConversation({id: 'c0ffee', conversation_url: '/runtime/7/api/conversations/c0ffee'}, 'https://app.example');
	assert.equal(tls.socketUrl(), 'wss://app.example/runtime/7/sockets/events/c0ffee');
	for (const text of [inspect(plain, {depth: 5}), JSON.stringify(plain), String(plain.sessionApiKey), plain.socketUrl()]) {
		assert.ok(!text.includes('very-secret'), text);
	}
});

test('requests: qualified kind, filters, paging and the key header exactly as the real server expects', async (t) => {
	const seen: Array<{method: string; url: string; headers: IncomingHttpHeaders; body: string}> = [];
	const server = createServer((request, response) => {
		let body = '';
		request.on('data', (chunk) => (body += chunk));
		request.on('end', () => {
			seen.push({method: request.method ?? '', url: request.url ?? '', headers: request.headers, body});
			response.setHeader('content-type', 'application/json');
			const url = new URL(request.url ?? '/', 'http://x');
			if (url.pathname.endsWith('/events/search')) {
				// The same cursor forever: the client must notice and stop.
				const item = {kind: 'PauseEvent', id: `p-${url.searchParams.get('page_id') ?? 0}`, timestamp: '2025-01-01T00:00:00', source: 'user'};
				response.end(JSON.stringify({items: [item], next_page_id: 'again'}));
			} else if (url.pathname.endsWith('/events/count')) response.end('7');
			else response.end('{"success":true}');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
	const port = (server.address() as AddressInfo).port;
	const client = AgentClient.fromConversation(
		{id: 'abc', conversation_url: `http://127.0.0.1:${port}/runtime/9/api/conversations/abc`, session_api_key: new Secret('sk-key')},
		'http://unused.example',
		{dispatcher: testDispatcher(t), maxRetries: 0},
	);

	await client.searchEvents({kind: 'ActionEvent', source: 'agent', body: 'Hello', sortOrder: 'TIMESTAMP_DESC', timestampGte: '2025-01-01T00:00:00.5', timestampLt: '2025-01-02T00:00:00', limit: 5, pageId: 'p1'});
	const search = new URL(seen[0]!.url, 'http://x');
	assert.equal(search.pathname, '/runtime/9/api/conversations/abc/events/search');
	assert.equal(search.searchParams.get('kind'), 'openhands.sdk.event.llm_convertible.action.ActionEvent');
	assert.equal(search.searchParams.get('source'), 'agent');
	assert.equal(search.searchParams.get('body'), 'Hello');
	assert.equal(search.searchParams.get('sort_order'), 'TIMESTAMP_DESC');
	assert.equal(search.searchParams.get('timestamp__gte'), '2025-01-01T00:00:00.5');
	assert.equal(search.searchParams.get('timestamp__lt'), '2025-01-02T00:00:00');
	assert.equal(search.searchParams.get('limit'), '5');
	assert.equal(search.searchParams.get('page_id'), 'p1');
	assert.equal(seen[0]!.headers['x-session-api-key'], 'sk-key');
	assert.ok(!seen[0]!.url.includes('sk-key'), 'the key is never in the URL');

	assert.equal(await client.countEvents({kind: 'openhands.sdk.event.user_action.PauseEvent'}), 7);
	assert.equal(new URL(seen[1]!.url, 'http://x').searchParams.get('kind'), 'openhands.sdk.event.user_action.PauseEvent');

	await client.sendMessage('hi there');
	assert.deepEqual(JSON.parse(seen[2]!.body), {role: 'user', content: [{type: 'text', text: 'hi there'}], run: true});
	await client.sendMessage('later', {run: false});
	assert.equal(JSON.parse(seen[3]!.body).run, false);
	await client.respondToConfirmation(false, 'not now');
	assert.deepEqual(JSON.parse(seen[4]!.body), {accept: false, reason: 'not now'});
	await client.pause();
	assert.equal(seen[5]!.method, 'POST');
	assert.ok(seen[5]!.url.endsWith('/api/conversations/abc/pause'));

	await assert.rejects(() => client.searchEvents({limit: 101}), RangeError);
	await assert.rejects(() => client.searchEvents({limit: 0}), RangeError);

	const collected: string[] = [];
	await assert.rejects(async () => {
		for await (const event of client.allEvents()) collected.push(event.id);
	}, ProtocolError);
	assert.deepEqual(collected, ['p-0', 'p-again'], 'a repeating cursor is followed once, then refused');
});

test('agent server round-trips: info, search (short kind, source, body, desc), paging past 100, count', async (t) => {
	const sim = await startSim(t);
	const {conversation, client} = await clientFor(t, sim, 'long-runner');
	// Grow the history well past one page.
	while (sim.world.events(conversation).length < 250) sim.step(1);
	const all = sim.world.events(conversation);

	const info = await client.getInfo();
	assert.equal(info.id, dashedId(conversation.id));
	assert.equal(info.execution_status, 'running');

	const actions = await client.searchEvents({kind: 'ActionEvent'});
	const expectedActions = all.filter((event) => event.kind === 'ActionEvent').map((event) => event.id);
	assert.ok(expectedActions.length > 10);
	assert.deepEqual(actions.events.map((event) => event.id), expectedActions.slice(0, 100));
	assert.ok(actions.events.every((event) => event.kind === 'ActionEvent'));
	assert.deepEqual(actions.invalid, []);

	const fromUser = await client.searchEvents({source: 'user'});
	assert.ok(fromUser.events.length >= 1);
	assert.ok(fromUser.events.every((event) => event.source === 'user'));

	const message = sim.world.sendMessage(conversation, 'Please also check the Zebra partition', false);
	const byBody = await client.searchEvents({body: 'zebra PARTITION'});
	assert.deepEqual(byBody.events.map((event) => event.id), [message.id]);

	const ascending = await client.searchEvents({limit: 100});
	const descending = await client.searchEvents({sortOrder: 'TIMESTAMP_DESC', limit: 100});
	const ids = serverIds(sim, conversation);
	assert.deepEqual(ascending.events.map((event) => event.id), ids.slice(0, 100));
	assert.deepEqual(descending.events.map((event) => event.id), ids.slice(-100).reverse());
	assert.ok(ascending.nextPageId, 'more than one page');

	const paged: string[] = [];
	for await (const event of client.allEvents()) paged.push(event.id);
	assert.deepEqual(paged, ids, 'every page, in order, nothing twice');

	const since = all[200]!;
	const tail: string[] = [];
	for await (const event of client.allEvents({timestampGte: since.timestamp, limit: 7})) tail.push(event.id);
	assert.deepEqual(tail, ids.slice(200));

	assert.equal(await client.countEvents(), ids.length);
	assert.equal(await client.countEvents({kind: 'ActionEvent'}), expectedActions.length);
});

test('agent server actions: pause, run (409 when already running), send message with run:true', async (t) => {
	const sim = await startSim(t);
	const {conversation, client} = await clientFor(t, sim, 'long-runner');

	await client.pause();
	assert.equal(conversation.executionStatus, 'paused');
	assert.equal(sim.world.events(conversation).at(-2)?.kind, 'PauseEvent');

	await client.run();
	assert.equal(conversation.executionStatus, 'running');
	await assert.rejects(
		() => client.run(),
		(error: unknown) => error instanceof RequestRefusedError && error.status === 409 && /already running/i.test(error.message),
	);

	const quiet = await clientFor(t, sim, 'legacy');
	assert.equal(quiet.conversation.executionStatus, 'finished');
	await quiet.client.sendMessage('Add a changelog entry too.', {run: false});
	assert.equal(quiet.conversation.executionStatus, 'finished', 'run:false leaves the agent alone');
	await quiet.client.sendMessage('Now please start.');
	assert.equal(quiet.conversation.executionStatus, 'running', 'run defaults to true here');
	const texts = sim.world
		.events(quiet.conversation)
		.filter((event) => event.kind === 'MessageEvent' && event.source === 'user')
		.map((event) => (event.llm_message as {content: Array<{text: string}>}).content[0]!.text);
	assert.deepEqual(texts.slice(-2), ['Add a changelog entry too.', 'Now please start.']);
});

test('respond_to_confirmation: accept runs the pending action', async (t) => {
	const sim = await startSim(t);
	const {conversation, client} = await clientFor(t, sim, 'confirmation');
	assert.equal(conversation.executionStatus, 'waiting_for_confirmation');
	const before = sim.world.events(conversation).length;
	await client.respondToConfirmation(true);
	assert.equal(conversation.executionStatus, 'running');
	const added = sim.world.events(conversation).slice(before);
	assert.ok(added.some((event) => event.kind === 'ObservationEvent'));
});

test('respond_to_confirmation: reject records the reason and leaves the agent idle', async (t) => {
	const sim = await startSim(t);
	const {conversation, client} = await clientFor(t, sim, 'confirmation');
	await client.respondToConfirmation(false, 'Not on a release branch');
	assert.equal(conversation.executionStatus, 'idle');
	const rejection = sim.world.events(conversation).find((event) => event.kind === 'UserRejectObservation');
	assert.equal(rejection?.rejection_reason, 'Not on a release branch');
	const page = await client.searchEvents({kind: 'UserRejectObservation'});
	assert.equal(page.events.length, 1);
});

test('agent server errors: a wrong key is KeyRejectedError, an unknown conversation NotFoundError', async (t) => {
	const sim = await startSim(t);
	const {row} = await clientFor(t, sim, 'coding');
	const wrongKey = AgentClient.fromConversation({...row, session_api_key: new Secret('sk-wrong')}, sim.baseUrl, {dispatcher: testDispatcher(t), maxRetries: 0});
	await assert.rejects(() => wrongKey.getInfo(), KeyRejectedError);
	const unknown = new AgentClient({
		baseUrl: agentBaseUrl(row.conversation_url!, sim.baseUrl),
		conversationId: '0123456789abcdef0123456789abcdef',
		sessionApiKey: row.session_api_key ?? null,
		dispatcher: testDispatcher(t),
		maxRetries: 0,
	});
	await assert.rejects(() => unknown.getInfo(), NotFoundError);
	await assert.rejects(() => unknown.searchEvents(), NotFoundError);
	// The real server answers 400 for pausing an unknown conversation.
	await assert.rejects(() => unknown.pause(), (error: unknown) => error instanceof RequestRefusedError && error.status === 400);
});

test('allEvents yields an event once when the log grew between two pages and it came on both', async (t) => {
	// Offset pages of a growing log: the newest event of page one is pushed onto page two.
	const event = (n: number) => ({kind: 'PauseEvent', id: `e${n}`, timestamp: `2025-01-01T00:00:0${n}`, source: 'user'});
	const pages: Record<string, unknown> = {
		first: {items: [event(1), event(2), event(3)], next_page_id: '3'},
		'3': {items: [event(3), event(4)], next_page_id: null},
	};
	const server = createServer((request, response) => {
		const url = new URL(request.url ?? '/', 'http://x');
		response.setHeader('content-type', 'application/json');
		response.end(JSON.stringify(pages[url.searchParams.get('page_id') ?? 'first']));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
	const port = (server.address() as AddressInfo).port;
	const client = AgentClient.fromConversation({id: 'abc', conversation_url: `http://127.0.0.1:${port}/api/conversations/abc`}, 'http://unused.example', {dispatcher: testDispatcher(t), maxRetries: 0});
	const ids: string[] = [];
	for await (const item of client.allEvents()) ids.push(item.id);
	assert.deepEqual(ids, ['e1', 'e2', 'e3', 'e4']);
});

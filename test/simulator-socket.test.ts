import assert from 'node:assert/strict';
import {test} from 'node:test';
import {dashedId} from '../source/wire/ids.js';
import {agent, appConversations, openSocket, opened, seeded, socketUrl, startTestSimulator, waitUntil, type Json} from './helpers/sim-harness.js';

const live = (frames: Json[]) => frames.filter((frame) => frame.key !== 'full_state');

test('socket auth: first-frame auth, 4001 for a wrong key or frame, 4004 for an unknown conversation', async (t) => {
	const sim = await startTestSimulator(t);
	const {row} = await seeded(sim, 'coding');

	const byFrame = openSocket(socketUrl(row));
	await opened(byFrame.ws);
	byFrame.ws.send(JSON.stringify({type: 'auth', session_api_key: row.session_api_key}));
	await byFrame.waitFor((frames) => frames.length >= 1);
	assert.equal(byFrame.frames[0].kind, 'ConversationStateUpdateEvent');
	assert.equal(byFrame.frames[0].key, 'full_state');
	assert.equal(byFrame.frames[0].value.execution_status, 'running');
	assert.ok(byFrame.frames[0].value.stats.usage_to_metrics.agent);
	byFrame.ws.close();

	const wrongQuery = openSocket(socketUrl(row, row.id, 'session_api_key=nope'));
	assert.equal((await wrongQuery.closed).code, 4001);
	const wrongHeader = openSocket(socketUrl(row), {headers: {'X-Session-API-Key': 'nope'}});
	assert.equal((await wrongHeader.closed).code, 4001);
	const wrongFrame = openSocket(socketUrl(row));
	await opened(wrongFrame.ws);
	wrongFrame.ws.send(JSON.stringify({type: 'auth', session_api_key: 'nope'}));
	assert.equal((await wrongFrame.closed).code, 4001);
	const notAuth = openSocket(socketUrl(row));
	await opened(notAuth.ws);
	notAuth.ws.send(JSON.stringify({role: 'user', content: [{type: 'text', text: 'hi'}]}));
	assert.equal((await notAuth.closed).code, 4001);

	const unknown = openSocket(socketUrl(row, '0123456789abcdef0123456789abcdef', `session_api_key=${row.session_api_key}`));
	assert.equal((await unknown.closed).code, 4004);
	const elsewhere = (await seeded(sim, 'legacy')).row;
	const otherSandbox = openSocket(socketUrl(row, elsewhere.id), {headers: {'X-Session-API-Key': row.session_api_key}});
	assert.equal((await otherSandbox.closed).code, 4004, 'a conversation of another sandbox is not found here');
});

test('replay: resend_mode=all, the resend_all alias, and since=<timestamp>; then live events', async (t) => {
	const sim = await startTestSimulator(t);
	const {conversation, row} = await seeded(sim, 'long-runner');
	const history = sim.world.events(conversation).map((event) => event.id);
	const headers = {'X-Session-API-Key': row.session_api_key};

	const all = openSocket(socketUrl(row, dashedId(row.id), 'resend_mode=all'), {headers});
	await all.waitFor((frames) => frames.length >= history.length + 1);
	assert.equal(all.frames[0].key, 'full_state', 'full_state is always first');
	assert.deepEqual(live(all.frames).map((frame) => frame.id), history);

	const alias = openSocket(socketUrl(row, row.id, 'resend_all=true'), {headers});
	await alias.waitFor((frames) => frames.length >= history.length + 1);

	const middle = sim.world.events(conversation)[Math.floor(history.length / 2)]!;
	const since = openSocket(socketUrl(row, row.id, `resend_mode=since&after_timestamp=${encodeURIComponent(middle.timestamp)}`), {headers});
	const expected = history.slice(history.indexOf(middle.id));
	await since.waitFor((frames) => frames.length >= expected.length + 1);
	assert.deepEqual(live(since.frames).map((frame) => frame.id), expected);

	const plain = openSocket(socketUrl(row), {headers});
	await plain.waitFor((frames) => frames.length === 1);
	sim.step(1);
	const added = sim.world.events(conversation).slice(history.length).map((event) => event.id);
	assert.ok(added.length > 0);
	// Frames come in order on one socket: once the new events are in, a replay would have come first.
	await plain.waitFor((frames) => frames.some((frame) => frame.id === added.at(-1)));
	assert.deepEqual(live(plain.frames).map((frame) => frame.id), added, 'the new events and no replay without resend_mode');
	await all.waitFor((frames) => live(frames).length >= history.length + added.length);
	for (const probe of [all, alias, since, plain]) probe.ws.close();
});

test('client frames: a Message runs the agent; a bad frame gets ServerErrorEvent and the socket stays open', async (t) => {
	const sim = await startTestSimulator(t);
	const {conversation, row} = await seeded(sim, 'legacy');
	assert.equal(conversation.executionStatus, 'finished');
	const probe = openSocket(socketUrl(row), {headers: {'X-Session-API-Key': row.session_api_key}});
	await probe.waitFor((frames) => frames.length === 1);
	probe.ws.send('{not json');
	await probe.waitFor((frames) => frames.some((frame) => frame.kind === 'ServerErrorEvent'));
	const error = probe.frames.find((frame) => frame.kind === 'ServerErrorEvent');
	assert.equal(typeof error.code, 'string');
	assert.equal(typeof error.detail, 'string');
	probe.ws.send(JSON.stringify({hello: 'world'}));
	await probe.waitFor((frames) => frames.filter((frame) => frame.kind === 'ServerErrorEvent').length === 2);
	probe.ws.send(JSON.stringify({role: 'user', content: [{type: 'text', text: 'Also pin django-debug-toolbar to 4.4.'}]}));
	await probe.waitFor((frames) => frames.some((frame) => frame.kind === 'MessageEvent' && frame.source === 'user'));
	await probe.waitFor((frames) => frames.some((frame) => frame.key === 'execution_status' && frame.value === 'running'));
	sim.step(10);
	await probe.waitFor((frames) => frames.some((frame) => frame.key === 'execution_status' && frame.value === 'finished'));
	assert.equal(probe.ws.readyState, probe.ws.OPEN);
	probe.ws.close();
});

test('faults: dropSockets, malformed frames, invalid UTF-8, silent sockets', async (t) => {
	const sim = await startTestSimulator(t);
	const {conversation, row} = await seeded(sim, 'long-runner');
	const headers = {'X-Session-API-Key': row.session_api_key};

	const dropped = openSocket(socketUrl(row), {headers});
	await dropped.waitFor((frames) => frames.length === 1);
	sim.faults.dropSockets();
	assert.equal((await dropped.closed).code, 1006, 'cut without a close frame');

	const malformed = openSocket(socketUrl(row), {headers});
	await malformed.waitFor((frames) => frames.length === 1);
	sim.faults.malformedFrames(1);
	sim.step(2);
	await waitUntil(() => malformed.raw.length >= 3);
	assert.throws(() => JSON.parse(malformed.raw[1]!));
	assert.doesNotThrow(() => JSON.parse(malformed.raw.at(-1)!));
	assert.equal(malformed.ws.readyState, malformed.ws.OPEN);
	malformed.ws.close();

	const invalid = openSocket(socketUrl(row), {headers});
	await invalid.waitFor((frames) => frames.length === 1);
	sim.faults.invalidUtf8Frames(1);
	sim.step(1);
	const closed = await invalid.closed;
	// The client fails the frame (WS_ERR_INVALID_UTF8) and the socket ends; ws reports 1006 or 1007.
	assert.ok([1006, 1007].includes(closed.code), `closed with ${closed.code}`);
	assert.match(String(invalid.errors[0]?.message), /UTF-8/i);

	const silent = openSocket(socketUrl(row), {headers});
	await silent.waitFor((frames) => frames.length === 1);
	sim.faults.silentSockets(true);
	let pongs = 0;
	silent.ws.on('pong', () => pongs++);
	silent.ws.ping();
	const before = sim.world.events(conversation).length;
	sim.step(2);
	const unsent = sim.world.events(conversation).slice(before).map((event) => event.id);
	assert.ok(unsent.length > 0);
	await waitUntil(() => sim.unansweredPings() === 1, 5000, 'the ping to reach the silent simulator');
	sim.faults.silentSockets(false);
	silent.ws.ping();
	const after = sim.world.events(conversation).length;
	sim.step(1);
	const sent = sim.world.events(conversation).slice(after).map((event) => event.id);
	assert.ok(sent.length > 0);
	// In order on one socket: what was sent while silent would have come before these.
	await waitUntil(() => pongs >= 1 && silent.frames.some((frame) => frame.id === sent.at(-1)), 5000, 'the pong and the events after the silence');
	assert.deepEqual(live(silent.frames).map((frame) => frame.id), sent, 'nothing of the silence was sent');
	assert.equal(pongs, 1, 'the ping during the silence went unanswered');
	silent.ws.close();
});

test('restart() closes every socket and listens again on the same port with the same world', async (t) => {
	const sim = await startTestSimulator(t);
	const {conversation, row} = await seeded(sim, 'long-runner');
	const headers = {'X-Session-API-Key': row.session_api_key};
	const before = openSocket(socketUrl(row), {headers});
	await before.waitFor((frames) => frames.length === 1);
	const count = sim.world.events(conversation).length;
	await sim.restart();
	assert.ok([1005, 1006].includes((await before.closed).code));
	sim.step(1);
	const after = openSocket(socketUrl(row, row.id, 'resend_mode=all'), {headers});
	const total = sim.world.events(conversation).length;
	assert.ok(total > count);
	await after.waitFor((frames) => frames.length === total + 1);
	const [again] = await appConversations(sim, [row.id]);
	assert.equal(again.conversation_url, row.conversation_url);
	assert.equal((await agent(row, `/api/conversations/${row.id}/events/count`)).body, total);
	after.ws.close();
});

test('pausing the sandbox closes its sockets; a paused runtime refuses the handshake', async (t) => {
	const sim = await startTestSimulator(t, {sandboxTransitionMs: 5});
	const {row} = await seeded(sim, 'coding');
	const probe = openSocket(socketUrl(row), {headers: {'X-Session-API-Key': row.session_api_key}});
	await probe.waitFor((frames) => frames.length === 1);
	await fetch(`${sim.baseUrl}/api/v1/sandboxes/${row.sandbox_id}/pause`, {method: 'POST', headers: {authorization: `Bearer ${sim.apiKey}`}});
	assert.equal((await probe.closed).code, 1001);
	const refused = openSocket(socketUrl(row), {headers: {'X-Session-API-Key': row.session_api_key}});
	const status = await new Promise<number>((resolve) => refused.ws.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0)));
	assert.equal(status, 503);
});

test('a client that resets its connection while its upgrade is refused does not take the simulator down', async (t) => {
	const sim = await startTestSimulator(t);
	const {connect} = await import('node:net');
	const {port} = new URL(sim.baseUrl);
	// Refused: no such runtime (404), after the server has read the request. Reset at once, so
	// the refusal is written to a connection the peer already tore down: on an unguarded socket
	// that surfaces as an 'error' nobody listens to, an uncaught exception in this process.
	for (let attempt = 0; attempt < 40; attempt++) {
		const socket = connect(Number(port), '127.0.0.1');
		socket.on('error', () => undefined);
		await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
		socket.write(`GET /runtime/9999/sockets/events/x HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: ${Buffer.from('0123456789abcdef').toString('base64')}\r\n\r\n`);
		await new Promise((resolve) => setTimeout(resolve, attempt % 3));
		socket.resetAndDestroy();
	}
	// Each refusal was written (to a connection already torn down, often); the simulator still serves.
	await waitUntil(() => sim.stats.byRoute['GET /runtime/:n/sockets/events/:id'] === 40, 5000, 'the 40 handshakes read');
	const response = await fetch(`${sim.baseUrl}/api/v1/app-conversations/search?limit=1`, {headers: {Authorization: `Bearer ${sim.apiKey}`}});
	assert.equal(response.status, 200);
});

import assert from 'node:assert/strict';
import {createServer as createHttpServer} from 'node:http';
import {createServer as createNetServer, type AddressInfo, type Socket} from 'node:net';
import {test, type TestContext} from 'node:test';
import {WebSocketServer, type WebSocket as ServerSocket} from 'ws';
import {EventSocket, type EventSocketOptions, type SocketEnd, type SocketProblem} from '../source/wire/event-socket.js';
import {settleEvent, type WireEvent} from '../source/wire/schemas/events.js';
import {Secret} from '../source/wire/secret.js';
import {clientFor, startSim, waitUntil} from './wire-agent-fixtures.js';

type Probe = {
	socket: EventSocket;
	events: WireEvent[];
	problems: SocketProblem[];
	ready: () => boolean;
	/** The socket has ended (read at once, where awaiting `ended` would wait). */
	isEnded: () => boolean;
	ended: Promise<SocketEnd>;
};

function probe(options: Omit<EventSocketOptions, 'handlers'>): Probe {
	const events: WireEvent[] = [];
	const problems: SocketProblem[] = [];
	let isReady = false;
	let isEnded = false;
	let resolveEnd!: (end: SocketEnd) => void;
	const ended = new Promise<SocketEnd>((resolve) => (resolveEnd = resolve));
	const socket = new EventSocket({
		...options,
		handlers: {
			onReady: () => (isReady = true),
			onEvent: (event) => events.push(settleEvent(event)),
			onProblem: (problem) => problems.push(problem),
			onEnd: (end) => {
				isEnded = true;
				resolveEnd(end);
			},
		},
	});
	return {socket, events, problems, ready: () => isReady, isEnded: () => isEnded, ended};
}

/** A purpose-built ws server, for the faults the simulator does not make. */
async function tinyServer(t: TestContext, onConnection: (ws: ServerSocket, url: string) => void, options: {autoPong?: boolean} = {}): Promise<string> {
	const server = new WebSocketServer({port: 0, host: '127.0.0.1', autoPong: options.autoPong ?? true});
	server.on('connection', (ws, request) => onConnection(ws, request.url ?? ''));
	await new Promise<void>((resolve) => server.once('listening', () => resolve()));
	t.after(async () => {
		for (const client of server.clients) client.terminate();
		await new Promise<void>((resolve) => server.close(() => resolve()));
	});
	return `ws://127.0.0.1:${(server.address() as AddressInfo).port}/runtime/1/sockets/events/abc`;
}

const event = (id: string, timestamp = '2025-01-01T00:00:00.000001') => JSON.stringify({kind: 'PauseEvent', id, timestamp, source: 'user'});

test('simulator: the key goes in a first auth frame; full_state first, then the replay since a timestamp, then live events', async (t) => {
	const sim = await startSim(t);
	const {conversation, client} = await clientFor(t, sim, 'long-runner');
	const history = sim.world.events(conversation);
	const middle = history[Math.floor(history.length / 2)]!;
	const socket = probe({url: client.socketUrl(), sessionApiKey: client.sessionApiKey, resend: {mode: 'since', afterTimestamp: middle.timestamp}});
	t.after(() => socket.socket.close());
	const expected = history.slice(history.indexOf(middle)).map((entry) => entry.id);
	await waitUntil(() => socket.events.length >= expected.length + 1, 3000, 'the replay');
	assert.ok(socket.ready());
	const first = socket.events[0]!;
	assert.equal(first.kind, 'ConversationStateUpdateEvent');
	assert.equal(first.kind === 'ConversationStateUpdateEvent' && first.key, 'full_state');
	assert.deepEqual(socket.events.slice(1).map((entry) => entry.id), expected);
	const before = sim.world.events(conversation).length;
	sim.step(2);
	const added = sim.world.events(conversation).slice(before).map((entry) => entry.id);
	await waitUntil(() => socket.events.length >= expected.length + 1 + added.length, 3000, 'live events');
	assert.deepEqual(socket.events.slice(-added.length).map((entry) => entry.id), added);
	assert.deepEqual(socket.problems, []);
	await socket.socket.close();
	const end = await socket.ended;
	assert.equal(end.kind, 'client-closed');
	assert.equal(end.wasReady, true);
});

test('simulator: a wrong key ends with a fatal 4001, an unknown conversation with a fatal 4004', async (t) => {
	const sim = await startSim(t);
	const {client} = await clientFor(t, sim, 'coding');
	const wrong = probe({url: client.socketUrl(), sessionApiKey: new Secret('sk-oh-wrong-key')});
	const wrongEnd = await wrong.ended;
	assert.equal(wrongEnd.kind, 'auth-rejected');
	assert.equal(wrongEnd.fatal, true);
	assert.equal(wrongEnd.code, 4001);
	assert.ok(!wrongEnd.message.includes('wrong-key'), 'the key is not in the message');

	const unknownUrl = client.socketUrl().replace(/[^/]+$/, '0123456789abcdef0123456789abcdef');
	const unknown = probe({url: unknownUrl, sessionApiKey: client.sessionApiKey});
	const unknownEnd = await unknown.ended;
	assert.equal(unknownEnd.kind, 'not-found');
	assert.equal(unknownEnd.fatal, true);
	assert.equal(unknownEnd.code, 4004);
});

test('the URL carries resend_mode and after_timestamp, never the key; the first frame is the auth frame', async (t) => {
	const received: {url: string; first: string}[] = [];
	const url = await tinyServer(t, (ws, requestUrl) => {
		ws.once('message', (data) => {
			received.push({url: requestUrl, first: String(data)});
			ws.send(event('x'));
		});
	});
	const since = probe({url, sessionApiKey: new Secret('sk-top-secret'), resend: {mode: 'since', afterTimestamp: '2025-11-22T12:00:00.123456'}});
	t.after(() => since.socket.close());
	await waitUntil(() => since.events.length === 1);
	const query = new URL(received[0]!.url, 'ws://x').searchParams;
	assert.equal(query.get('resend_mode'), 'since');
	assert.equal(query.get('after_timestamp'), '2025-11-22T12:00:00.123456');
	assert.ok(!received[0]!.url.includes('top-secret'));
	assert.deepEqual(JSON.parse(received[0]!.first), {type: 'auth', session_api_key: 'sk-top-secret'});

	const all = probe({url, sessionApiKey: new Secret('k'), resend: {mode: 'all'}});
	t.after(() => all.socket.close());
	await waitUntil(() => all.events.length === 1);
	assert.equal(new URL(received[1]!.url, 'ws://x').searchParams.get('resend_mode'), 'all');
	assert.equal(new URL(received[1]!.url, 'ws://x').searchParams.get('after_timestamp'), null);
});

test('a malformed frame is reported once and the socket stays open', async (t) => {
	const url = await tinyServer(t, (ws) => {
		ws.once('message', () => {
			ws.send(event('a'));
			ws.send('{"kind": "PauseEvent", "id": "trunc');
			ws.send('[1, 2]');
			ws.send(Buffer.from([1, 2, 3]), {binary: true});
			ws.send(event('b'));
		});
	});
	const socket = probe({url, sessionApiKey: new Secret('k')});
	t.after(() => socket.socket.close());
	await waitUntil(() => socket.events.length === 2);
	assert.deepEqual(socket.events.map((entry) => entry.id), ['a', 'b']);
	assert.deepEqual(socket.problems.map((problem) => problem.kind), ['malformed-frame', 'malformed-frame', 'malformed-frame']);
	assert.ok(socket.problems.every((problem) => !problem.message.includes('trunc')), 'server text is not echoed');
	// Frames are read in order: with 'b', the last one sent, in, the three problems are all there are.
	assert.equal(socket.isEnded(), false, 'still open');
});

test('invalid UTF-8 ends the connection at once (terminate, not the 30 s close timeout)', async (t) => {
	const url = await tinyServer(t, (ws) => {
		ws.once('message', () => ws.send(Buffer.from([0x7b, 0xc3, 0x28, 0x7d]), {binary: false}));
	});
	// Timers fire in the order they are due: one at half the 30 s close timeout must not come first.
	let late = false;
	const half = setTimeout(() => (late = true), 15_000);
	const socket = probe({url, sessionApiKey: new Secret('k')});
	const end = await socket.ended;
	clearTimeout(half);
	assert.equal(end.kind, 'invalid-utf8');
	assert.equal(end.fatal, false);
	assert.equal(late, false, 'ended before half the close timeout');
});

test('a frame over maxPayload ends the connection as oversized-frame', async (t) => {
	const url = await tinyServer(t, (ws) => {
		ws.once('message', () => ws.send(JSON.stringify({kind: 'PauseEvent', id: 'big', timestamp: 't', source: 'user', pad: 'x'.repeat(10_000)})));
	});
	const socket = probe({url, sessionApiKey: new Secret('k'), maxPayloadBytes: 4096});
	const end = await socket.ended;
	assert.equal(end.kind, 'oversized-frame');
	assert.equal(end.fatal, false);
	assert.equal(socket.events.length, 0);
});

test('heartbeat: a socket that stops answering pings is terminated within interval + grace', async (t) => {
	// The server speaks once, then neither sends nor answers pings.
	let pings = 0;
	const url = await tinyServer(
		t,
		(ws) => {
			ws.on('ping', () => pings++);
			ws.once('message', () => ws.send(event('only')));
		},
		{autoPong: false},
	);
	const socket = probe({url, sessionApiKey: new Secret('k'), heartbeatIntervalMs: 80, heartbeatGraceMs: 80});
	await waitUntil(() => socket.events.length === 1);
	const quietSince = Date.now();
	const end = await socket.ended;
	const waited = Date.now() - quietSince;
	assert.equal(end.kind, 'heartbeat-timeout');
	assert.equal(end.wasReady, true);
	// Not before interval + grace (a lower bound holds however loaded the machine), and by then at
	// most the two pings of that quiet went out (counted, not timed): not a ping too many.
	assert.ok(waited >= 150, `detected after ${waited} ms`);
	await waitUntil(() => pings >= 1, 5000, 'the unanswered ping');
	assert.ok(pings <= 2, `${pings} pings before it was given up`);
});

test('heartbeat: pongs keep a quiet socket open', async (t) => {
	let pings = 0;
	const url = await tinyServer(t, (ws) => {
		ws.on('ping', () => pings++);
		ws.once('message', () => ws.send(event('only')));
	});
	// A pong may come late on a busy machine (the server runs in this process): 300 ms of grace, not
	// 30. Thirty pings, each answered, span about three times interval + grace of nothing but
	// pongs: without pongs resetting the deadline the socket would end before the tenth.
	const socket = probe({url, sessionApiKey: new Secret('k'), heartbeatIntervalMs: 30, heartbeatGraceMs: 300});
	t.after(() => socket.socket.close());
	await waitUntil(() => socket.events.length === 1);
	await waitUntil(() => pings >= 30 || socket.isEnded(), 10_000, 'thirty answered pings');
	assert.equal(socket.isEnded(), false, 'still open');
});

test('a server that accepts but never speaks is given up on (first-frame timeout)', async (t) => {
	const url = await tinyServer(t, () => {});
	const socket = probe({url, sessionApiKey: new Secret('k'), firstFrameTimeoutMs: 100});
	const end = await socket.ended;
	assert.equal(end.kind, 'handshake-timeout');
	assert.equal(end.wasReady, false);
});

test('a peer that accepts TCP but never answers the handshake times out', async (t) => {
	const sockets: Socket[] = [];
	const server = createNetServer((socket) => sockets.push(socket));
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	t.after(async () => {
		for (const socket of sockets) socket.destroy();
		await new Promise<void>((resolve) => server.close(() => resolve()));
	});
	// Its 150 ms, not the 10 s default: a timer at half the default must not fire first.
	let late = false;
	const half = setTimeout(() => (late = true), 5000);
	const socket = probe({url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/sockets/events/x`, sessionApiKey: null, handshakeTimeoutMs: 150});
	const end = await socket.ended;
	clearTimeout(half);
	assert.equal(end.kind, 'handshake-timeout');
	assert.equal(late, false, 'ended at its own handshake timeout');
});

test('an HTTP refusal of the upgrade: 401 is fatal, 503 is not', async (t) => {
	let status = 401;
	const server = createHttpServer((_request, response) => response.end());
	server.on('upgrade', (_request, socket) => {
		socket.end(`HTTP/1.1 ${status} Nope\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
	const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/sockets/events/x`;
	const refused = await probe({url, sessionApiKey: new Secret('k')}).ended;
	assert.deepEqual([refused.kind, refused.fatal, refused.httpStatus], ['auth-rejected', true, 401]);
	status = 503;
	const busy = await probe({url, sessionApiKey: new Secret('k')}).ended;
	assert.deepEqual([busy.kind, busy.fatal, busy.httpStatus], ['http-error', false, 503]);
	status = 404;
	const missing = await probe({url, sessionApiKey: new Secret('k')}).ended;
	assert.deepEqual([missing.kind, missing.fatal], ['not-found', true]);
});

test('connection refused is a non-fatal network error', async () => {
	const server = createNetServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const port = (server.address() as AddressInfo).port;
	await new Promise<void>((resolve) => server.close(() => resolve()));
	const end = await probe({url: `ws://127.0.0.1:${port}/sockets/events/x`, sessionApiKey: null}).ended;
	assert.equal(end.kind, 'network-error');
	assert.equal(end.fatal, false);
	assert.match(end.message, /connection refused/);
});

test('close 1013 says busy or credential activation, never only "busy"; it is retried (not fatal)', async (t) => {
	let reason = '';
	const url = await tinyServer(t, (ws) => ws.close(1013, reason));
	const bare = await probe({url, sessionApiKey: new Secret('k')}).ended;
	assert.deepEqual([bare.code, bare.fatal], [1013, false]);
	assert.match(bare.message, /busy/);
	assert.match(bare.message, /credential/, 'without a reason both meanings are named');
	reason = 'credential_binding_activation_required';
	const credential = await probe({url, sessionApiKey: new Secret('k')}).ended;
	assert.equal(credential.fatal, false);
	assert.match(credential.message, /credential to be activated/);
	assert.doesNotMatch(credential.message, /busy/, 'a credential wait is not a busy server');
	reason = 'Too many subscribers';
	const busy = await probe({url, sessionApiKey: new Secret('k')}).ended;
	assert.match(busy.message, /Too many subscribers/);
});

test('closed or cut before ws has opened it, a socket never connects and ends once as closed by the client', async (t) => {
	let connections = 0;
	const url = await tinyServer(t, (ws) => {
		connections++;
		ws.send(event('e1'));
	});
	for (const end of ['close', 'terminate'] as const) {
		const early = probe({url, sessionApiKey: null});
		// At once, in the same turn as the constructor: the socket opens only after ws is loaded.
		const closed = end === 'close' ? early.socket.close() : early.socket.terminate();
		const ended = await early.ended;
		await closed;
		assert.equal(ended.kind, 'client-closed', end);
		assert.equal(ended.wasReady, false);
	}
	// The positive half: the same server, a socket left open, connects and reads.
	const open = probe({url, sessionApiKey: null});
	t.after(() => open.socket.close());
	await waitUntil(() => open.events.length === 1, 3000, 'the event');
	assert.equal(connections, 1, 'only the socket left open connected');
});

test('close() on an open socket sends a close frame (1000, "client closed"), not a cut', async (t) => {
	let closed: {code: number; reason: string} | undefined;
	const url = await tinyServer(t, (ws) => {
		ws.once('message', () => ws.send(event('only')));
		ws.on('close', (code, reason) => (closed = {code, reason: reason.toString()}));
	});
	const socket = probe({url, sessionApiKey: new Secret('k')});
	await waitUntil(() => socket.events.length === 1);
	await socket.socket.close();
	await waitUntil(() => closed !== undefined, 10_000, 'the server to see the close');
	// A cut (terminate) reaches the server as 1006 with no reason.
	assert.deepEqual(closed, {code: 1000, reason: 'client closed'});
});

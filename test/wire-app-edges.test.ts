import {after, test, type TestContext} from 'node:test';
import assert from 'node:assert/strict';
import http, {type IncomingHttpHeaders, type IncomingMessage, type ServerResponse} from 'node:http';
import type {AddressInfo} from 'node:net';
import {inspect} from 'node:util';
import {AppClient, type AppClientOptions} from '../source/wire/app-client.js';
import {
	ApiError,
	KeyRejectedError,
	NotApiError,
	NotFoundError,
	OutcomeUnknownError,
	ProtocolError,
	RateLimitedError,
	ServerError,
	TimeoutError,
	ValidationError,
} from '../source/wire/errors.js';
import {closeHttpAgent, HttpClient, type RetryInfo} from '../source/wire/http.js';
import {dashedId} from '../source/wire/ids.js';
import {createRequestFor, type CreateRequest} from '../source/wire/schemas/create-request.js';
import {Secret} from '../source/wire/secret.js';
import {eventually} from './helpers/eventually.js';
import {drain, failure} from './helpers/outcomes.js';
import {hexId} from './helpers/fixtures.js';

/**
 * Wire-level edge cases against tiny purpose-built servers: things the simulator does not do on
 * purpose (bytes split anywhere, sockets cut mid-answer, a server that echoes the key).
 */

after(() => closeHttpAgent());

type Seen = {method: string; url: URL; headers: IncomingHttpHeaders; body: string};
type Handler = (request: IncomingMessage, response: ServerResponse, seen: Seen) => void | Promise<void>;

/** A loopback server that records every request (with its body read) before the handler runs. */
async function serve(t: TestContext, handler: Handler): Promise<{baseUrl: string; requests: Seen[]}> {
	const requests: Seen[] = [];
	const server = http.createServer((request, response) => {
		const parts: Buffer[] = [];
		request.on('data', (part: Buffer) => parts.push(part));
		request.on('end', () => {
			const seen = {method: request.method ?? '', url: new URL(request.url ?? '/', 'http://x'), headers: request.headers, body: Buffer.concat(parts).toString('utf8')};
			requests.push(seen);
			Promise.resolve(handler(request, response, seen)).catch((error: unknown) => {
				response.destroy(error as Error);
			});
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	t.after(
		() =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	);
	return {baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests};
}

function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
	response.writeHead(status, {'content-type': 'application/json', ...headers});
	response.end(JSON.stringify(body));
}

const key = 'sk-test-7f3a9c1e5b2d4f6a8c0e';

function client(baseUrl: string, options: Partial<AppClientOptions> = {}): AppClient {
	return new AppClient({baseUrl, apiKey: new Secret(key), ...options});
}

const task = (status: string, extra: Record<string, unknown> = {}) => ({id: hexId(1), status, created_at: '2026-01-01T00:00:00Z', ...extra});
const tick = () => new Promise((resolve) => setImmediate(resolve));

// ---- stream-start ------------------------------------------------------------------------

test('stream-start over HTTP: a body written one byte at a time, through multi-byte characters and escapes', async (t) => {
	const snapshots = [
		task('WORKING', {detail: 'café 漢字 😀 "quoted" \\ ]}'}),
		task('WAITING_FOR_SANDBOX', {sandbox_id: 'sb-1'}),
		task('READY', {sandbox_id: 'sb-1', app_conversation_id: hexId(2)}),
	];
	const body = Buffer.from(`[\n${snapshots.map((snapshot) => JSON.stringify(snapshot)).join(',\n')}\n]`, 'utf8');
	const server = await serve(t, async (_request, response) => {
		response.writeHead(200, {'content-type': 'application/json'});
		for (const byte of body) {
			response.write(Buffer.from([byte]));
			await tick();
		}
		response.end();
	});
	const request = createRequestFor({message: 'hello', repository: 'acme/widgets'});
	const seen = await drain(client(server.baseUrl).streamStart(request));
	assert.deepEqual(
		seen.map((snapshot) => snapshot.status),
		['WORKING', 'WAITING_FOR_SANDBOX', 'READY'],
	);
	assert.equal(seen[0]?.detail, 'café 漢字 😀 "quoted" \\ ]}');
	assert.equal(seen[2]?.app_conversation_id, hexId(2));

	const [sent] = server.requests;
	assert.equal(sent?.method, 'POST');
	assert.equal(sent?.url.pathname, '/api/v1/app-conversations/stream-start');
	assert.equal(sent?.headers.authorization, `Bearer ${key}`);
	assert.match(String(sent?.headers['content-type']), /application\/json/);
	assert.deepEqual(JSON.parse(sent?.body ?? ''), request);
});

test('stream-start: an array that ends early is a ProtocolError after the snapshots that did arrive', async (t) => {
	const server = await serve(t, (_request, response) => {
		response.writeHead(200, {'content-type': 'application/json'});
		response.end(`[\n${JSON.stringify(task('WORKING'))}`);
	});
	const seen: unknown[] = [];
	const error = await failure(drain(client(server.baseUrl).streamStart(createRequestFor({message: 'x'})), seen));
	assert.equal(seen.length, 1);
	assert.ok(error instanceof ProtocolError, String(error));
	assert.match(error.message, /the start stream ended before it finished \(after 1 update\): the server may have failed; check `agent-tui conversations`/);
});

test('stream-start: a connection cut mid-element reads as a truncated stream, not a network failure; sent once', async (t) => {
	const server = await serve(t, (_request, response) => {
		response.writeHead(200, {'content-type': 'application/json'});
		response.write(`[\n${JSON.stringify(task('WORKING'))},\n${JSON.stringify(task('WAITING_FOR_SANDBOX'))},\n{"id":"${hexId(1)}","sta`);
		setTimeout(() => response.socket?.destroy(), 20);
	});
	const seen: unknown[] = [];
	const error = await failure(drain(client(server.baseUrl).streamStart(createRequestFor({message: 'x'})), seen));
	assert.equal(seen.length, 2);
	assert.ok(error instanceof ProtocolError, String(error));
	assert.match(error.message, /after 2 updates/);
	assert.equal(server.requests.length, 1);
});

test('stream-start: a malformed snapshot is a ProtocolError naming the field', async (t) => {
	const server = await serve(t, (_request, response) => {
		response.writeHead(200, {'content-type': 'application/json'});
		response.end(`[${JSON.stringify(task('WORKING'))},{"id":"${hexId(1)}","status":7}]`);
	});
	const seen: unknown[] = [];
	const error = await failure(drain(client(server.baseUrl).streamStart(createRequestFor({message: 'x'})), seen));
	assert.equal(seen.length, 1);
	assert.ok(error instanceof ProtocolError);
	assert.match(error.message, /update 2 is malformed \(status: /);
});

test('stream-start ends at READY even if the server never closes the array, and lets the connection go', async (t) => {
	let closed!: Promise<void>;
	const server = await serve(t, (_request, response) => {
		closed = new Promise((resolve) => response.on('close', () => resolve()));
		response.writeHead(200, {'content-type': 'application/json'});
		response.write(`[\n${JSON.stringify(task('WORKING'))},\n${JSON.stringify(task('READY', {app_conversation_id: hexId(2)}))}`);
		// ... and nothing more: no closing bracket, no end.
	});
	const seen = await drain(client(server.baseUrl).streamStart(createRequestFor({message: 'x'})));
	assert.deepEqual(
		seen.map((snapshot) => snapshot.status),
		['WORKING', 'READY'],
	);
	await closed;
});

test('stream-start: leaving the loop early closes the connection; close() aborts a stream that is waiting', async (t) => {
	let closedCount = 0;
	const server = await serve(t, (_request, response) => {
		response.on('close', () => closedCount++);
		response.writeHead(200, {'content-type': 'application/json'});
		response.write(`[\n${JSON.stringify(task('WORKING'))}`);
	});
	const app = client(server.baseUrl);
	for await (const snapshot of app.streamStart(createRequestFor({message: 'x'}))) {
		assert.equal(snapshot.status, 'WORKING');
		break;
	}
	await waitFor(() => closedCount === 1, 'the server to see the first stream close');

	const iterator = app.streamStart(createRequestFor({message: 'y'}))[Symbol.asyncIterator]();
	assert.equal((await iterator.next()).value?.status, 'WORKING');
	const pending = iterator.next();
	await app.close();
	const error = await failure(pending);
	assert.ok(error instanceof ApiError && !(error instanceof ProtocolError), String(error));
	assert.match(error.message, /closed/);
	await waitFor(() => closedCount === 2, 'the server to see the second stream close');
	// A closed client refuses new calls instead of opening connections nobody will close.
	assert.match(String(await failure(app.listSandboxes())), /closed/);
	assert.equal(server.requests.length, 2);
});

test('stream-start: the caller\u2019s signal cancels it (a cancellation, not a truncation)', async (t) => {
	const server = await serve(t, (_request, response) => {
		response.writeHead(200, {'content-type': 'application/json'});
		response.write(`[\n${JSON.stringify(task('WORKING'))}`);
	});
	const controller = new AbortController();
	const iterator = client(server.baseUrl).streamStart(createRequestFor({message: 'x'}), {signal: controller.signal})[Symbol.asyncIterator]();
	await iterator.next();
	const pending = iterator.next();
	controller.abort();
	const error = await failure(pending);
	assert.ok(!(error instanceof ProtocolError), String(error));
});

test('stream-start: an HTML answer is NotApiError; a bad request is refused locally and nothing is sent', async (t) => {
	const server = await serve(t, (_request, response) => {
		response.writeHead(200, {'content-type': 'text/html; charset=utf-8'});
		response.end('<!DOCTYPE html><html><body>app</body></html>');
	});
	const app = client(server.baseUrl);
	const error = await failure(drain(app.streamStart(createRequestFor({message: 'x'}))));
	assert.ok(error instanceof NotApiError);
	assert.match(error.message, /not the API/);
	assert.equal(server.requests.length, 1);

	for (const metadata of [{a: [1, 'x']}, {a: {nested: 1}}, {a: null}]) {
		const bad = {...createRequestFor({message: 'x'}), observability_metadata: metadata} as unknown as CreateRequest;
		for (const attempt of [app.createConversation(bad), drain(app.streamStart(bad))]) {
			const refused = await failure(attempt);
			assert.ok(refused instanceof ValidationError, String(refused));
			assert.match(refused.message, /observability_metadata\.a: must be a scalar or an array of only strings, only numbers or only booleans/);
			assert.match(refused.message, /nothing was sent/);
			assert.deepEqual(refused.detail[0]?.loc, ['body', 'observability_metadata', 'a']);
		}
	}
	assert.equal(server.requests.length, 1, 'invalid requests never reach the server');
});

test('stream-start: a web page without a text/html type is still NotApiError, not a parse error', async (t) => {
	const server = await serve(t, (_request, response) => {
		response.writeHead(200, {'content-type': 'application/octet-stream'});
		response.end('\n  <!doctype html><html><body>app</body></html>');
	});
	const error = await failure(drain(client(server.baseUrl).streamStart(createRequestFor({message: 'x'}))));
	assert.ok(error instanceof NotApiError, String(error));
});

// ---- typed errors ------------------------------------------------------------------------

test('no answer in time: a GET is a TimeoutError, a POST may have gone through (OutcomeUnknownError)', async (t) => {
	const server = await serve(t, () => {
		// Never answers.
	});
	const http = new HttpClient({baseUrl: server.baseUrl, headers: () => ({}), maxRetries: 0});
	const get = await failure(http.json({path: '/api/v1/sandboxes/search', headersTimeoutMs: 100}));
	assert.ok(get instanceof TimeoutError, String(get));
	const post = await failure(http.json({method: 'POST', path: '/api/v1/app-conversations', body: {}, headersTimeoutMs: 100}));
	assert.ok(post instanceof OutcomeUnknownError, String(post));
	assert.match(post.message, /did not answer in time \(no response headers came\); the request may have gone through/);
	assert.equal(server.requests.length, 2);
});

test('HTML 200 on a GET is NotApiError; 422 keeps its detail; 401 {"error"} is KeyRejectedError and is not retried', async (t) => {
	const server = await serve(t, (request, response, seen) => {
		if (seen.url.pathname.endsWith('/sandboxes/search')) {
			response.writeHead(200, {'content-type': 'text/html'});
			response.end('<!doctype html><html></html>');
		} else if (seen.url.pathname.endsWith('/app-conversations/search')) {
			json(response, 422, {detail: [{type: 'less_than_equal', loc: ['query', 'limit'], msg: 'Input should be less than or equal to 100', input: '500'}]});
		} else {
			json(response, 401, {error: 'Invalid API key'});
		}
	});
	const app = client(server.baseUrl);
	const html = await failure(app.listSandboxes());
	assert.ok(html instanceof NotApiError);
	assert.match(html.message, /this URL is not the API/);

	const invalid = await failure(app.listConversations({limit: 500}));
	assert.ok(invalid instanceof ValidationError);
	assert.equal(invalid.status, 422);
	assert.deepEqual(invalid.detail, [{loc: ['query', 'limit'], msg: 'Input should be less than or equal to 100', type: 'less_than_equal'}]);
	assert.match(invalid.message, /query\.limit: Input should be less than or equal to 100/);

	const before = server.requests.length;
	const rejected = await failure(app.listSandboxSpecs());
	assert.ok(rejected instanceof KeyRejectedError);
	assert.match(rejected.message, /401: Invalid API key/);
	assert.equal(server.requests.length - before, 1);
});

test('429 with Retry-After: 1 on a GET is waited out and retried (onRetry says 1000 ms); a POST 429 is not retried', async (t) => {
	let calls = 0;
	const server = await serve(t, (_request, response, seen) => {
		calls++;
		if (seen.method === 'POST' || calls === 1) return json(response, 429, {error: 'Rate limit exceeded: 10 per 1 second'}, {'retry-after': '1'});
		json(response, 200, 42);
	});
	const retries: RetryInfo[] = [];
	const app = client(server.baseUrl, {onRetry: (info) => retries.push(info)});
	assert.equal(await app.countConversations(), 42);
	assert.equal(server.requests.length, 2);
	assert.equal(retries.length, 1);
	assert.equal(retries[0]?.delayMs, 1000);
	assert.equal(retries[0]?.attempt, 1);
	assert.equal(retries[0]?.url, '/api/v1/app-conversations/count');

	const posted = await failure(app.createConversation(createRequestFor({message: 'x'})));
	assert.ok(posted instanceof RateLimitedError);
	assert.equal(posted.retryAfterMs, 1000);
	assert.equal(server.requests.length, 3, 'the POST went out once');
});

test('a Retry-After too long to wait is handed to the caller at once; an abort ends a retry wait', async (t) => {
	const server = await serve(t, (_request, response, seen) => {
		json(response, 429, {error: 'Rate limit exceeded'}, {'retry-after': seen.url.pathname.endsWith('/count') ? '3600' : '30'});
	});
	const app = client(server.baseUrl);
	const limited = await failure(app.countConversations());
	assert.ok(limited instanceof RateLimitedError);
	assert.equal(limited.retryAfterMs, 3_600_000);
	assert.match(limited.message, /retry in 3600 s/);
	assert.equal(server.requests.length, 1);

	const controller = new AbortController();
	setTimeout(() => controller.abort(), 50);
	// Timers fire in the order they are due: the abort at 50 ms ends the wait before one at 15 s does.
	let late = false;
	const half = setTimeout(() => (late = true), 15_000);
	await failure(app.listSandboxes({signal: controller.signal}));
	clearTimeout(half);
	assert.equal(late, false, 'the 30 s wait was cut short');
});

test('a POST whose connection breaks mid-answer is OutcomeUnknownError, sent exactly once', async (t) => {
	const server = await serve(t, (_request, response, seen) => {
		if (seen.url.pathname.endsWith('/send-message')) {
			response.socket?.destroy();
			return;
		}
		response.writeHead(200, {'content-type': 'application/json'});
		response.write('{"id":"t","sta');
		setTimeout(() => response.socket?.destroy(), 20);
	});
	const app = client(server.baseUrl);
	const broken = await failure(app.createConversation(createRequestFor({message: 'x'})));
	assert.ok(broken instanceof OutcomeUnknownError, String(broken));
	assert.match(broken.message, /may have gone through/);
	assert.equal(server.requests.length, 1);

	const cut = await failure(app.sendMessage(hexId(3), 'hello'));
	assert.ok(cut instanceof OutcomeUnknownError, String(cut));
	assert.equal(server.requests.length, 2);
});

test('5xx: a GET 500 is ServerError, a 503 is retried; a POST 503 is ServerError after one request', async (t) => {
	let gets = 0;
	const server = await serve(t, (_request, response, seen) => {
		if (seen.method === 'POST') return json(response, 503, {detail: 'Service Unavailable'});
		gets++;
		if (seen.url.pathname.endsWith('/count')) return json(response, 500, {detail: 'Internal Server Error'});
		if (gets <= 2) return json(response, 503, {detail: 'Service Unavailable'}, {'retry-after': '0'});
		json(response, 200, {items: [], next_page_id: null});
	});
	const app = client(server.baseUrl);
	const failed = await failure(app.countStartTasks());
	assert.ok(failed instanceof ServerError);
	assert.equal(failed.status, 500);
	assert.deepEqual(await app.listSandboxes(), []);
	const posted = await failure(app.startSandbox());
	assert.ok(posted instanceof ServerError);
	assert.equal(server.requests.filter((request) => request.method === 'POST').length, 1);
});

test('an answer over the size cap is a ProtocolError, not a crash or a hang', async (t) => {
	const server = await serve(t, (_request, response) => {
		json(response, 200, {items: [{id: 'a', status: 'RUNNING', blob: 'x'.repeat(8000)}], next_page_id: null});
	});
	const error = await failure(client(server.baseUrl, {maxResponseBytes: 1024}).listSandboxes());
	assert.ok(error instanceof ProtocolError, String(error));
	assert.match(error.message, /larger than 1 KiB/);
});

test('the key is sent only in the header and never appears in an error, even when a server echoes it', async (t) => {
	const server = await serve(t, (_request, response, seen) => {
		const echo = `got ${String(seen.headers.authorization)}`;
		const path = seen.url.pathname;
		if (path.endsWith('/count')) return json(response, 401, {error: echo});
		if (path.endsWith('/sandboxes/search')) return json(response, 500, {detail: echo});
		if (path.endsWith('/sandbox-specs/search')) return json(response, 422, {detail: [{type: 'x', loc: ['header', 'authorization'], msg: echo, input: seen.headers.authorization}]});
		if (path.endsWith('/pause')) return json(response, 404, {detail: echo});
		if (path.endsWith('/start-tasks/search')) return json(response, 409, echo);
		json(response, 503, {detail: echo});
	});
	const reasons: string[] = [];
	const app = client(server.baseUrl, {maxRetries: 1, onRetry: (info) => reasons.push(info.reason)});
	const errors = [
		await failure(app.countConversations()),
		await failure(app.listSandboxes()),
		await failure(app.listSandboxSpecs()),
		await failure(app.pauseSandbox('sb')),
		await failure(drain(app.searchStartTasks())),
		await failure(app.getSandboxes(['sb'])),
	];
	assert.deepEqual(
		errors.map((error) => (error as Error).name),
		['KeyRejectedError', 'ServerError', 'ValidationError', 'NotFoundError', 'RequestRefusedError', 'ServerError'],
	);
	for (const error of errors) {
		const shown = `${(error as Error).message}\n${inspect(error, {depth: 10})}\n${JSON.stringify(error)}`;
		assert.ok(!shown.includes(key), `${(error as Error).name} shows the key: ${shown}`);
		assert.ok(!shown.includes(key.slice(3)), 'not even part of it');
		assert.match((error as Error).message, /\[redacted\]/);
	}
	assert.ok(reasons.length > 0 && reasons.every((reason) => !reason.includes(key)));
	assert.ok(!inspect(app, {depth: 10, showHidden: true}).includes(key));
	assert.equal(server.requests[0]?.headers.authorization, `Bearer ${key}`);
	assert.ok(server.requests.every((request) => !request.url.search.includes(key)));
});

// ---- pages and batches -------------------------------------------------------------------

test('one invalid item in a page is reported and the others returned; same for a batch look-up', async (t) => {
	const server = await serve(t, (_request, response, seen) => {
		if (seen.url.pathname.endsWith('/search')) {
			return json(response, 200, {items: [{id: 'a', status: 'RUNNING'}, {status: 'RUNNING'}, {id: 'c', status: 'SOMETHING_NEW'}], next_page_id: null});
		}
		json(response, 200, seen.url.searchParams.getAll('id').map((id) => (id === 'b' ? {id: 'b', status: 42} : {id, status: 'PAUSED'})));
	});
	const invalid: Array<{where: string; index: number}> = [];
	const app = client(server.baseUrl, {onInvalid: (item, where) => invalid.push({where, index: item.index})});
	const sandboxes = await app.listSandboxes();
	assert.deepEqual(
		sandboxes.map((sandbox) => [sandbox.id, sandbox.status]),
		[
			['a', 'RUNNING'],
			['c', 'SOMETHING_NEW'],
		],
	);
	assert.deepEqual(invalid, [{where: 'GET /api/v1/sandboxes/search', index: 1}]);

	const found = await app.getSandboxes(['a', 'b', 'c']);
	assert.deepEqual(
		found.map((sandbox) => sandbox?.id ?? null),
		['a', null, 'c'],
	);
	assert.deepEqual(invalid[1], {where: 'GET /api/v1/sandboxes', index: 1});
});

test('batch look-ups: chunks of 99 (ids) and 100 (id), nulls aligned, seed-style answers mapped by id in either spelling', async (t) => {
	const known = new Set(Array.from({length: 300}, (_, index) => hexId(index + 1)));
	const server = await serve(t, (_request, response, seen) => {
		const path = seen.url.pathname;
		if (path === '/api/v1/app-conversations') {
			const asked = seen.url.searchParams.getAll('ids');
			// The seed's form: only the known ones, in another order, ids in the dashed spelling.
			const rows = asked.filter((id) => known.has(id)).reverse();
			return json(response, 200, rows.map((id) => ({id: dashedId(id), sandbox_status: 'RUNNING'})));
		}
		if (path === '/api/v1/app-conversations/start-tasks') {
			return json(response, 200, seen.url.searchParams.getAll('ids').map((id) => (known.has(id) ? {id, status: 'READY'} : null)));
		}
		if (path === '/api/v1/sandboxes' || path === '/api/v1/sandbox-specs') {
			return json(response, 200, seen.url.searchParams.getAll('id').map((id) => (id.startsWith('x') ? null : {id, status: 'RUNNING'})));
		}
		json(response, 404, {detail: 'Not Found'});
	});
	const app = client(server.baseUrl);

	const ids = Array.from({length: 150}, (_, index) => {
		const id = index % 10 === 3 ? hexId(10_000 + index) : hexId(index + 1);
		return index % 2 ? dashedId(id).toUpperCase() : id;
	});
	ids.push('not-a-uuid', ids[0]!);
	const found = await app.getConversations(ids);
	assert.equal(found.length, ids.length);
	ids.forEach((id, index) => {
		const expectKnown = index < 150 && index % 10 !== 3;
		if (index === 151) assert.equal(found[index]?.id, found[0]?.id, 'a repeated id gets the same answer');
		else if (expectKnown) assert.equal(found[index]?.id.replaceAll('-', ''), id.replaceAll('-', '').toLowerCase(), `index ${index}`);
		else assert.equal(found[index], null, `index ${index}`);
	});
	const lookups = server.requests.filter((request) => request.url.pathname === '/api/v1/app-conversations');
	assert.deepEqual(
		lookups.map((request) => request.url.searchParams.getAll('ids').length),
		[99, 51],
		'each id asked once, 99 per request; the malformed id is never sent (it would fail the batch with 400)',
	);
	assert.ok(lookups.every((request) => request.url.searchParams.getAll('ids').every((id) => /^[0-9a-f]{32}$/.test(id))));

	const tasks = await app.getStartTasks([hexId(1), hexId(5000), hexId(2)]);
	assert.deepEqual(
		tasks.map((entry) => entry?.id ?? null),
		[hexId(1), null, hexId(2)],
	);

	const sandboxIds = Array.from({length: 205}, (_, index) => (index % 50 === 7 ? `x${index}` : `sb-${index}`));
	const sandboxes = await app.getSandboxes(sandboxIds);
	assert.deepEqual(
		sandboxes.map((sandbox) => sandbox?.id ?? null),
		sandboxIds.map((id) => (id.startsWith('x') ? null : id)),
	);
	const sandboxLookups = server.requests.filter((request) => request.url.pathname === '/api/v1/sandboxes');
	assert.deepEqual(
		sandboxLookups.map((request) => [request.url.searchParams.getAll('id').length, request.url.searchParams.getAll('ids').length]),
		[
			[100, 0],
			[100, 0],
			[5, 0],
		],
	);
	assert.deepEqual(
		(await app.getSandboxSpecs(['spec-a', 'x1'])).map((spec) => spec?.id ?? null),
		['spec-a', null],
	);
	// Sandbox ids are opaque: one that looks like a dashed uuid is sent exactly as given.
	const uuidLike = dashedId(hexId(77)).toUpperCase();
	assert.equal((await app.getSandboxes([uuidLike]))[0]?.id, uuidLike);
	assert.deepEqual(server.requests.at(-1)?.url.searchParams.getAll('id'), [uuidLike]);
	assert.deepEqual(await app.getConversations([]), []);
	assert.equal(server.requests.filter((request) => request.url.pathname === '/api/v1/app-conversations').length, 2, 'no request for no ids');

	const other = await serve(t, (_request, response) => json(response, 200, {items: []}));
	assert.ok((await failure(client(other.baseUrl).getConversations([hexId(1)]))) instanceof ProtocolError);
});

test('search walks every page via page_id with the filters, dedupes shifted rows, and stops on a repeated page id', async (t) => {
	const row = (n: number, dashed = false) => ({id: dashed ? dashedId(hexId(n)) : hexId(n), sandbox_status: 'RUNNING', title: `c${n}`});
	const server = await serve(t, (_request, response, seen) => {
		const pageId = seen.url.searchParams.get('page_id');
		if (seen.url.pathname.endsWith('/sandbox-specs/search')) {
			// A broken server: always the same cursor.
			return json(response, 200, {items: [{id: `spec-${pageId ?? 'first'}`}], next_page_id: '5'});
		}
		// Offsets that shifted: row 2 shows up again on the second page, in the other spelling.
		if (pageId === null) return json(response, 200, {items: [row(1), row(2)], next_page_id: '2'});
		if (pageId === '2') return json(response, 200, {items: [row(2, true), row(3)], next_page_id: 4});
		json(response, 200, {items: [row(4)], next_page_id: null});
	});
	const warnings: string[] = [];
	const app = client(server.baseUrl, {onWarning: (message) => warnings.push(message)});
	const params = {titleContains: 'fix', createdAtGte: '2026-01-01T00:00:00Z', updatedAtLt: '2026-02-01T00:00:00Z', sandboxId: 'sb-1', limit: 2};

	const pages = await drain(app.searchConversationPages(params));
	assert.deepEqual(
		pages.map((page) => [page.items.length, page.nextPageId]),
		[
			[2, '2'],
			[2, '4'],
			[1, null],
		],
	);
	const all = await app.listConversations(params);
	assert.deepEqual(
		all.map((conversation) => conversation.title),
		['c1', 'c2', 'c3', 'c4'],
	);
	const first = server.requests[0]!.url.searchParams;
	assert.equal(first.get('title__contains'), 'fix');
	assert.equal(first.get('created_at__gte'), '2026-01-01T00:00:00Z');
	assert.equal(first.get('updated_at__lt'), '2026-02-01T00:00:00Z');
	assert.equal(first.get('sandbox_id__eq'), 'sb-1');
	// Sub-conversations are hidden unless asked for; a child waiting for approval must not be.
	assert.equal(first.get('include_sub_conversations'), 'true');
	assert.equal(first.get('limit'), '2');
	assert.equal(first.get('page_id'), null);
	assert.deepEqual(
		server.requests.slice(0, 3).map((request) => request.url.searchParams.get('page_id')),
		[null, '2', '4'],
	);

	const specs = await app.listSandboxSpecs();
	assert.deepEqual(
		specs.map((spec) => spec.id),
		['spec-first', 'spec-5'],
	);
	assert.equal(warnings.length, 1);
	assert.match(warnings[0]!, /page id "5" twice; stopped paging/);
});

test('sandbox actions: spec id as a query (no body), pause/resume/delete paths, delete sends ?sandbox_id= the first time (what the route reads)', async (t) => {
	const server = await serve(t, (_request, response, seen) => {
		const path = seen.url.pathname;
		if (seen.method === 'POST' && path === '/api/v1/sandboxes') return json(response, 200, {id: 'sb-new', status: 'STARTING', sandbox_spec_id: seen.url.searchParams.get('sandbox_spec_id')});
		if (seen.method === 'DELETE' && path.endsWith('/sb-old') && !seen.url.searchParams.has('sandbox_id')) {
			return json(response, 422, {detail: [{type: 'missing', loc: ['query', 'sandbox_id'], msg: 'Field required', input: null}]});
		}
		if (path.endsWith('/gone') || path.endsWith('/gone/pause')) return json(response, 404, {detail: 'Not Found'});
		if (path.endsWith('/empty/resume')) {
			response.writeHead(200);
			response.end();
			return;
		}
		json(response, 200, {success: true});
	});
	const app = client(server.baseUrl);
	const started = await app.startSandbox('spec-9');
	assert.equal(started.sandbox_spec_id, 'spec-9');
	const start = server.requests[0]!;
	assert.equal(start.url.search, '?sandbox_spec_id=spec-9');
	assert.equal(start.body, '');
	assert.equal(start.headers['content-type'], undefined);
	await app.startSandbox();
	assert.equal(server.requests[1]!.url.search, '', 'no spec id: the server picks its default');

	assert.deepEqual(await app.pauseSandbox('sb 1'), {success: true});
	assert.equal(server.requests[2]!.url.pathname, '/api/v1/sandboxes/sb%201/pause');
	assert.deepEqual(await app.resumeSandbox('empty'), {success: true});
	assert.deepEqual(await app.deleteSandbox('sb-new'), {success: true});
	assert.equal(server.requests.at(-1)!.method, 'DELETE');

	const before = server.requests.length;
	assert.deepEqual(await app.deleteSandbox('sb-old'), {success: true});
	assert.deepEqual(
		server.requests.slice(before).map((request) => `${request.method} ${request.url.pathname}${request.url.search}`),
		['DELETE /api/v1/sandboxes/sb-old?sandbox_id=sb-old'],
		'one request: the route 422s without the query parameter, so it is sent at once',
	);
	assert.ok((await failure(app.deleteSandbox('gone'))) instanceof NotFoundError);
	assert.ok((await failure(app.pauseSandbox('gone'))) instanceof NotFoundError);
});

async function waitFor(predicate: () => boolean, what: string, timeoutMs = 2000): Promise<void> {
	await eventually(predicate, what, {timeoutMs, pollMs: 5});
}

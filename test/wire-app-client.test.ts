import {test} from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type {AddressInfo} from 'node:net';
import {inspect} from 'node:util';
import {startTestSimulator} from './helpers/sim-harness.js';
import {AppClient} from '../source/wire/app-client.js';
import {parseJsonArrayStream} from '../source/wire/stream-start.js';
import {
	KeyRejectedError,
	NetworkError,
	NotApiError,
	NotFoundError,
	OutcomeUnknownError,
	ProtocolError,
	RateLimitedError,
	ServerError,
	ValidationError,
} from '../source/wire/errors.js';
import {dashedId} from '../source/wire/ids.js';
import {createRequestFor} from '../source/wire/schemas/create-request.js';

async function* chunksOf(text: string, size: number) {
	const bytes = Buffer.from(text);
	for (let index = 0; index < bytes.length; index += size) yield bytes.subarray(index, index + size);
}

test('the stream-start parser yields each element as it completes, across 1-byte chunks and multi-byte characters', async () => {
	const body = '[\n{"id":"t","status":"WORKING","note":"a \\"quoted\\" ]} é漢"},\n{"id":"t","status":"READY","n":[1,{"x":2}]}\n]';
	const seen: unknown[] = [];
	for await (const element of parseJsonArrayStream(chunksOf(body, 1))) seen.push(element);
	assert.equal(seen.length, 2);
	assert.equal((seen[0] as {note: string}).note, 'a "quoted" ]} é漢');
	await assert.rejects(async () => {
		for await (const _ of parseJsonArrayStream(chunksOf('[\n{"id":"t","status":"WORKING"},\n{"id":', 3))) {
			// drain
		}
	}, (error: unknown) => error instanceof ProtocolError && /ended before it finished \(after 1 update\)/.test(error.message));
});

test('conversations: every page followed to the end, ids deduplicated, batch look-ups aligned with nulls in chunks of 99', async (t) => {
	const sim = await startTestSimulator(t, {conversations: 250});
	const client = new AppClient({baseUrl: sim.baseUrl, apiKey: sim.apiKey});
	const pages = [];
	for await (const page of client.searchConversationPages({limit: 100})) pages.push(page);
	assert.equal(pages.length, 3);
	const all = await client.listConversations();
	assert.equal(all.length, 250);
	assert.equal(new Set(all.map((conversation) => conversation.id)).size, 250);
	assert.equal(await client.countConversations(), 250);

	const before = sim.stats.requests;
	const ids = all.slice(0, 148).map((conversation, index) => (index % 2 ? dashedId(conversation.id) : conversation.id));
	ids.splice(5, 0, 'ffffffffffffffffffffffffffffffff', '00000000000000000000000000000000');
	const found = await client.getConversations(ids);
	assert.equal(sim.stats.requests - before, 2, '150 ids take two look-ups');
	assert.equal(found.length, 150);
	assert.equal(found[5], null);
	assert.equal(found[6], null);
	assert.equal(found[7]?.id, all[5]?.id);
});

test('stream-start is consumed incrementally through every real phase; FAIL_START ends in ERROR; a truncated stream is a clear error', async (t) => {
	const sim = await startTestSimulator(t, {startTaskPhaseMs: 60});
	const client = new AppClient({baseUrl: sim.baseUrl, apiKey: sim.apiKey});
	const statuses: string[] = [];
	let readyAt = 0;
	const firstAt: number[] = [];
	for await (const task of client.streamStart(createRequestFor({message: 'add a README', repository: 'acme/widgets', plugins: [{source: 'github:acme/plugins', ref: 'v1'}]}))) {
		statuses.push(task.status);
		firstAt.push(Date.now());
		if (task.status === 'READY') {
			readyAt = Date.now();
			assert.ok(task.app_conversation_id);
		}
	}
	assert.deepEqual(statuses, ['WORKING', 'WAITING_FOR_SANDBOX', 'PREPARING_REPOSITORY', 'RUNNING_SETUP_SCRIPT', 'SETTING_UP_GIT_HOOKS', 'SETTING_UP_SKILLS', 'STARTING_CONVERSATION', 'READY']);
	assert.ok(readyAt - (firstAt[0] ?? readyAt) >= 300, 'WORKING was delivered well before READY, not at the end');

	const failed: string[] = [];
	for await (const task of client.streamStart(createRequestFor({message: 'please FAIL_START'}))) failed.push(task.status);
	assert.equal(failed.at(-1), 'ERROR');

	await assert.rejects(async () => {
		for await (const _ of client.streamStart(createRequestFor({message: 'TRUNCATE_START'}))) {
			// drain
		}
	}, ProtocolError);
	await assert.rejects(client.createConversation({observability_metadata: {mixed: [1, 'x']}} as never), ValidationError);
});

test('sandboxes, specs, start tasks and V0 round-trip', async (t) => {
	const sim = await startTestSimulator(t);
	const warnings: string[] = [];
	const client = new AppClient({baseUrl: sim.baseUrl, apiKey: sim.apiKey, onWarning: (message) => warnings.push(message)});
	const sandboxes = await client.listSandboxes();
	assert.ok(sandboxes.length > 0);
	const running = sandboxes.find((sandbox) => sandbox.status === 'RUNNING');
	assert.ok(running);
	const [same, missing] = await client.getSandboxes([running.id, 'nope']);
	assert.equal(same?.id, running.id);
	assert.equal(missing, null);
	assert.deepEqual(await client.pauseSandbox(running.id), {success: true});
	assert.deepEqual(await client.resumeSandbox(running.id), {success: true});
	await assert.rejects(client.pauseSandbox('no-such-sandbox'), NotFoundError);
	const specs = await client.listSandboxSpecs();
	assert.ok(specs.length > 0);
	const started = await client.createConversation(createRequestFor({message: 'hello'}));
	const [task] = await client.getStartTasks([started.id]);
	assert.equal(task?.id, started.id);
	const v0 = await client.startV0({message: 'old style', repository: 'acme/widgets'});
	assert.ok(v0.conversation_id);
	assert.match(warnings[0] ?? '', /deprecated/);
});

test('typed errors: key rejected, rate limited (Retry-After honoured), server error, network, not-the-API; the key never shows', async (t) => {
	const sim = await startTestSimulator(t);
	const secretKey = 'sk-very-secret-value-123';
	const wrong = new AppClient({baseUrl: sim.baseUrl, apiKey: secretKey});
	const rejected = await wrong.listSandboxes().catch((error: unknown) => error);
	assert.ok(rejected instanceof KeyRejectedError);
	assert.ok(!rejected.message.includes(secretKey) && !inspect(rejected, {depth: 5}).includes(secretKey));

	const retries: number[] = [];
	const client = new AppClient({baseUrl: sim.baseUrl, apiKey: sim.apiKey, onRetry: (info) => retries.push(info.delayMs)});
	sim.faults.rateLimit({count: 1, retryAfterSeconds: 1});
	assert.ok((await client.listSandboxSpecs()).length > 0);
	assert.deepEqual(retries, [1000]);

	const noRetry = new AppClient({baseUrl: sim.baseUrl, apiKey: sim.apiKey, maxRetries: 0});
	sim.faults.rateLimit({count: 1, retryAfterSeconds: 7});
	const limited = await noRetry.listSandboxSpecs().catch((error: unknown) => error);
	assert.ok(limited instanceof RateLimitedError && limited.retryAfterMs === 7000);
	sim.faults.serverErrors({count: 1, status: 500});
	assert.ok((await noRetry.listSandboxSpecs().catch((error: unknown) => error)) instanceof ServerError);
	sim.faults.reset();

	const html = new AppClient({baseUrl: `${sim.baseUrl}/web-app`, apiKey: sim.apiKey});
	const notApi = await html.listSandboxes().catch((error: unknown) => error);
	assert.ok(notApi instanceof NotApiError, String(notApi));
	assert.match((notApi as Error).message, /not the API/);

	const closed = new AppClient({baseUrl: 'http://127.0.0.1:9', apiKey: sim.apiKey, maxRetries: 0});
	assert.ok((await closed.listSandboxes().catch((error: unknown) => error)) instanceof NetworkError);
});

test('a 422 keeps its detail list; a POST whose connection breaks is reported as possibly done and not retried', async (t) => {
	let posts = 0;
	const server = http.createServer((request, response) => {
		if (request.method === 'POST') {
			posts++;
			request.resume();
			request.on('end', () => {
				response.writeHead(200, {'content-type': 'application/json'});
				response.write('{"id":"t","sta');
				setTimeout(() => response.socket?.destroy(), 20);
			});
			return;
		}
		response.writeHead(422, {'content-type': 'application/json'});
		response.end(JSON.stringify({detail: [{loc: ['query', 'limit'], msg: 'must be at most 100', type: 'less_than_equal'}]}));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	t.after(() => server.close());
	const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	const client = new AppClient({baseUrl, apiKey: 'k'});
	const invalid = await client.listSandboxes().catch((error: unknown) => error);
	assert.ok(invalid instanceof ValidationError);
	assert.deepEqual(invalid.detail[0]?.loc, ['query', 'limit']);
	const broken = await client.createConversation(createRequestFor({message: 'x'})).catch((error: unknown) => error);
	assert.ok(broken instanceof OutcomeUnknownError, String(broken));
	assert.match((broken as Error).message, /may have gone through/);
	assert.equal(posts, 1);
});

test('one invalid item in a page is reported and the others returned', async (t) => {
	const server = http.createServer((_request, response) => {
		response.writeHead(200, {'content-type': 'application/json'});
		response.end(JSON.stringify({items: [{id: 'a', status: 'RUNNING'}, {status: 'RUNNING'}, {id: 'c', status: 'WHATEVER'}], next_page_id: null}));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	t.after(() => server.close());
	const invalid: string[] = [];
	const client = new AppClient({
		baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		apiKey: 'k',
		onInvalid: (item) => invalid.push(item.message),
	});
	const sandboxes = await client.listSandboxes();
	assert.deepEqual(sandboxes.map((sandbox) => [sandbox.id, sandbox.status]), [['a', 'RUNNING'], ['c', 'WHATEVER']]);
	assert.equal(invalid.length, 1);
});

import {after, test, type TestContext} from 'node:test';
import assert from 'node:assert/strict';
import {inspect} from 'node:util';
import {startSimulator, type Simulator, type SimulatorOptions} from '../source/simulator/server.js';
import {AppClient, type AppClientOptions} from '../source/wire/app-client.js';
import {
	ApiError,
	KeyRejectedError,
	NetworkError,
	NotApiError,
	NotFoundError,
	ProtocolError,
	RateLimitedError,
	RequestRefusedError,
	ServerError,
	ValidationError,
} from '../source/wire/errors.js';
import {closeHttpAgent, type RetryInfo} from '../source/wire/http.js';
import {dashedId, normalizeId} from '../source/wire/ids.js';
import type {StartTask} from '../source/wire/schemas/app.js';
import {createRequestFor} from '../source/wire/schemas/create-request.js';
import {Secret} from '../source/wire/secret.js';
import {Transport} from '../source/wire/transport.js';
import {eventually} from './helpers/eventually.js';
import {drain, failure} from './helpers/outcomes.js';

/** The app client against the embedded simulator, over loopback, endpoint by endpoint. */

after(() => closeHttpAgent());

async function startSim(t: TestContext, options: SimulatorOptions = {}): Promise<Simulator> {
	const sim = await startSimulator({port: 0, seed: 1, tickMs: 0, startTaskPhaseMs: 10, sandboxTransitionMs: 10, ...options});
	t.after(() => sim.close());
	return sim;
}

function clientFor(sim: Simulator, options: Partial<AppClientOptions> = {}): AppClient {
	return new AppClient({baseUrl: sim.baseUrl, apiKey: new Secret(sim.apiKey), ...options});
}

function eventuallyRead<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 3000): Promise<T> {
	return eventually(read, what, {until: done, timeoutMs, detail: (last) => `last: ${JSON.stringify(last)}`});
}

const realPhases = ['WORKING', 'WAITING_FOR_SANDBOX', 'PREPARING_REPOSITORY', 'RUNNING_SETUP_SCRIPT', 'SETTING_UP_GIT_HOOKS', 'SETTING_UP_SKILLS', 'STARTING_CONVERSATION', 'READY'];

test('conversations: 250 over 3 pages of 100, all unique; counts; filters', async (t) => {
	const sim = await startSim(t, {conversations: 250});
	const client = clientFor(sim);
	const pages = await drain(client.searchConversationPages({limit: 100}));
	assert.deepEqual(
		pages.map((page) => page.items.length),
		[100, 100, 50],
	);
	assert.equal(pages.at(-1)?.nextPageId, null);
	assert.ok(pages.every((page) => page.invalid.length === 0));

	const all = await client.listConversations();
	assert.equal(all.length, 250);
	assert.equal(new Set(all.map((conversation) => normalizeId(conversation.id))).size, 250);
	assert.equal(await client.countConversations(), 250);

	// Newest first, as the real server sorts.
	const created = all.map((conversation) => conversation.created_at ?? '');
	assert.deepEqual(created, [...created].sort().reverse());

	const word = (all[0]?.title ?? '').split(/\s+/)[0] ?? '';
	const matching = await client.listConversations({titleContains: word, limit: 7});
	assert.ok(matching.length > 0 && matching.every((conversation) => conversation.title?.toLowerCase().includes(word.toLowerCase())));
	assert.equal(await client.countConversations({titleContains: word}), matching.length);
	const cutoff = all[100]?.created_at ?? '';
	assert.equal(await client.countConversations({createdAtGte: cutoff}), all.filter((conversation) => (conversation.created_at ?? '') >= cutoff).length);
});

test('sub-conversations: the client asks for them (include_sub_conversations=true); without it the service hides them', async (t) => {
	const sim = await startSim(t, {conversations: 12, fleetShapes: true});
	const client = clientFor(sim);
	const all = await client.listConversations();
	const children = all.filter((conversation) => conversation.parent_conversation_id);
	assert.equal(children.length, 3, 'the seeded planning agent and two task sub-agents');
	const parentId = children[0]!.parent_conversation_id!;
	assert.ok(children.every((child) => child.parent_conversation_id === parentId), 'all under the live coding run');
	const parent = all.find((conversation) => normalizeId(conversation.id) === normalizeId(parentId));
	assert.ok(parent, 'the parent is listed too');
	assert.deepEqual([...(parent.sub_conversation_ids ?? [])].sort(), children.map((child) => normalizeId(child.id)).sort(), 'the parent names its children');
	const hidden = await client.listConversations({includeSubConversations: false});
	assert.equal(hidden.length, all.length - 3, "the service's default leaves the children out");
	assert.ok(hidden.every((conversation) => !conversation.parent_conversation_id));
	// A look-up by id finds a child whatever the search's default.
	const [looked] = await client.getConversations([children[0]!.id]);
	assert.equal(looked?.parent_conversation_id, parentId);
});

test('sandboxes: status_detail says why one is ERROR or still STARTING; UNKNOWN and any new word stay their own status', async (t) => {
	const sim = await startSim(t, {fleetShapes: true});
	const client = clientFor(sim);
	const sandboxes = await client.listSandboxes();
	const byStatus = (status: string) => sandboxes.filter((sandbox) => sandbox.status === status);
	assert.deepEqual(byStatus('ERROR').map((sandbox) => sandbox.status_detail), ['ImagePullBackOff']);
	assert.deepEqual(byStatus('STARTING').map((sandbox) => sandbox.status_detail), ['0/6 nodes are available: insufficient kvm']);
	assert.deepEqual(byStatus('UNKNOWN').map((sandbox) => sandbox.status_detail), ['runtime provider unavailable']);
	assert.ok(byStatus('RUNNING').every((sandbox) => sandbox.status_detail === null), 'no reason while all is well');
	assert.ok(sandboxes.some((sandbox) => sandbox.working_dir === '/workspace'), 'a hosted-style sandbox says where its workspace is');
	// The provider reports a status this client has never heard of: kept as that word, never dropped.
	const victim = byStatus('RUNNING')[0]!;
	const control = await fetch(`${sim.baseUrl}/_sim/sandbox`, {method: 'POST', body: JSON.stringify({id: victim.id, status: 'HIBERNATING', detail: 'node drained'})});
	assert.equal(control.status, 200);
	const [after] = await client.getSandboxes([victim.id]);
	assert.deepEqual([after?.status, after?.status_detail], ['HIBERNATING', 'node drained']);
	const conversation = (await client.listConversations()).find((row) => row.sandbox_id === victim.id);
	assert.equal(conversation?.sandbox_status, 'HIBERNATING');
	assert.equal(conversation?.execution_status, null, 'no agent status from a sandbox that is not RUNNING');
});

test('getConversations: 150 ids in two requests, unknown ids null and aligned, either id spelling', async (t) => {
	const sim = await startSim(t, {conversations: 250});
	const client = clientFor(sim);
	const all = await client.listConversations();
	const ids = all.slice(0, 148).map((conversation, index) => (index % 2 ? dashedId(conversation.id) : conversation.id));
	ids.splice(5, 0, 'ffffffffffffffffffffffffffffffff', dashedId('0000000000000000000000000000abcd'));
	assert.equal(ids.length, 150);

	const before = sim.stats.requests;
	const found = await client.getConversations(ids);
	assert.equal(sim.stats.requests - before, 2, '150 ids take two look-ups of at most 99');
	assert.equal(found.length, 150);
	assert.equal(found[5], null);
	assert.equal(found[6], null);
	ids.forEach((id, index) => {
		if (index === 5 || index === 6) return;
		assert.equal(normalizeId(found[index]?.id ?? ''), normalizeId(id), `index ${index}`);
	});
	assert.equal(found[7]?.id, all[5]?.id);
	// The live fields come with the row.
	assert.ok(found.every((conversation) => conversation === null || typeof conversation.sandbox_status === 'string'));
});

test('stream-start is consumed as it arrives, through every real phase, and the conversation then exists', async (t) => {
	const sim = await startSim(t, {startTaskPhaseMs: 50});
	const client = clientFor(sim);
	const request = createRequestFor({message: 'add a README', repository: 'acme/widgets', plugins: [{source: 'github:acme/plugins', ref: 'v1', repo_path: 'tools'}]});
	const seen: StartTask[] = [];
	const arrivedAt: number[] = [];
	let serverStatusAtFirst: string | undefined;
	for await (const snapshot of client.streamStart(request)) {
		seen.push(snapshot);
		arrivedAt.push(Date.now());
		if (seen.length === 1) {
			// READY does not exist yet when WORKING is in our hands: nothing was buffered to the end.
			const [onServer] = await client.getStartTasks([snapshot.id]);
			serverStatusAtFirst = onServer?.status;
		}
	}
	assert.deepEqual(
		seen.map((snapshot) => snapshot.status),
		realPhases,
	);
	assert.ok(serverStatusAtFirst && serverStatusAtFirst !== 'READY', `server said ${serverStatusAtFirst}`);
	assert.ok((arrivedAt.at(-1) ?? 0) - (arrivedAt[0] ?? 0) >= 250, 'WORKING arrived well before READY');
	assert.equal(new Set(seen.map((snapshot) => snapshot.id)).size, 1, 'every snapshot is the same task');
	assert.ok(seen.slice(1).every((snapshot) => snapshot.sandbox_id), 'sandbox id from WAITING_FOR_SANDBOX on');
	assert.ok(seen.find((snapshot) => snapshot.status === 'STARTING_CONVERSATION')?.agent_server_url);

	const ready = seen.at(-1)!;
	assert.ok(ready.app_conversation_id);
	const [conversation] = await client.getConversations([ready.app_conversation_id]);
	assert.equal(normalizeId(conversation?.id ?? ''), normalizeId(ready.app_conversation_id));
	assert.equal(conversation?.selected_repository, 'acme/widgets');

	const [task] = await client.getStartTasks([ready.id]);
	assert.equal(task?.status, 'READY');
	const byConversation = await drain(client.searchStartTasks({conversationId: dashedId(ready.app_conversation_id)}));
	assert.deepEqual(
		byConversation.map((entry) => entry.id),
		[ready.id],
	);
	assert.equal(await client.countStartTasks({conversationId: ready.app_conversation_id}), 1);
});

test('stream-start: FAIL_START ends in ERROR with the reason; TRUNCATE_START is a ProtocolError and the task can be polled', async (t) => {
	const sim = await startSim(t);
	const client = clientFor(sim);
	const failed = await drain(client.streamStart(createRequestFor({message: 'please FAIL_START', repository: 'acme/missing'})));
	assert.equal(failed.at(-1)?.status, 'ERROR');
	assert.match(failed.at(-1)?.detail ?? '', /acme\/missing/);

	const truncated: StartTask[] = [];
	const error = await failure(drain(client.streamStart(createRequestFor({message: 'TRUNCATE_START'})), truncated));
	assert.ok(error instanceof ProtocolError, String(error));
	assert.match(error.message, /ended before it finished \(after 1 update\)/);
	assert.equal(truncated.length, 1);
	const settled = await eventuallyRead(
		async () => (await client.getStartTasks([truncated[0]!.id]))[0],
		(entry) => entry?.status === 'ERROR',
		'the truncated task to settle',
	);
	assert.ok(settled?.detail);
});

test('start tasks: create, look up, search every page, count', async (t) => {
	const sim = await startSim(t);
	const client = clientFor(sim);
	const created = await Promise.all([1, 2, 3].map((n) => client.createConversation(createRequestFor({message: `task ${n}`}))));
	assert.ok(created.every((entry) => entry.status === 'WORKING'));
	const found = await client.getStartTasks([created[0]!.id, 'not-a-task', dashedId(created[2]!.id)]);
	assert.deepEqual(
		found.map((entry) => entry?.id ?? null),
		[created[0]!.id, null, created[2]!.id],
	);
	const total = await client.countStartTasks();
	assert.ok(total >= 3);
	const listed = await drain(client.searchStartTasks({limit: 2}));
	assert.equal(listed.length, total);
	assert.ok(created.every((entry) => listed.some((task) => task.id === entry.id)));
	const pages = await drain(client.searchStartTaskPages({limit: 2}));
	assert.equal(pages.length, Math.ceil(total / 2));
});

test('sandboxes: list, look up by id, pause and resume to the new status, start from a spec, delete; specs', async (t) => {
	const sim = await startSim(t);
	const client = clientFor(sim);
	const sandboxes = await client.listSandboxes();
	assert.ok(sandboxes.length > 0);
	assert.equal(sandboxes.length, new Set(sandboxes.map((sandbox) => sandbox.id)).size);
	const running = sandboxes.find((sandbox) => sandbox.status === 'RUNNING');
	assert.ok(running);
	assert.ok(running.session_api_key instanceof Secret, 'session keys stay wrapped');
	assert.ok(!inspect(running).includes(running.session_api_key.reveal()));

	const [same, missing] = await client.getSandboxes([running.id, 'no-such-sandbox']);
	assert.equal(same?.id, running.id);
	assert.equal(missing, null);

	const byId = async (id: string) => (await client.getSandboxes([id]))[0];
	assert.deepEqual(await client.pauseSandbox(running.id), {success: true});
	await eventuallyRead(() => byId(running.id), (sandbox) => sandbox?.status === 'PAUSED', 'the sandbox to pause');
	assert.deepEqual(await client.resumeSandbox(running.id), {success: true});
	await eventuallyRead(() => byId(running.id), (sandbox) => sandbox?.status === 'RUNNING', 'the sandbox to resume');
	assert.ok((await failure(client.pauseSandbox('no-such-sandbox'))) instanceof NotFoundError);

	const specs = await client.listSandboxSpecs();
	assert.ok(specs.length > 0);
	const spec = specs.at(-1)!;
	const [foundSpec, unknownSpec] = await client.getSandboxSpecs([spec.id, 'no-such-spec']);
	assert.equal(foundSpec?.id, spec.id);
	assert.equal(unknownSpec, null);

	const started = await client.startSandbox(spec.id);
	assert.equal(started.sandbox_spec_id, spec.id);
	assert.equal(started.status, 'STARTING');
	await eventuallyRead(() => byId(started.id), (sandbox) => sandbox?.status === 'RUNNING', 'the new sandbox to run');
	assert.deepEqual(await client.deleteSandbox(started.id), {success: true});
	assert.equal((await byId(started.id))?.status ?? 'MISSING', 'MISSING');
	assert.ok((await failure(client.deleteSandbox(started.id))) instanceof NotFoundError);
});

test('send-message reaches a running conversation; a paused one is refused in the server\u2019s words', async (t) => {
	const sim = await startSim(t);
	const client = clientFor(sim);
	const conversations = await client.listConversations();
	const live = conversations.find((conversation) => conversation.sandbox_status === 'RUNNING');
	const paused = conversations.find((conversation) => conversation.sandbox_status === 'PAUSED');
	assert.ok(live && paused);
	const sent = await client.sendMessage(dashedId(live.id), 'please also add tests');
	assert.equal(sent.success, true);
	assert.equal(sent.sandbox_status, 'RUNNING');
	const refused = await failure(client.sendMessage(paused.id, 'hello?', {run: false}));
	assert.ok(refused instanceof RequestRefusedError, String(refused));
	assert.equal(refused.status, 409);
	assert.match(refused.message, /not running/);
});

test('a V1 server without stream-start: the plain create, its task polled to READY, each phase once; the V0 start is gone', async (t) => {
	const sim = await startSim(t, {startTaskPhaseMs: 300});
	sim.faults.noStreamStart(true);
	const warnings: string[] = [];
	const client = clientFor(sim, {onWarning: (message) => warnings.push(message)});
	const seen = await drain(client.streamStart(createRequestFor({message: 'old style', repository: 'acme/widgets'})));
	assert.equal(seen[0]?.status, 'WORKING', 'the create\'s first task');
	assert.equal(seen.at(-1)?.status, 'READY');
	assert.equal(new Set(seen.map((task) => task.id)).size, 1, 'one task, polled');
	assert.deepEqual(
		seen.map((task) => task.status),
		[...new Set(seen.map((task) => task.status))],
		'each phase reported once',
	);
	assert.equal(sim.stats.byRoute['POST /api/v1/app-conversations'], 1, 'created once');
	assert.equal(sim.stats.byRoute['POST /api/conversations'] ?? 0, 0, 'never the V0 call');
	assert.match(warnings.join('\n'), /no \/api\/v1\/app-conversations\/stream-start; starting with POST/);
	const [conversation] = await client.getConversations([seen.at(-1)!.app_conversation_id!]);
	assert.equal(conversation?.selected_repository, 'acme/widgets');
	// The V0 start was removed from the service (2026-04-19): the simulator has no such route either.
	const v0 = await fetch(`${sim.baseUrl}/api/conversations`, {method: 'POST', headers: {authorization: `Bearer ${sim.apiKey}`, 'content-type': 'application/json'}, body: '{"initial_user_msg":"hi"}'});
	assert.equal(v0.status, 405);
});

test('typed errors from the simulator: key rejected, not found, validation, rate limited, server, network, not-the-API', async (t) => {
	const sim = await startSim(t);
	const wrongKey = 'sk-wrong-9d8c7b6a5f4e3d2c1b0a';
	const errors: unknown[] = [];
	const remember = async (promise: Promise<unknown>) => {
		const error = await failure(promise);
		errors.push(error);
		return error;
	};

	const rejected = await remember(new AppClient({baseUrl: sim.baseUrl, apiKey: new Secret(wrongKey)}).listSandboxes());
	assert.ok(rejected instanceof KeyRejectedError && rejected.status === 401, String(rejected));
	const anonymous = await remember(new AppClient({baseUrl: sim.baseUrl, apiKey: null}).countConversations());
	assert.ok(anonymous instanceof KeyRejectedError);

	const client = clientFor(sim, {maxRetries: 0});
	assert.ok((await remember(client.resumeSandbox('no-such-sandbox'))) instanceof NotFoundError);
	const invalid = await remember(client.listConversations({limit: 500}));
	assert.ok(invalid instanceof ValidationError && invalid.status === 422);
	assert.deepEqual(invalid.detail[0]?.loc, ['query', 'limit']);

	sim.faults.rateLimit({count: 1, retryAfterSeconds: 7});
	const limited = await remember(client.listSandboxSpecs());
	assert.ok(limited instanceof RateLimitedError && limited.retryAfterMs === 7000, String(limited));
	sim.faults.serverErrors({count: 1, status: 500});
	const broken = await remember(client.listSandboxSpecs());
	assert.ok(broken instanceof ServerError && broken.status === 500);
	sim.faults.reset();

	const html = await remember(new AppClient({baseUrl: `${sim.baseUrl}/not-the-api`, apiKey: new Secret(sim.apiKey)}).listSandboxes());
	assert.ok(html instanceof NotApiError, String(html));
	assert.match(html.message, /not the API/);
	const htmlStream = await remember(drain(new AppClient({baseUrl: `${sim.baseUrl}/not-the-api`, apiKey: sim.apiKey}).streamStart(createRequestFor({message: 'x'}))));
	assert.ok(htmlStream instanceof NotApiError, String(htmlStream));

	// A port nothing listens on (the simulator's own, once closed).
	const gone = await startSimulator({port: 0, tickMs: 0});
	const goneUrl = gone.baseUrl;
	await gone.close();
	const refused = await remember(new AppClient({baseUrl: goneUrl, apiKey: new Secret(sim.apiKey), maxRetries: 0}).listSandboxes());
	assert.ok(refused instanceof NetworkError, String(refused));
	assert.match(refused.message, /connection refused/);
	const refusedPost = await remember(new AppClient({baseUrl: goneUrl, apiKey: new Secret(sim.apiKey)}).createConversation(createRequestFor({message: 'x'})));
	assert.ok(refusedPost instanceof NetworkError, 'a POST that never connected was not sent: a plain network error');

	for (const error of errors) {
		assert.ok(error instanceof ApiError);
		const shown = `${error.message}\n${inspect(error, {depth: 10})}\n${JSON.stringify(error)}`;
		assert.ok(!shown.includes(wrongKey) && !shown.includes(sim.apiKey), `${error.name} shows a key: ${shown}`);
	}
});

test('rate limits and 5xx on GETs are retried transparently (Retry-After honoured); slow answers can be cancelled', async (t) => {
	const sim = await startSim(t);
	const retries: RetryInfo[] = [];
	const client = clientFor(sim, {onRetry: (info) => retries.push(info)});
	sim.faults.rateLimit({count: 2, retryAfterSeconds: 0});
	assert.ok((await client.listSandboxSpecs()).length > 0);
	// Retry-After: 0 is the real service's per-second window rounded down: it means "after the
	// window" (1 s), never "now" (issue 16's pacing rule).
	assert.deepEqual(
		retries.map((info) => [info.attempt, info.delayMs]),
		[
			[1, 1000],
			[2, 1000],
		],
	);
	assert.match(retries[0]?.reason ?? '', /rate limited/);

	sim.faults.serverErrors({count: 1, status: 503});
	assert.equal(await client.countConversations(), 24);
	assert.equal(retries.length, 3);
	assert.match(retries[2]?.reason ?? '', /server error 503/);

	// A POST is never retried, whatever the failure.
	sim.faults.serverErrors({count: 1, status: 503});
	const before = sim.stats.requests;
	assert.ok((await failure(client.createConversation(createRequestFor({message: 'x'})))) instanceof ServerError);
	assert.equal(sim.stats.requests - before, 1);
	assert.equal(retries.length, 3);

	sim.faults.setLatency(500);
	sim.stats.reset();
	// A client of its own server state: the 429s above left this origin paced, and a request held
	// by the pacing would be cancelled before it was ever sent.
	const transport = new Transport();
	t.after(() => transport.close());
	const fresh = clientFor(sim, {transport});
	const cancelled = await failure(fresh.getConversations([dashedId('0'.repeat(31) + '1')], {signal: AbortSignal.timeout(50)}));
	assert.ok(cancelled instanceof ApiError && /cancelled/.test(cancelled.message), String(cancelled));
	// Cut before the answer, as the simulator saw it (not timed): the connection closed while it waited.
	await eventually(() => sim.stats.log[0]?.endedAt ?? null, 'the request to end on the simulator', {until: (ended) => ended !== null});
	assert.equal(sim.stats.log.length, 1, 'no retry after a cancel');
	assert.equal(sim.stats.log[0]!.aborted, true, 'aborted before its answer');
	sim.faults.reset();
});

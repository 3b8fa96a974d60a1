import {test, mock} from 'node:test';
import assert from 'node:assert/strict';
import {createDashboard, type DashboardClient} from '../source/state/dashboard-store.js';
import {KeyRejectedError, OutcomeUnknownError, RequestRefusedError, ServerError} from '../source/wire/errors.js';
import {
	appConversationSchema,
	sandboxSchema,
	startTaskSchema,
	type AppConversation,
	type Sandbox,
	type SandboxSpec,
	type StartTask,
} from '../source/wire/schemas/app.js';
import type {CreateRequest} from '../source/wire/schemas/create-request.js';
import {hexId} from './helpers/fixtures.js';
import {message} from './helpers/event-fixtures.js';
import type {EventLog} from '../source/state/event-log.js';
import type {OpenTimelineStream, TimelineStreamHandlers} from '../source/state/timeline-session.js';

/**
 * The store against an in-memory client, on mocked time: batching, idleness, failures, the
 * start flow's error paths. The same behaviours against the real simulator over HTTP are in
 * state-dashboard-sim.test.ts.
 */

const flush = async () => {
	for (let i = 0; i < 8; i++) await new Promise((resolve) => setImmediate(resolve));
};

async function advance(ms: number, step = 100) {
	for (let elapsed = 0; elapsed < ms; elapsed += step) {
		mock.timers.tick(step);
		await flush();
	}
}


class FakeClient implements DashboardClient {
	conversations = new Map<string, AppConversation>();
	sandboxes: Sandbox[] = [];
	calls: string[] = [];
	failWith: (() => Error) | null = null;
	startTasks: Array<StartTask | Error> = [];
	lookups: string[][] = [];
	refuseActions: Error | null = null;

	constructor(count: number) {
		for (let n = 1; n <= count; n++) {
			this.conversations.set(
				hexId(n),
				appConversationSchema.parse({
					id: hexId(n),
					title: `Conversation ${n}`,
					sandbox_id: `sb${n % 3}`,
					sandbox_status: 'RUNNING',
					execution_status: 'running',
					updated_at: new Date(Date.now() - 1000).toISOString(),
					created_at: new Date(Date.now() - n * 1000).toISOString(),
					session_api_key: 'session-secret-value',
				}),
			);
		}

		this.sandboxes = [0, 1, 2].map((n) => sandboxSchema.parse({id: `sb${n}`, status: 'RUNNING', session_api_key: 'session-secret-value'}));
	}

	#call(name: string) {
		this.calls.push(name);
		if (this.failWith) throw this.failWith();
	}

	async *searchConversationPages() {
		const all = [...this.conversations.values()];
		for (let index = 0; index < all.length || index === 0; index += 100) {
			this.#call('search');
			yield {items: all.slice(index, index + 100), invalid: []};
		}
	}

	async getConversations(ids: readonly string[]) {
		this.#call(`ids:${ids.length}`);
		this.lookups.push([...ids]);
		return ids.map((id) => this.conversations.get(id) ?? null);
	}

	async listSandboxes() {
		this.#call('sandboxes');
		return this.sandboxes;
	}

	async getSandboxes(ids: readonly string[]) {
		this.#call(`sandbox-ids:${ids.length}`);
		return ids.map((id) => this.sandboxes.find((sandbox) => sandbox.id === id) ?? null);
	}

	async listSandboxSpecs(): Promise<SandboxSpec[]> {
		this.#call('specs');
		return [];
	}

	async pauseSandbox(id: string) {
		this.#call(`pause:${id}`);
		if (this.refuseActions) throw this.refuseActions;
		return {success: true};
	}

	async resumeSandbox(id: string) {
		this.#call(`resume:${id}`);
		return {success: true};
	}

	async *streamStart(_request: CreateRequest): AsyncGenerator<StartTask> {
		this.#call('start');
		for (const task of this.startTasks) {
			await Promise.resolve();
			if (task instanceof Error) throw task;
			yield task;
		}
	}
}

function setup(t: {after: (fn: () => void | Promise<void>) => void}, count = 250, extra: Partial<Parameters<typeof createDashboard>[0]> = {}) {
	mock.timers.enable({apis: ['setTimeout', 'Date'], now: Date.parse('2026-11-22T12:00:00Z')});
	const client = new FakeClient(count);
	const dashboard = createDashboard({
		appClient: client,
		appBaseUrl: 'http://sim',
		serverLabel: 'test',
		demo: false,
		secrets: ['the-api-key'],
		random: () => 0.5,
		...extra,
	});
	let publishes = 0;
	dashboard.store.subscribe(() => publishes++);
	t.after(async () => {
		await dashboard.controller.close();
		mock.timers.reset();
	});
	return {client, ...dashboard, publishes: () => publishes};
}

test('first load: every page, then one batched publish; an idle store publishes nothing', async (t) => {
	const {client, store, publishes} = setup(t);
	assert.equal(store.getSnapshot().conversations.size, 0);
	await advance(6000);
	const snapshot = store.getSnapshot();
	assert.equal(snapshot.conversations.size, 250);
	assert.equal(client.calls.filter((call) => call === 'search').length, 3);
	assert.equal(snapshot.connection.health, 'polling');
	assert.ok(snapshot.connection.lastSuccessAt !== null);
	assert.ok(publishes() <= 5, `${publishes()} publishes for the first load`);

	// Look-ups every few seconds bring the same data back: nothing is published.
	const before = publishes();
	const callsBefore = client.calls.length;
	await advance(20_000, 250);
	assert.ok(client.calls.length > callsBefore, 'it kept polling');
	assert.equal(publishes(), before, 'no publish while nothing changed');
	assert.equal(store.getSnapshot(), snapshot);
});

test('a changed conversation publishes once, with only its row replaced', async (t) => {
	const {client, store, publishes} = setup(t, 50);
	await advance(6000);
	const before = store.getSnapshot();
	const count = publishes();
	const key = hexId(7);
	client.conversations.set(key, {...client.conversations.get(key)!, execution_status: 'waiting_for_confirmation'});
	await advance(8000, 250);
	const after = store.getSnapshot();
	assert.equal(publishes(), count + 1);
	assert.notEqual(after.conversations, before.conversations);
	assert.notEqual(after.conversations.get(key), before.conversations.get(key));
	assert.equal(after.conversations.get(hexId(8)), before.conversations.get(hexId(8)), 'other rows keep their identity');
	assert.equal(after.conversations.get(key)?.attention[0]?.kind, 'waiting_for_confirmation');
	assert.equal(after.sandboxes, before.sandboxes);
});

test('a conversation the server no longer knows is removed', async (t) => {
	const {client, store} = setup(t, 20);
	await advance(6000);
	client.conversations.delete(hexId(3));
	await advance(8000, 250);
	assert.equal(store.getSnapshot().conversations.has(hexId(3)), false);
	assert.equal(store.getSnapshot().conversations.size, 19);
});

test('5xx: stale with the last data and a retry time, then recovery on its own', async (t) => {
	const {client, store} = setup(t, 20);
	await advance(6000);
	client.failWith = () => new ServerError('GET /api/v1/app-conversations: server error 503', 503);
	await advance(10_000, 250);
	let snapshot = store.getSnapshot();
	assert.equal(snapshot.connection.health, 'stale');
	assert.match(snapshot.connection.lastError ?? '', /503/);
	assert.ok(snapshot.connection.nextRetryAt !== null);
	assert.equal(snapshot.conversations.size, 20, 'the last data stays');
	client.failWith = null;
	await advance(70_000, 500);
	snapshot = store.getSnapshot();
	assert.equal(snapshot.connection.health, 'polling');
	assert.equal(snapshot.connection.lastError, null);
});

test('a rejected key stops polling until refresh', async (t) => {
	const {client, store, controller} = setup(t, 20);
	await advance(6000);
	client.failWith = () => new KeyRejectedError('GET /api/v1/sandboxes/search: key rejected (401)', 401);
	await advance(10_000, 250);
	const snapshot = store.getSnapshot();
	assert.equal(snapshot.connection.keyRejected, true);
	assert.match(snapshot.connection.lastError ?? '', /key/i);
	const calls = client.calls.length;
	await advance(120_000, 1000);
	assert.equal(client.calls.length, calls, 'no request after the key was rejected');
	client.failWith = null;
	controller.refresh();
	await advance(6000);
	assert.equal(store.getSnapshot().connection.keyRejected, false);
	assert.ok(client.calls.length > calls);
});

function task(status: string, extra: Record<string, unknown> = {}): StartTask {
	return startTaskSchema.parse({id: 'task1', status, ...extra});
}

test('start: ERROR keeps the server text; a broken stream says it may have gone through', async (t) => {
	const {client, store, controller} = setup(t, 5);
	await advance(6000);
	client.startTasks = [task('WORKING'), task('WAITING_FOR_SANDBOX'), task('ERROR', {detail: 'Sandbox quota exceeded'})];
	await controller.startConversation({message: 'hello'});
	await advance(200);
	let start = store.getSnapshot().start;
	assert.equal(start.state, 'error');
	assert.equal(start.error, 'Sandbox quota exceeded');
	assert.deepEqual(
		start.phases.map((phase) => phase.status),
		['WORKING', 'WAITING_FOR_SANDBOX', 'ERROR'],
	);

	controller.resetStart();
	client.startTasks = [task('WORKING'), new OutcomeUnknownError('POST /api/v1/app-conversations/stream-start: the connection broke')];
	await controller.startConversation({message: 'hello'});
	await advance(200);
	start = store.getSnapshot().start;
	assert.equal(start.state, 'error');
	assert.match(start.error ?? '', /may have been created/);

	controller.resetStart();
	await controller.startConversation({message: 'x', repository: 'not a repo'});
	await advance(200);
	assert.match(store.getSnapshot().start.error ?? '', /owner\/name/);
});

test('pause: pending until the polled status changes; nothing secret in the snapshot', async (t) => {
	const {client, store, controller} = setup(t, 5);
	await advance(6000);
	const pausing = controller.pauseSandbox('sb1');
	await advance(200);
	await pausing;
	assert.equal(store.getSnapshot().sandboxes.get('sb1')?.pending?.kind, 'pausing');
	client.sandboxes = client.sandboxes.map((sandbox) => (sandbox.id === 'sb1' ? {...sandbox, status: 'PAUSED'} : sandbox));
	await advance(6000, 250);
	const row = store.getSnapshot().sandboxes.get('sb1');
	assert.equal(row?.pending, null);
	assert.equal(row?.sandbox.status, 'PAUSED');
	assert.match(store.getSnapshot().notice?.text ?? '', /paused/);
	const text = JSON.stringify(store.getSnapshot(), (_key, value: unknown) => (value instanceof Map ? [...value.values()] : value));
	assert.ok(!text.includes('session-secret-value'));
	assert.ok(!text.includes('the-api-key'));
});

test('a refused pause keeps the server reason on the row and in the notice', async (t) => {
	const {client, store, controller} = setup(t, 5);
	await advance(6000);
	client.refuseActions = new RequestRefusedError('POST /api/v1/sandboxes/sb2/pause: refused (409: sandbox is starting)', 409);
	await controller.pauseSandbox('sb2');
	await advance(200);
	const row = store.getSnapshot().sandboxes.get('sb2');
	assert.equal(row?.pending?.kind, 'pausing');
	assert.match(row?.pending?.error ?? '', /sandbox is starting/);
	assert.equal(store.getSnapshot().notice?.level, 'error');
	assert.match(store.getSnapshot().notice?.text ?? '', /Could not pause sandbox sb2: .*sandbox is starting/);
	// A refused action is not waited for: no quick sandbox look-ups.
	const quick = client.calls.filter((call) => call.startsWith('sandbox-ids')).length;
	await advance(12_000, 500);
	assert.equal(client.calls.filter((call) => call.startsWith('sandbox-ids')).length, quick);
});

test('visible rows go first in every round, then attention, then the rest', async (t) => {
	const {client, store, controller} = setup(t, 250);
	await advance(6000);
	const visible = [hexId(250), hexId(249), hexId(3)];
	controller.setVisibleConversations(visible);
	client.conversations.set(hexId(100), {...client.conversations.get(hexId(100))!, execution_status: 'error'});
	// Let the error be seen, then the next round starts with the visible rows and that row.
	await advance(30_000, 250);
	assert.equal(store.getSnapshot().conversations.get(hexId(100))?.attention[0]?.kind, 'error');
	const before = client.lookups.length;
	await advance(15_000, 250);
	const rounds = client.lookups.slice(before).filter((batch) => batch[0] === hexId(250));
	assert.ok(rounds.length > 0, 'a round started with the visible rows');
	assert.deepEqual(rounds[0]!.slice(0, 4), [...visible, hexId(100)]);
	assert.ok(client.lookups.every((batch) => batch.length <= 99));
});

test('a flooding stream is published 4 times a second, not 10; a slow one at the normal pace', async (t) => {
	let handlers: TimelineStreamHandlers | undefined;
	let log: EventLog | undefined;
	const openStream: OpenTimelineStream = (_conversation, streamHandlers, context) => {
		handlers = streamHandlers;
		log = context.log;
		streamHandlers.status({health: {state: 'live', attempt: 0}});
		return {close: () => undefined};
	};
	// Windows of 400 ms (1,000 ms in a flood): the publisher measures the time since its last flush
	// on the real clock while the timers here are mocked, so the margins stay far above the real
	// time a busy machine takes between two lines of this test.
	const {store, controller, publishes} = setup(t, 5, {openStream, flushMs: 400});
	await advance(6000);
	controller.openTimeline(hexId(1));
	await advance(1000);
	assert.ok(handlers && log, 'the timeline opened its stream');
	const arrive = (count: number) => handlers!.events(log!.addNew(Array.from({length: count}, () => message('assistant', 'working'))));
	const eventsShown = () => store.getSnapshot().timeline?.events.length ?? 0;

	// A slow stream: 5 events a window, each window published after 400 ms.
	arrive(5);
	await advance(400);
	assert.equal(eventsShown(), 5);
	arrive(5);
	await advance(400);
	assert.equal(eventsShown(), 10, 'the normal window');

	// A flood: 20 events in one window (more than an 80x24 pane shows). The next window is 1,000 ms.
	arrive(20);
	await advance(400);
	assert.equal(eventsShown(), 30, 'the window that brought the flood goes out at the normal pace');
	const before = publishes();
	arrive(20);
	await advance(600);
	assert.equal(eventsShown(), 30, 'the window after a flood is longer than the normal one');
	assert.equal(publishes(), before);
	await advance(500);
	assert.equal(eventsShown(), 50, 'and over by 2.5 times the normal one');

	// The stream slows down: a window of 3 events brings the normal pace back for the next one.
	arrive(3);
	await advance(1100);
	assert.equal(eventsShown(), 53);
	arrive(3);
	await advance(400);
	assert.equal(eventsShown(), 56, 'back to the normal window once a window brings fewer than a pane of rows');
});

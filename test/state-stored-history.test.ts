import assert from 'node:assert/strict';
import {createServer, type IncomingMessage, type ServerResponse} from 'node:http';
import type {AddressInfo} from 'node:net';
import {test, type TestContext} from 'node:test';
import {EventLog} from '../source/state/event-log.js';
import {historySource, readStoredHistory, readStoredPage, storedHistoryPages, type Pace} from '../source/state/stored-history.js';
import {AppClient} from '../source/wire/app-client.js';
import {ProtocolError} from '../source/wire/errors.js';
import {settleEvent} from '../source/wire/schemas/events.js';

/**
 * A stored copy that differs from what the agent server sent, over real HTTP from a small
 * loopback server: events out of order, a page that repeats, an unknown kind, a next_page_id that
 * never ends. Each gets the agent-server reader's handling: sorted by (timestamp, id),
 * de-duplicated, unknown kinds kept as unknown, a repeating paging stopped with a clear message.
 */

const conversationId = '0123456789abcdef0123456789abcdef';

type Item = Record<string, unknown>;
type Answer = {items: Item[]; next_page_id: string | null};

function message(id: string, timestamp: string, text: string, source = 'user'): Item {
	return {kind: 'MessageEvent', id, timestamp, source, llm_message: {role: source === 'user' ? 'user' : 'assistant', content: [{type: 'text', text}]}, activated_skills: [], extended_content: []};
}

function pause(id: string, timestamp: string): Item {
	return {kind: 'PauseEvent', id, timestamp, source: 'user'};
}

/** A loopback app server whose stored-event route answers `pageFor(page_id, query)`; every request is logged. */
async function storedServer(t: TestContext, pageFor: (pageId: string | null, query: URLSearchParams) => Answer): Promise<{client: AppClient; requests: URL[]}> {
	const requests: URL[] = [];
	const server = createServer((request: IncomingMessage, response: ServerResponse) => {
		const url = new URL(request.url ?? '/', 'http://127.0.0.1');
		requests.push(url);
		if (url.pathname !== `/api/v1/conversation/${conversationId}/events/search` || request.headers.authorization !== 'Bearer k') {
			response.writeHead(404, {'content-type': 'application/json'}).end('{"detail":"Not Found"}');
			return;
		}
		response.writeHead(200, {'content-type': 'application/json'}).end(JSON.stringify(pageFor(url.searchParams.get('page_id'), url.searchParams)));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const client = new AppClient({baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, apiKey: 'k', maxRetries: 0});
	t.after(async () => {
		await client.close();
		server.closeAllConnections();
		await new Promise((resolve) => server.close(resolve));
	});
	return {client, requests};
}

test('events out of order and repeated across pages: one copy each, in (timestamp, id) order', async (t) => {
	const pages: Record<string, Answer> = {
		first: {items: [message('e3', '2026-01-01T10:00:03', 'third'), message('e1', '2026-01-01T10:00:01', 'first')], next_page_id: 'second'},
		// e1 again (offset pages shift), and two events with one timestamp: ordered by id.
		second: {items: [message('e2b', '2026-01-01T10:00:02', 'tie b'), message('e1', '2026-01-01T10:00:01', 'first'), message('e2a', '2026-01-01T10:00:02', 'tie a')], next_page_id: null},
	};
	const {client, requests} = await storedServer(t, (pageId) => pages[pageId ?? 'first']!);
	const events = await readStoredHistory({client: client.storedEvents, conversationId});
	assert.deepEqual(
		events.map((event) => event.id),
		['e1', 'e2a', 'e2b', 'e3'],
	);
	assert.equal(requests.length, 2);
	const desc = await readStoredHistory({client: client.storedEvents, conversationId, sortOrder: 'TIMESTAMP_DESC'});
	assert.deepEqual(
		desc.map((event) => event.id),
		['e3', 'e2b', 'e2a', 'e1'],
	);
	assert.equal(requests.at(-1)?.searchParams.get('sort_order'), 'TIMESTAMP_DESC');
});

test('a page that repeats (same events under a new page id) stops with a clear message after what came before', async (t) => {
	const same: Item[] = [pause('p1', '2026-01-01T10:00:01'), pause('p2', '2026-01-01T10:00:02')];
	let served = 0;
	const {client, requests} = await storedServer(t, (pageId) => {
		served++;
		return pageId === null ? {items: [pause('p0', '2026-01-01T10:00:00')], next_page_id: 'n1'} : {items: same, next_page_id: `n${Number(pageId.slice(1)) + 1}`};
	});
	const seen: string[] = [];
	await assert.rejects(
		(async () => {
			for await (const page of storedHistoryPages({client: client.storedEvents, conversationId})) seen.push(...page.events.map((event) => event.id));
		})(),
		(error: unknown) => error instanceof ProtocolError && /paging repeats \(the same page came twice\); stopped/.test(error.message),
	);
	assert.deepEqual(seen, ['p0', 'p1', 'p2'], 'every event before the repeat, once');
	assert.equal(served, 3, 'stopped at the first repeat');
	assert.equal(requests.length, 3);
});

test('a next_page_id pointing back at a page already read stops too', async (t) => {
	const {client, requests} = await storedServer(t, (pageId) =>
		pageId === null ? {items: [pause('a', '2026-01-01T10:00:00')], next_page_id: 'x'} : {items: [pause(`b-${requests.length}`, '2026-01-01T10:00:01')], next_page_id: 'x'},
	);
	await assert.rejects(readStoredHistory({client: client.storedEvents, conversationId}), /page x was asked for already/);
	assert.equal(requests.length, 2);
});

test('a next_page_id that never ends (empty pages, each naming another) stops at the first empty one', async (t) => {
	const {client, requests} = await storedServer(t, (pageId) =>
		pageId === null ? {items: [pause('only', '2026-01-01T10:00:00')], next_page_id: '1'} : {items: [], next_page_id: String(Number(pageId) + 1)},
	);
	await assert.rejects(readStoredHistory({client: client.storedEvents, conversationId}), /paging repeats \(an empty page names a next page\)/);
	assert.equal(requests.length, 2, 'two requests, not forever');
});

test('an unknown kind is kept, as unknown, and a known kind with a bad payload too (reported)', async (t) => {
	const {client} = await storedServer(t, () => ({
		items: [
			{kind: 'openhands.sdk.event.FancyNewEvent', id: 'u1', timestamp: '2026-01-01T10:00:01', source: 'agent', shiny: true},
			{kind: 'MessageEvent', id: 'bad', timestamp: '2026-01-01T10:00:02', source: 'user', llm_message: 'not an object'},
			message('ok', '2026-01-01T10:00:03', 'fine'),
		],
		next_page_id: null,
	}));
	const invalid: string[] = [];
	const events = await readStoredHistory({client: client.storedEvents, conversationId, onInvalid: (items) => invalid.push(...items.map((item) => item.message))});
	assert.deepEqual(
		events.map((event) => [event.id, event.kind]),
		[
			['u1', 'UnknownEvent'],
			['bad', 'UnknownEvent'],
			['ok', 'MessageEvent'],
		],
	);
	const unknown = events[0]!;
	assert.ok(unknown.kind === 'UnknownEvent' && unknown.originalKind === 'openhands.sdk.event.FancyNewEvent' && unknown.problem === 'unknown event kind');
	assert.equal(invalid.length, 1, 'the bad payload is reported; an unknown kind is not a fault');
	// Filtering on the unknown kind's short name finds it.
	const onlyFancy = await readStoredHistory({client: client.storedEvents, conversationId, filter: {kind: 'FancyNewEvent'}});
	assert.deepEqual(
		onlyFancy.map((event) => event.id),
		['u1'],
	);
});

test('source and body mean what they mean on the agent server; kind goes to the server as kind__eq (short)', async (t) => {
	const items: Item[] = [
		message('m1', '2026-01-01T10:00:01', 'Please fix the FLAKY test'),
		message('m2', '2026-01-01T10:00:02', 'flaky again?', 'agent'),
		// The word in an action's thought is not message text: body does not find it.
		{kind: 'ActionEvent', id: 'a1', timestamp: '2026-01-01T10:00:03', source: 'agent', thought: [{type: 'text', text: 'the flaky one'}], thinking_blocks: [], action: null, tool_name: 'terminal', tool_call_id: 'c1', tool_call: {id: 'c1', name: 'terminal', arguments: '{}', origin: 'completion'}, llm_response_id: 'r1'},
		pause('p1', '2026-01-01T10:00:04'),
	];
	const {client, requests} = await storedServer(t, (_pageId, query) => ({items: items.filter((item) => !query.get('kind__eq') || item.kind === query.get('kind__eq')), next_page_id: null}));
	const read = (filter: {kind?: string; source?: string; body?: string}) => readStoredHistory({client: client.storedEvents, conversationId, filter}).then((events) => events.map((event) => event.id));
	assert.deepEqual(await read({body: 'flaky'}), ['m1', 'm2']);
	assert.deepEqual(await read({body: 'flaky', source: 'user'}), ['m1']);
	assert.deepEqual(await read({source: 'agent'}), ['m2', 'a1']);
	assert.deepEqual(await read({kind: 'openhands.sdk.event.llm_convertible.action.ActionEvent'}), ['a1']);
	assert.equal(requests.at(-1)?.searchParams.get('kind__eq'), 'ActionEvent', 'sent short');
	assert.ok(requests.every((url) => !url.searchParams.has('source') && !url.searchParams.has('body')), 'the route has no source or body filter');
});

test('each page is one request through the pace (the budget); a page read alone is one request', async (t) => {
	const {client, requests} = await storedServer(t, (pageId) => {
		const start = Number(pageId ?? 0);
		const items = Array.from({length: 3}, (_, index) => pause(`e${start + index}`, `2026-01-01T10:00:${String(start + index).padStart(2, '0')}`));
		return {items, next_page_id: start + 3 < 9 ? String(start + 3) : null};
	});
	let paced = 0;
	const pace: Pace = (task) => {
		paced++;
		return task(new AbortController().signal);
	};
	const pages: number[] = [];
	const events = await readStoredHistory({client: client.storedEvents, conversationId, limit: 3, pace, onPage: (progress) => pages.push(progress.pages)});
	assert.equal(events.length, 9);
	assert.equal(paced, 3);
	assert.equal(requests.length, 3);
	assert.deepEqual(pages, [1, 2, 3]);
	const newest = await readStoredPage({client: client.storedEvents, conversationId, sortOrder: 'TIMESTAMP_DESC', limit: 3, pace});
	assert.equal(paced, 4);
	assert.equal(newest.received, 3);
	assert.equal(settleEvent(newest.events[0]!).kind, 'PauseEvent');
	assert.equal(newest.nextPageId, '3');
});

test('a log filled from the stored copy: a later read adds only what is new', async (t) => {
	let extra = false;
	const {client} = await storedServer(t, () => ({items: [pause('a', '2026-01-01T10:00:00'), ...(extra ? [pause('b', '2026-01-01T10:00:01')] : [])], next_page_id: null}));
	const log = new EventLog();
	await readStoredHistory({client: client.storedEvents, conversationId, log});
	const first = log.version;
	await readStoredHistory({client: client.storedEvents, conversationId, log});
	assert.equal(log.version, first, 'the same events again change nothing');
	extra = true;
	await readStoredHistory({client: client.storedEvents, conversationId, log});
	assert.deepEqual(
		log.toArray().map((event) => event.id),
		['a', 'b'],
	);
});

test('historySource: the agent server only while the sandbox runs and says where', () => {
	assert.equal(historySource({sandbox_status: 'RUNNING', conversation_url: 'http://x/api/conversations/1'}), 'agent-server');
	assert.equal(historySource({sandbox_status: 'RUNNING', conversation_url: null}), 'stored');
	for (const status of ['PAUSED', 'MISSING', 'ERROR', 'STARTING', 'SOMETHING_NEW']) assert.equal(historySource({sandbox_status: status, conversation_url: null}), 'stored');
});

import {test, mock} from 'node:test';
import assert from 'node:assert/strict';
import {getEventListeners} from 'node:events';
import {sleep, sleepUnlessAborted} from '../source/wire/abortable-sleep.js';
import {ConversationPoller, type PollerClient} from '../source/state/conversation-poller.js';
import {RequestBudget} from '../source/state/request-budget.js';
import {appConversationSchema, type AppConversation} from '../source/wire/schemas/app.js';
import {hexId} from './helpers/fixtures.js';

/**
 * Waits on a signal that lives as long as the dashboard must not leave listeners on it: the list
 * poller's spacing waits did, and after ~11 of them Node printed `MaxListenersExceededWarning`
 * over the frame. Time is mocked: 1,000 waits take no real time.
 */

const flush = async () => {
	for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
};

const listeners = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;

test('1,000 waits on one long-lived signal leave no listener behind', async (t) => {
	mock.timers.enable({apis: ['setTimeout', 'Date'], now: 1_000_000});
	t.after(() => mock.timers.reset());
	const lifetime = new AbortController();
	let finished = 0;
	for (let index = 0; index < 1000; index++) {
		const wait = (index % 2 === 0 ? sleep : sleepUnlessAborted)(100, lifetime.signal).then(() => finished++);
		// While it waits, the wait listens (it can be cut short) ...
		assert.equal(listeners(lifetime.signal), 1);
		mock.timers.tick(100);
		await wait;
		// ... and once it is over, it no longer does.
		assert.equal(listeners(lifetime.signal), 0, `after wait ${index + 1}`);
	}

	assert.equal(finished, 1000);
});

test('an abort ends a wait at once and removes its listener', async (t) => {
	mock.timers.enable({apis: ['setTimeout', 'Date'], now: 1_000_000});
	t.after(() => mock.timers.reset());
	const first = new AbortController();
	const rejected = sleep(60_000, first.signal);
	first.abort(new Error('closed'));
	await assert.rejects(rejected, /closed/);
	assert.equal(listeners(first.signal), 0);

	const second = new AbortController();
	let resolved = false;
	const quiet = sleepUnlessAborted(60_000, second.signal).then(() => {
		resolved = true;
	});
	await flush();
	assert.equal(resolved, false, 'still waiting before the abort');
	second.abort();
	await quiet;
	assert.equal(resolved, true);
	// An already aborted signal: no wait, no listener.
	await assert.rejects(sleep(10, first.signal), /closed/);
	await sleepUnlessAborted(10, second.signal);
	assert.equal(listeners(first.signal) + listeners(second.signal), 0);
});


function conversation(n: number): AppConversation {
	return appConversationSchema.parse({
		id: hexId(n),
		title: `Conversation ${n}`,
		sandbox_id: 'sb1',
		sandbox_status: 'RUNNING',
		execution_status: 'running',
		created_at: new Date(Date.now() - n * 1000).toISOString(),
		updated_at: new Date(Date.now() - 1000).toISOString(),
	});
}

test('the list poller spaces 1,000+ search pages on its lifetime signal without collecting listeners', async (t) => {
	mock.timers.enable({apis: ['setTimeout', 'Date'], now: Date.parse('2026-11-22T12:00:00Z')});
	t.after(() => mock.timers.reset());
	const pageCount = 1100;
	let pagesServed = 0;
	let lifetime: AbortSignal | undefined;
	const peaks: number[] = [];
	const client: PollerClient = {
		async *searchConversationPages(params) {
			lifetime = params?.signal;
			for (let page = 1; page <= pageCount; page++) {
				pagesServed++;
				if (lifetime) peaks.push(listeners(lifetime));
				yield {items: [conversation(page)], nextPageId: page === pageCount ? null : `p${page + 1}`};
			}
		},
		getConversations: async (ids) => ids.map(() => null),
		listSandboxes: async () => [],
		getSandboxes: async (ids) => ids.map(() => null),
		listSandboxSpecs: async () => [],
	};
	// A generous budget keeps the spacing at 1 ms, so the 1,100 waits are 1,100 short ticks.
	const budget = new RequestBudget({perSecond: 100_000, perMinute: 100_000, guardMs: 0});
	const poller = new ConversationPoller({
		client,
		budget,
		pollShare: 1,
		sink: {conversations() {}, removed() {}, sandboxes() {}, specs() {}, invalid() {}, health() {}},
		intervals: {searchMs: 3_600_000, refreshMs: 3_600_000, sandboxesMs: 3_600_000, specsMs: 3_600_000},
	});
	t.after(() => {
		poller.close();
		budget.close();
	});
	poller.start();
	for (let step = 0; step < 5 * pageCount && pagesServed < pageCount; step++) {
		mock.timers.tick(1);
		await flush();
	}

	assert.equal(pagesServed, pageCount, 'the walk went through every page, each after a spacing wait');
	assert.ok(lifetime, 'the poller passed its lifetime signal to the walk');
	assert.ok(Math.max(...peaks) <= 1, `listeners on the poller's signal stayed flat (peak ${Math.max(...peaks)})`);
	assert.equal(listeners(lifetime), 0);
});

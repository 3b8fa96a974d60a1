import {test, mock} from 'node:test';
import assert from 'node:assert/strict';
import {ConversationPoller, type PollerClient} from '../source/state/conversation-poller.js';
import {RequestBudget} from '../source/state/request-budget.js';

/**
 * The first screen needs the conversations, the sandboxes and the specs: the poller sends the
 * first request of each kind at once, and spaces everything after that to its budget share
 * (100/min × 0.6 → one request a second). Time is mocked.
 */

const flush = async () => {
	for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
};

test('start-up: conversations, sandboxes and specs in the first instant; later requests spaced', async (t) => {
	const start = Date.parse('2026-11-22T12:00:00Z');
	mock.timers.enable({apis: ['setTimeout', 'Date'], now: start});
	t.after(() => mock.timers.reset());
	const calls: Array<{what: string; at: number}> = [];
	const seen = (what: string) => calls.push({what, at: Date.now() - start});
	const client: PollerClient = {
		async *searchConversationPages() {
			seen('conversations');
			yield {items: [], nextPageId: null};
		},
		getConversations: async (ids) => ids.map(() => null),
		listSandboxes: async () => (seen('sandboxes'), []),
		getSandboxes: async (ids) => ids.map(() => null),
		listSandboxSpecs: async () => (seen('specs'), []),
	};
	const budget = new RequestBudget({perSecond: 10, perMinute: 100});
	const poller = new ConversationPoller({
		client,
		budget,
		sink: {conversations() {}, removed() {}, sandboxes() {}, specs() {}, invalid() {}, health() {}},
		intervals: {searchMs: 2_000, refreshMs: 3_600_000, sandboxesMs: 3_600_000, specsMs: 3_600_000},
	});
	t.after(() => {
		poller.close();
		budget.close();
	});
	poller.start();
	for (let ms = 0; ms < 50; ms += 5) {
		mock.timers.tick(5);
		await flush();
	}
	assert.deepEqual(calls.map((call) => call.what).sort(), ['conversations', 'sandboxes', 'specs'], 'all three within 50 ms of start');

	// The next walk (due after 2 s) waits out the spacing from the last request: never a burst.
	for (let ms = 0; ms < 4_000; ms += 50) {
		mock.timers.tick(50);
		await flush();
	}
	const walks = calls.filter((call) => call.what === 'conversations');
	assert.ok(walks.length >= 2, `the list was walked again (${walks.length} walks)`);
	for (let index = 1; index < calls.length; index++) {
		if (calls[index]!.at < 50) continue;
		assert.ok(calls[index]!.at - calls[index - 1]!.at >= 1_000, `spaced after start-up: ${JSON.stringify(calls)}`);
	}
});

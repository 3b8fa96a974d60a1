import {test, mock} from 'node:test';
import assert from 'node:assert/strict';
import {ConversationPoller, type PollerClient} from '../source/state/conversation-poller.js';
import {RequestBudget} from '../source/state/request-budget.js';
import {appConversationSchema, type AppConversation} from '../source/wire/schemas/app.js';
import {hexId} from './helpers/fixtures.js';

/**
 * Under a tight limit a walk of several search pages takes many seconds (its pages are spaced by
 * the budget). The look-ups that keep the rows fresh fall due meanwhile; they go between two
 * pages, not after the whole walk: against 20 requests a minute a three-page walk and the sandbox
 * list left rows 53 s without a look-up. Time is mocked.
 */

const flush = async () => {
	for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
};

function conversation(n: number): AppConversation {
	return appConversationSchema.parse({id: hexId(n), title: `Conversation ${n}`, sandbox_id: `sb${n}`, sandbox_status: 'RUNNING', execution_status: 'running'});
}

test('a look-up that falls due during a long walk goes between its pages; none goes before the first walk has found anything', async (t) => {
	const start = Date.parse('2026-11-28T22:00:00Z');
	mock.timers.enable({apis: ['setTimeout', 'Date'], now: start});
	t.after(() => mock.timers.reset());
	const calls: Array<{what: string; at: number; walk: number}> = [];
	let walks = 0;
	const client: PollerClient = {
		async *searchConversationPages() {
			const walk = ++walks;
			for (let page = 0; page < 5; page++) {
				calls.push({what: 'page', at: Date.now() - start, walk});
				yield {items: [conversation(walk * 10 + page)], nextPageId: page < 4 ? String(page + 1) : null};
			}
		},
		getConversations: async (ids) => {
			calls.push({what: 'lookup', at: Date.now() - start, walk: walks});
			return ids.map((id) => conversation(Number.parseInt(id.slice(-4), 16) || 0));
		},
		listSandboxes: async () => [],
		getSandboxes: async (ids) => ids.map(() => null),
		listSandboxSpecs: async () => [],
	};
	const budget = new RequestBudget({perSecond: 10, perMinute: 100});
	// Polling may use an eighth of the minute: its requests go 5 s apart, as under a tight limit.
	const poller = new ConversationPoller({client, budget, pollShare: 0.12, sink: {conversations() {}, removed() {}, sandboxes() {}, specs() {}, invalid() {}, health() {}}});
	t.after(() => {
		poller.close();
		budget.close();
	});
	poller.start();
	while (walks < 2 || calls.filter((call) => call.what === 'page' && call.walk === 2).length < 5) {
		mock.timers.tick(100);
		await flush();
		assert.ok(Date.now() - start < 300_000, `two walks within five minutes: ${JSON.stringify(calls)}`);
	}

	const pagesOf = (walk: number) => calls.filter((call) => call.what === 'page' && call.walk === walk);
	const between = (walk: number) => {
		const pages = pagesOf(walk);
		return calls.filter((call) => call.what === 'lookup' && call.at > pages[0]!.at && call.at < pages.at(-1)!.at);
	};
	// The first walk: nothing is known before it, so no look-up is due during it.
	assert.equal(between(1).length, 0, JSON.stringify(calls));
	// The second walk takes 20 s and more: the look-ups due every 5 s go between its pages.
	assert.ok(pagesOf(2).at(-1)!.at - pagesOf(2)[0]!.at >= 20_000, JSON.stringify(pagesOf(2)));
	assert.ok(between(2).length >= 2, `look-ups during the second walk: ${JSON.stringify(calls.filter((call) => call.at >= pagesOf(2)[0]!.at))}`);
});

import {test, mock} from 'node:test';
import assert from 'node:assert/strict';
import {ConversationPoller, type PollerClient} from '../source/state/conversation-poller.js';
import {RequestBudget} from '../source/state/request-budget.js';
import {appConversationSchema, type AppConversation} from '../source/wire/schemas/app.js';
import {hexId} from './helpers/fixtures.js';

/**
 * A refresh (ctrl-r, and every accepted action: approve, reject, message) must not push back an
 * operation already waiting its turn. It did: each refresh made the first sandbox list due "now"
 * again, behind the walk and the look-ups, so a user acting quickly after start-up kept the
 * sandboxes unknown and `P` said "Nothing to pause (30 skipped)". On Node 24 the start-up's
 * timing hit it every time in test/e2e-triage.test.ts. Time is mocked.
 */

const flush = async () => {
	for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
};

function conversation(n: number): AppConversation {
	return appConversationSchema.parse({id: hexId(n), title: `Conversation ${n}`, sandbox_id: `sb${n}`, sandbox_status: 'RUNNING', execution_status: 'running'});
}

test('refreshes every few hundred ms right after start: the sandbox list still comes within seconds', async (t) => {
	mock.timers.enable({apis: ['setTimeout', 'Date'], now: Date.parse('2026-11-25T07:00:00Z')});
	t.after(() => mock.timers.reset());
	const calls: Array<{what: string; at: number}> = [];
	const at = () => Date.now() - Date.parse('2026-11-25T07:00:00Z');
	const client: PollerClient = {
		async *searchConversationPages() {
			calls.push({what: 'walk', at: at()});
			yield {items: [1, 2, 3].map(conversation), nextPageId: null};
		},
		getConversations: async (ids) => {
			calls.push({what: 'lookup', at: at()});
			return ids.map(() => null);
		},
		listSandboxes: async () => {
			calls.push({what: 'sandboxes', at: at()});
			return [];
		},
		getSandboxes: async (ids) => ids.map(() => null),
		listSandboxSpecs: async () => {
			calls.push({what: 'specs', at: at()});
			return [];
		},
	};
	// The hosted service's budget: requests about a second apart.
	const budget = new RequestBudget({perSecond: 10, perMinute: 100});
	const poller = new ConversationPoller({client, budget, sink: {conversations() {}, removed() {}, sandboxes() {}, specs() {}, invalid() {}, health() {}}});
	t.after(() => {
		poller.close();
		budget.close();
	});
	poller.start();
	// A user opening a conversation, rejecting, messaging: a refresh every 400 ms for 10 s.
	for (let ms = 0; ms < 10_000; ms += 100) {
		if (ms > 0 && ms % 400 === 0) poller.refresh();
		mock.timers.tick(100);
		await flush();
	}

	const first = calls.find((call) => call.what === 'sandboxes');
	assert.ok(first, `the sandbox list was asked for: ${JSON.stringify(calls)}`);
	assert.ok(first.at <= 3000, `the sandbox list came at ${first.at} ms, after ${JSON.stringify(calls.filter((call) => call.at <= first.at))}`);
	// The refreshes were not ignored either: the walk ran again.
	assert.ok(calls.filter((call) => call.what === 'walk').length >= 2, JSON.stringify(calls));
});

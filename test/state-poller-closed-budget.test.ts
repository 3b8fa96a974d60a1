import {test} from 'node:test';
import assert from 'node:assert/strict';
import {ConversationPoller, type PollerClient} from '../source/state/conversation-poller.js';
import {RequestBudget} from '../source/state/request-budget.js';

/** Counts what the poller asks of it; past 1,000 asks it stops answering, so a spinning poller ends instead of hanging the file. */
class CountingBudget extends RequestBudget {
	asks = 0;
	override schedule<T>(...args: Parameters<RequestBudget['schedule']>): Promise<T> {
		if (++this.asks > 1000) return new Promise<T>(() => {});
		return super.schedule(...args) as Promise<T>;
	}
}
import {appConversationSchema} from '../source/wire/schemas/app.js';
import {eventually} from './helpers/eventually.js';
import {hexId} from './helpers/fixtures.js';

/**
 * A poller whose request budget was closed under it (a headless command's server closed before
 * its store) can never send again. It used to retry at once on every refused request, each
 * refusal a settled promise: a loop of microtasks that never let a timer run, so the process
 * hung with its event loop blocked (seen as the hang watchdog ending test/cli-watch-held after a
 * failure). Now it stops polling, says why once, and the event loop goes on.
 */

test('a closed budget stops the poller: no loop of refusals, timers still run, the reason is told once', {timeout: 20_000}, async (t) => {
	let walks = 0;
	const client: PollerClient = {
		async *searchConversationPages() {
			walks++;
			yield {items: [appConversationSchema.parse({id: hexId(1), title: 'One', sandbox_id: 'sb1', sandbox_status: 'RUNNING', execution_status: 'running'})], nextPageId: null};
		},
		getConversations: async (ids) => ids.map(() => null),
		listSandboxes: async () => [],
		getSandboxes: async (ids) => ids.map(() => null),
		listSandboxSpecs: async () => [],
	};
	const budget = new CountingBudget();
	const problems: Array<string | null> = [];
	let conversations = 0;
	const poller = new ConversationPoller({
		client,
		budget,
		sink: {conversations: () => conversations++, removed() {}, sandboxes() {}, specs() {}, invalid() {}, health: (health) => problems.push(health.lastError)},
	});
	t.after(() => poller.close());
	poller.start();
	// The positive half: it polls while the budget is open.
	while (conversations === 0) await new Promise((resolve) => setTimeout(resolve, 5));
	assert.equal(walks, 1);

	const asksBefore = budget.asks;
	budget.close();
	poller.refresh();
	// The positive half first: the refusal reached the poller and it said why. `eventually` looks
	// from a timer, so seeing it also proves timers run (a loop of refusals in microtasks would
	// have asked 1,000 times before the first look).
	await eventually(() => problems.some((problem) => problem !== null && /closed/.test(problem)), 'the poller told the budget closed', {timeoutMs: 10_000});
	assert.equal(poller.health.nextRetryAt, null, 'no retry planned: the poller stopped');
	assert.ok(budget.asks - asksBefore <= 2, `asked ${budget.asks - asksBefore} times after the budget closed`);
	assert.equal(walks, 1, 'nothing was sent after the budget closed');
	assert.equal(poller.health.ok, false);
	assert.match(poller.health.lastError ?? '', /closed/);
	assert.equal(problems.filter((problem) => problem !== null && /closed/.test(problem)).length, 1, JSON.stringify(problems));
});

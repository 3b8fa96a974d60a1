import assert from 'node:assert/strict';
import {test} from 'node:test';
import {dashedId} from '../source/wire/ids.js';
import {agent, seeded, startTestSimulator, type Json} from './helpers/sim-harness.js';

/**
 * The simulator's triage cases (`triageCases`, on in the demo): classified errors as the SDK
 * sends them (rate limit retryable, quota, auth), a spender whose cost rises with no action or
 * observation, and the remedy a retryable error needs: POST …/run starts it again.
 */

const kindsOf = (events: readonly Json[]) => events.map((event) => String(event.kind));

test('classified errors: two retryable rate limits, a quota (budget spent) and an auth error, each a ConversationErrorEvent ending in error', {timeout: 30_000}, async (t) => {
	const sim = await startTestSimulator(t, {triageCases: true});
	const errored = sim.world.conversationList().filter((conversation) => ['rate-limit', 'quota', 'auth'].includes(conversation.scenario));
	assert.deepEqual(
		errored.map((conversation) => conversation.scenario),
		['rate-limit', 'rate-limit', 'quota', 'auth'],
	);
	assert.notEqual(errored[0]!.title, errored[1]!.title, 'the two rate limits read differently');
	for (const conversation of errored) {
		assert.equal(sim.world.findSandbox(conversation.sandboxId)?.status, 'RUNNING', 'their sandboxes run: run can reach them');
		const events = sim.world.events(conversation) as readonly Json[];
		assert.equal(conversation.executionStatus, 'error');
		const error = [...events].reverse().find((event) => event.kind === 'ConversationErrorEvent');
		assert.ok(error, `${conversation.scenario} has its error event`);
		const expected = {'rate-limit': ['rate_limit', true, 'retry'], quota: ['quota', false, 'settings'], auth: ['auth', false, 'settings']}[conversation.scenario as 'quota'];
		assert.deepEqual([error.classification.kind, error.classification.retryable, error.classification.user_action], expected);
	}
	const quota = sim.world.usage(errored[2]!).metrics;
	assert.equal(quota.maxBudget, 2);
	assert.ok(quota.cost >= 2, `the quota case spent its budget: $${quota.cost}`);
	// Their sandboxes are those of other live conversations: the running-sandbox count is the usual one.
	const running = new Set(sim.world.liveConversations().map((conversation) => conversation.sandboxId));
	assert.ok(running.size <= sim.world.options.maxRunningSandboxes);
});

test('POST run on a retryable error starts it again, and it gets on with the work', {timeout: 30_000}, async (t) => {
	const sim = await startTestSimulator(t, {triageCases: true});
	const {conversation, row} = await seeded(sim, 'rate-limit');
	assert.equal(conversation.executionStatus, 'error');
	const ran = await agent(row, `/api/conversations/${dashedId(conversation.id)}/run`, {method: 'POST'});
	assert.equal(ran.status, 200, ran.text);
	assert.equal(conversation.executionStatus, 'running');
	const before = sim.world.events(conversation).length;
	sim.step(10);
	const after = sim.world.events(conversation).slice(before) as readonly Json[];
	assert.ok(kindsOf(after).includes('ActionEvent'), `it acts again: ${kindsOf(after).join(', ')}`);
	assert.equal(conversation.executionStatus, 'finished');
});

test('the spender: cost rises with every step, messages and stats arrive, no action and no observation', {timeout: 30_000}, async (t) => {
	const sim = await startTestSimulator(t, {triageCases: true});
	const {conversation} = await seeded(sim, 'spender');
	assert.equal(conversation.executionStatus, 'running');
	const before = sim.world.events(conversation).length;
	const cost = sim.world.usage(conversation).metrics.cost;
	assert.equal(sim.world.usage(conversation).metrics.maxBudget, 5);
	sim.step(12);
	const kinds = kindsOf(sim.world.events(conversation).slice(before) as readonly Json[]);
	assert.ok(sim.world.usage(conversation).metrics.cost > cost, 'the cost rose');
	assert.ok(kinds.includes('MessageEvent') && kinds.includes('ConversationStateUpdateEvent'), kinds.join(', '));
	assert.ok(!kinds.includes('ActionEvent') && !kinds.includes('ObservationEvent'), kinds.join(', '));
});

test('without triageCases the seeded population is the one the other tests count on', {timeout: 30_000}, async (t) => {
	const sim = await startTestSimulator(t);
	assert.ok(!sim.world.conversationList().some((conversation) => ['rate-limit', 'quota', 'auth', 'spender'].includes(conversation.scenario)));
});

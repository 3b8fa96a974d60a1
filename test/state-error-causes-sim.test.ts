import {test} from 'node:test';
import assert from 'node:assert/strict';
import {selectConversationKeys} from '../source/state/conversation-query.js';
import type {DashboardSnapshot} from '../source/state/dashboard-types.js';
import {setStatus} from '../source/simulator/agent-runtime.js';
import type {Simulator} from '../source/simulator/server.js';
import type {SimConversation} from '../source/simulator/world-types.js';
import {attentionLong} from '../source/view/attention-text.js';
import {conversationCells, conversationColumns} from '../source/view/conversation-cells.js';
import {normalizeId} from '../source/wire/ids.js';
import {dashboardOnSimulator} from './helpers/sim-dashboard.js';
import {eventually} from './helpers/eventually.js';
import {waitForSnapshot} from './helpers/store-wait.js';

/**
 * Why it failed (issue 21.3), against the simulator over loopback: the store reads each errored
 * conversation's newest ConversationErrorEvent from the app server's stored copy (one request
 * each, once), and the list says it (`error · rate limit · retryable`), the preview says the
 * error itself (issue 23.7: not just "stopped with an error for 29d"), and `error:<kind>` filters.
 */

/** Event searches: the running conversations' causes come from their agent servers, not the app server's budget. */
const searches = (sim: Simulator) =>
	Object.entries(sim.stats.byRoute)
		.filter(([route]) => route.endsWith('/events/search'))
		.reduce((sum, [, count]) => sum + count, 0);
const storedSearches = (sim: Simulator) => sim.stats.byRoute['GET /api/v1/conversation/:id/events/search'] ?? 0;

function errOut(sim: Simulator, conversation: SimConversation, code: string, detail: string, classification: Record<string, unknown>): void {
	sim.world.appendEvent(conversation, {kind: 'ConversationErrorEvent', source: 'environment', code, detail, classification} as never);
	setStatus(sim.world, conversation, 'error');
}

test('errored rows say why, the preview says the error, error:<kind> filters, one request per error', async (t) => {
	const {sim, store} = await dashboardOnSimulator(t, {seed: 7, tickMs: 0, conversations: 30});
	const live = (scenario: string) => sim.world.conversationList().find((row) => row.scenario === scenario && sim.world.findSandbox(row.sandboxId)?.status === 'RUNNING')!;
	const rate = live('coding');
	const quota = live('condensing');
	const crash = live('crash');
	sim.world.events(crash);
	errOut(sim, rate, 'LLMRateLimitError', 'litellm.RateLimitError: 429 Too Many Requests\nretry after 20 s', {kind: 'rate_limit', retryable: true, user_action: 'retry'});
	errOut(sim, quota, 'MaxBudgetReached', 'Current total cost ($10.04) exceeds the maximum budget per task ($10.00).', {kind: 'quota', retryable: false, user_action: 'settings'});
	const keys = [rate, quota, crash].map((conversation) => normalizeId(conversation.id));
	const known = (snapshot: DashboardSnapshot) => keys.every((key) => snapshot.conversations.get(key)?.errorCause !== undefined);
	const snapshot = await waitForSnapshot(store, known, 'the three causes');
	const row = (key: string) => snapshot.conversations.get(key)!;

	const rateRow = row(keys[0]!);
	assert.equal(rateRow.errorCause?.classification?.kind, 'rate_limit');
	const errorReason = rateRow.attention.find((reason) => reason.kind === 'error');
	assert.equal(errorReason?.kind === 'error' && errorReason.cause?.code, 'LLMRateLimitError');
	// The list: the reason with its cause where there is room, the kind of failure where there is little.
	const wide = conversationCells(rateRow, conversationColumns(160), Date.now());
	assert.match(wide.reason, /^! error( \S+)? · rate limit · retryable · $/);
	assert.equal(conversationCells(row(keys[1]!), conversationColumns(200), Date.now()).reason.replace(/error \S+ ·/, 'error ·'), '! error · quota: raise the budget · ');
	assert.equal(conversationCells(row(keys[1]!), conversationColumns(160), Date.now()).reason, '! quota: raise the budget · ');
	assert.equal(conversationCells(rateRow, conversationColumns(80), Date.now()).reason, '! rate limit · ');
	// The preview: the error itself, with its classification.
	const long = attentionLong(errorReason!, Date.now());
	assert.match(long, /^the agent stopped with an error for \S+: rate limit · retryable: LLMRateLimitError: litellm\.RateLimitError: 429 Too Many Requests$/);
	// The seeded crash: whatever kind it drew, it is the world's own last error.
	const crashCause = row(keys[2]!).errorCause!;
	const worldError = sim.world.events(crash).findLast((event) => event.kind === 'ConversationErrorEvent')!;
	assert.equal(crashCause.eventId, worldError.id);
	assert.equal(crashCause.classification?.kind, (worldError.classification as {kind: string}).kind);

	// error:<kind> filters on the cause; a code prefix works too; `none` is an error without a classification.
	assert.deepEqual(selectConversationKeys(snapshot, 'error:rate_limit'), [keys[0]]);
	assert.deepEqual(selectConversationKeys(snapshot, 'error:quota'), [keys[1]]);
	assert.deepEqual(selectConversationKeys(snapshot, 'error:maxbudget'), [keys[1]]);
	assert.deepEqual([...selectConversationKeys(snapshot, 'error:rate,quota')].sort(), [keys[0], keys[1]].sort());
	assert.deepEqual(selectConversationKeys(snapshot, 'error:none'), []);
	assert.ok(selectConversationKeys(snapshot, 'error:').length > 3, 'an empty error: term filters nothing');

	// One request per errored conversation, not one per poll; running ones ask their agent server.
	const requests = searches(sim);
	assert.ok(requests >= 3 && requests <= 4, `${requests} requests`);
	assert.equal(storedSearches(sim), 0, 'nothing from the app server\'s budget for running conversations');
	const lookups = () => sim.stats.byRoute['GET /api/v1/app-conversations'] ?? 0;
	const seen = lookups();
	await eventually(lookups, 'three more look-up rounds', {until: (count) => count >= seen + 3, timeoutMs: 20_000});
	assert.equal(searches(sim), requests, 'causes are not read again');
});

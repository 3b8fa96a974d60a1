import assert from 'node:assert/strict';
import {test} from 'node:test';
import {computeAttention} from '../source/state/attention.js';
import {causeJson, causeOf} from '../source/state/causes.js';
import {buildRow} from '../source/state/conversation-rows.js';
import {deadGroup, deadGroupLine, isDead} from '../source/state/dead-group.js';
import {planDelete, runDeletePlan} from '../source/state/delete-plan.js';
import {RequestBudget} from '../source/state/request-budget.js';
import {causeLabel} from '../source/view/triage/cause-words.js';
import type {AppConversation} from '../source/wire/schemas/app.js';
import {AppClient} from '../source/wire/app-client.js';
import {startSimulator} from '../source/simulator/server.js';
import {dashboardOnSimulator} from './helpers/sim-dashboard.js';
import {waitForSnapshot} from './helpers/store-wait.js';

/**
 * The dead group's rule (ERROR/MISSING, unchanged `deadAfterMs`, on a clock the data confirms),
 * the STARTING cause (`startingAfterMs`, with the runtime's reason), and the delete plan (a shared
 * sandbox kept, a changed row dropped on the re-read) against the simulator.
 */

const day = 86_400_000;
const now = Date.parse('2026-11-28T12:00:00Z');

function conversation(fields: Partial<AppConversation> & {id: string}): AppConversation {
	return {title: 't', sandbox_id: `s${fields.id}`, sandbox_status: 'ERROR', execution_status: null, updated_at: new Date(now - 8 * day).toISOString(), ...fields} as AppConversation;
}

test('dead: ERROR or MISSING, unchanged for deadAfterMs, and only on a confirmed clock', () => {
	const old = now - 8 * day;
	assert.equal(isDead({sandboxStatus: 'ERROR', lastActivityAt: old, now, ageBasis: 'known'}), true);
	assert.equal(isDead({sandboxStatus: 'MISSING', lastActivityAt: old, now, ageBasis: 'known'}), true);
	// An age from a clock the data does not confirm decides nothing.
	assert.equal(isDead({sandboxStatus: 'ERROR', lastActivityAt: old, now, ageBasis: 'assumed'}), false);
	assert.equal(isDead({sandboxStatus: 'ERROR', lastActivityAt: old, now, ageBasis: 'unknown'}), false);
	assert.equal(isDead({sandboxStatus: 'ERROR', lastActivityAt: now - 6 * day, now, ageBasis: 'known'}), false);
	assert.equal(isDead({sandboxStatus: 'ERROR', lastActivityAt: now - 6 * day, now, ageBasis: 'known', deadAfterMs: 5 * day}), true);
	assert.equal(isDead({sandboxStatus: 'PAUSED', lastActivityAt: old, now, ageBasis: 'known'}), false);
	assert.equal(isDead({sandboxStatus: 'ERROR', lastActivityAt: null, now, ageBasis: 'known'}), false);
});

test('a dead row needs nobody (no reason, outside !) and is in the dead group; on an assumed clock it stays a cause', () => {
	const facts = {now, quietAfterMs: 600_000, unseenEvents: 0};
	const dead = buildRow(undefined, conversation({id: 'a'.repeat(32)}), {...facts, ageBasis: 'known'});
	assert.deepEqual(dead.attention, []);
	assert.deepEqual(dead.dead, {afterMs: 7 * day});
	const assumed = buildRow(undefined, conversation({id: 'b'.repeat(32)}), {...facts, ageBasis: 'assumed'});
	assert.equal(assumed.dead, undefined);
	assert.equal(assumed.attention[0]?.kind, 'sandbox_error');
	const group = deadGroup({conversations: new Map([[dead.key, dead], [assumed.key, assumed]])});
	assert.deepEqual(group.keys, [dead.key]);
	assert.equal(deadGroupLine(group, 'D'), '☠ 1 dead (ERROR/MISSING, unchanged 7d+) — D to clear');
	assert.equal(deadGroupLine(deadGroup({conversations: new Map()}), 'D'), null);
});

test('a sandbox STARTING past startingAfterMs is a cause "sandbox not starting: <status_detail>"; before, or on an unknown clock, not', () => {
	const starting = conversation({id: 'c'.repeat(32), sandbox_status: 'STARTING', updated_at: new Date(now - 11 * 60_000).toISOString()});
	const detail = '0/3 nodes are available: insufficient cpu';
	const reasons = computeAttention({conversation: starting, now, sandboxDetail: detail});
	assert.deepEqual(reasons, [{kind: 'sandbox_error', status: 'STARTING', since: now - 11 * 60_000, detail}]);
	const row = {key: 'c'.repeat(32), conversation: starting, agentStatus: null, agentStatusLastKnown: false, attention: reasons, lastActivityAt: now - 11 * 60_000, unseenEvents: 0};
	const cause = causeOf(row)!;
	assert.equal(causeLabel(cause), `sandbox not starting: ${detail}`);
	assert.deepEqual(causeJson(cause), {key: `sandbox:STARTING:${detail}`, kind: 'sandbox_down', sandbox_status: 'STARTING', detail, since: new Date(now - 11 * 60_000).toISOString()});
	// Configurable, and nothing before it.
	assert.deepEqual(computeAttention({conversation: starting, now, sandboxDetail: detail, startingAfterMs: 15 * 60_000}), []);
	assert.deepEqual(computeAttention({conversation: {...starting, updated_at: new Date(now - 9 * 60_000).toISOString()}, now, sandboxDetail: detail}), []);
	assert.deepEqual(computeAttention({conversation: starting, now, sandboxDetail: detail, agesKnown: false}), []);
});

test('the plan keeps a sandbox another conversation uses and spends nothing on a MISSING one', () => {
	const a = conversation({id: '1'.repeat(32), sandbox_id: 'shared'});
	const b = conversation({id: '2'.repeat(32), sandbox_id: 'own'});
	const c = conversation({id: '3'.repeat(32), sandbox_id: 'gone', sandbox_status: 'MISSING'});
	const other = conversation({id: '4'.repeat(32), sandbox_id: 'shared', sandbox_status: 'RUNNING'});
	const plan = planDelete([a, b, c], [a, b, c, other]);
	assert.deepEqual(plan.targets.map((target) => target.id), [a.id, b.id, c.id]);
	assert.deepEqual(plan.sandboxIds, ['own']);
});

test('against the simulator: the re-read drops a row that changed since the plan; the others and their sandboxes are deleted', {timeout: 60_000}, async (t) => {
	const sim = await startSimulator({port: 0, tickMs: 0, conversations: 4, historyDays: 10});
	t.after(() => sim.close());
	const client = new AppClient({baseUrl: sim.baseUrl, apiKey: sim.apiKey, maxRetries: 0});
	t.after(() => client.close());
	const budget = new RequestBudget();
	t.after(() => budget.close());
	const listed = await client.listConversations();
	const errors = listed.filter((row) => row.sandbox_status === 'ERROR').slice(0, 3);
	assert.equal(errors.length, 3);
	const plan = planDelete(errors, listed);
	// One changes after it was listed (a newer updated_at): it must be left out.
	const changed = sim.world.findConversation(errors[1]!.id)!;
	changed.updatedAt = sim.world.now();
	const progress: string[] = [];
	const outcome = await runDeletePlan(client, budget, plan, (item) => progress.push(`${item.kind}:${'what' in item ? item.what : item.reason}`));
	assert.deepEqual(outcome.dropped, [errors[1]!.id]);
	assert.deepEqual(outcome.deleted, [errors[0]!.id, errors[2]!.id]);
	assert.equal(outcome.sandboxesDeleted.length, 2);
	assert.ok(sim.world.findConversation(errors[1]!.id), 'the changed one is still there');
	assert.equal(sim.world.findConversation(errors[0]!.id), undefined);
	assert.equal(sim.world.findConversation(errors[2]!.id), undefined);
	assert.equal(sim.world.findSandbox(errors[1]!.sandbox_id!)?.status, 'ERROR', 'its sandbox too');
	assert.deepEqual(progress, ['dropped:changed', 'deleted:sandbox', 'deleted:conversation', 'deleted:sandbox', 'deleted:conversation']);
	assert.equal(sim.world.conversationList().length, listed.length - 2);
});

test('against the simulator with a month of history: the store puts every old ERROR/MISSING conversation in the dead group, none in !', {timeout: 60_000}, async (t) => {
	const {sim, store} = await dashboardOnSimulator(t, {seed: 2, tickMs: 0, conversations: 12, historyDays: 30});
	const cutoff = sim.world.now() - 7 * day;
	const expected = sim.world.conversationList().filter((row) => ['ERROR', 'MISSING'].includes(sim.world.findSandbox(row.sandboxId)?.status ?? 'MISSING') && row.updatedAt <= cutoff);
	assert.ok(expected.length > 30, String(expected.length));
	const snapshot = await waitForSnapshot(store, (current) => deadGroup(current).keys.length === expected.length, `${expected.length} dead`);
	assert.deepEqual(new Set(deadGroup(snapshot).keys), new Set(expected.map((row) => row.id)));
	for (const key of deadGroup(snapshot).keys) assert.deepEqual(snapshot.conversations.get(key)!.attention, []);
	// The recent failures are still a cause.
	assert.ok([...snapshot.conversations.values()].some((row) => !row.dead && row.attention[0]?.kind === 'sandbox_error' && row.conversation.sandbox_status === 'ERROR'));
});

import assert from 'node:assert/strict';
import {test, type TestContext} from 'node:test';
import {subAgentTitles, unknownDetail} from '../source/simulator/seed-fleet.js';
import {errorSandboxDetail} from '../source/simulator/seed-world.js';
import type {ConversationRow, DashboardSnapshot} from '../source/state/dashboard-types.js';
import {selectConversationTree} from '../source/state/conversation-tree.js';
import {dashboardOnSimulator} from './helpers/sim-dashboard.js';
import {waitForSnapshot} from './helpers/store-wait.js';

/**
 * The dashboard store against the simulator's 2026 fleet (fleetShapes) over real HTTP: the
 * sub-agents it now lists, a child waiting for approval raising its parent until it is approved,
 * and sandboxes' reasons (status_detail) and UNKNOWN on the rows that use them.
 */

const setup = (t: TestContext) => dashboardOnSimulator(t, {seed: 3, tickMs: 0, sandboxTransitionMs: 50, fleetShapes: true}, {dashboard: (sim) => ({secrets: [sim.apiKey]})});

const byTitle = (snapshot: DashboardSnapshot, title: string): ConversationRow | undefined => [...snapshot.conversations.values()].find((row) => row.conversation.title === title);

test('sub-agents are listed; the one waiting for approval raises its parent, naming it, until it is approved', {timeout: 60_000}, async (t) => {
	const {store, controller} = await setup(t);
	const loaded = await waitForSnapshot(store, (s) => byTitle(s, subAgentTitles.waiting)?.agentStatus === 'waiting_for_confirmation' && s.sandboxesListed, 'the waiting sub-agent');
	const waiting = byTitle(loaded, subAgentTitles.waiting)!;
	const parentKey = waiting.conversation.parent_conversation_id!;
	const parent = loaded.conversations.get(parentKey)!;
	assert.ok(parent, 'its parent is listed');
	const first = parent.attention[0];
	assert.equal(first?.kind, 'sub_agent', JSON.stringify(parent.attention));
	assert.ok(first?.kind === 'sub_agent');
	assert.deepEqual(first.child, {key: waiting.key, title: subAgentTitles.waiting});
	assert.equal(first.reason.kind, 'waiting_for_confirmation');
	// In the list: the parent among the first, its children right under it, the waiting one first.
	const tree = selectConversationTree(loaded, '', 'attention');
	const at = tree.keys.indexOf(parentKey);
	assert.equal(tree.keys[at + 1], waiting.key);
	assert.equal(tree.nodes.get(parentKey)?.children, 3);
	assert.ok(tree.keys.indexOf(parentKey) < tree.keys.findIndex((key) => loaded.conversations.get(key)?.agentStatus === 'stuck'), 'ahead of the stuck run');

	await controller.approve!(waiting.key);
	const calm = await waitForSnapshot(store, (s) => s.conversations.get(waiting.key)?.agentStatus !== 'waiting_for_confirmation', 'the sub-agent back at work');
	const after = await waitForSnapshot(store, (s) => !s.conversations.get(parentKey)!.attention.some((reason) => reason.kind === 'sub_agent'), 'the parent no longer raised');
	assert.notEqual(calm.conversations.get(waiting.key)?.agentStatus, 'waiting_for_confirmation');
	assert.deepEqual(after.conversations.get(parentKey)!.attention, []);
});

test('a sandbox says why on its conversations: ERROR and a stuck STARTING with their reason; a running one whose provider goes UNKNOWN raises it', {timeout: 60_000}, async (t) => {
	const {sim, store} = await setup(t);
	const loaded = await waitForSnapshot(
		store,
		(s) => s.sandboxesListed && [...s.conversations.values()].some((row) => row.sandboxDetail === errorSandboxDetail) && byTitle(s, 'Reindex the search cluster')?.agentStatus === 'running',
		'the sandbox reasons on the rows',
	);
	const errored = [...loaded.conversations.values()].find((row) => row.conversation.sandbox_status === 'ERROR')!;
	assert.deepEqual(errored.attention.find((reason) => reason.kind === 'sandbox_error'), {kind: 'sandbox_error', status: 'ERROR', since: errored.attention.find((reason) => reason.kind === 'sandbox_error')!.since, detail: errorSandboxDetail});
	const starting = byTitle(loaded, 'Upgrade the image pipeline to Python 3.13')!;
	assert.equal(starting.attention[0]?.kind === 'sandbox_error' && starting.attention[0].detail, '0/6 nodes are available: insufficient kvm');
	const unknown = byTitle(loaded, 'Nightly dependency audit')!;
	assert.equal(unknown.conversation.sandbox_status, 'UNKNOWN');
	assert.equal(unknown.sandboxDetail, unknownDetail);
	// Its agent's last status comes from the stored copy as soon as the list shows the sandbox
	// UNKNOWN, not only once its timeline is opened: it was running, so it needs a look.
	const unknownRaised = await waitForSnapshot(store, (s) => byTitle(s, 'Nightly dependency audit')?.attention.some((reason) => reason.kind === 'sandbox_error') === true, 'the UNKNOWN sandbox raised without its timeline');
	assert.equal(unknownRaised.timeline, null, 'no timeline was opened');
	const raisedUnknown = byTitle(unknownRaised, 'Nightly dependency audit')!;
	assert.deepEqual([raisedUnknown.agentStatus, raisedUnknown.agentStatusLastKnown], ['running', true], 'the last status, from the stored copy');
	const unknownReason = raisedUnknown.attention[0];
	assert.ok(unknownReason?.kind === 'sandbox_error');
	assert.deepEqual([unknownReason.status, unknownReason.detail], ['UNKNOWN', unknownDetail]);
	// The provider goes away under a running agent: it was at work, so it needs a look now.
	const running = byTitle(loaded, 'Reindex the search cluster')!;
	assert.deepEqual(running.attention, []);
	sim.world.setSandboxStatus(sim.world.findSandbox(running.conversation.sandbox_id!)!, 'UNKNOWN', unknownDetail);
	const raised = await waitForSnapshot(store, (s) => s.conversations.get(running.key)!.attention.some((reason) => reason.kind === 'sandbox_error'), 'the outage raised');
	const row = raised.conversations.get(running.key)!;
	assert.deepEqual([row.agentStatus, row.agentStatusLastKnown, row.conversation.sandbox_status], ['running', true, 'UNKNOWN'], 'the agent was running (last known); its sandbox is UNKNOWN: two statuses, two words');
	const reason = row.attention.find((entry) => entry.kind === 'sandbox_error');
	assert.ok(reason?.kind === 'sandbox_error');
	assert.equal(reason.status, 'UNKNOWN');
});

import {test} from 'node:test';
import assert from 'node:assert/strict';
import {countConversations, parseConversationFilter, selectConversationKeys, unknownFilterStatuses} from '../source/state/conversation-query.js';
import {normalizeId} from '../source/wire/ids.js';
import {dashboardOnSimulator} from './helpers/sim-dashboard.js';
import {waitForSnapshot} from './helpers/store-wait.js';

/**
 * Agent status and sandbox status are two things. Against the simulator: pausing the sandbox of
 * an errored conversation leaves the agent's last known status (`error`) on the row, in the
 * need-you count and under `status:error`, while `sandbox:paused` selects it by its sandbox.
 */

const waitFor = waitForSnapshot;

test('pausing the sandbox of an errored conversation: still error (last known), still needs you; filters follow the columns', {timeout: 60_000}, async (t) => {
	const {store, controller} = await dashboardOnSimulator(t, {seed: 7, tickMs: 0, conversations: 30, sandboxTransitionMs: 50});
	const loaded = await waitFor(store, (snapshot) => snapshot.conversations.size === 30 && snapshot.sandboxes.size > 0, 'the list');
	const errored = [...loaded.conversations.values()].find((row) => row.conversation.execution_status === 'error' && row.conversation.sandbox_status === 'RUNNING');
	assert.ok(errored, 'the seed has an errored conversation in a running sandbox');
	assert.equal(errored.agentStatus, 'error');
	assert.equal(errored.agentStatusLastKnown, false);
	const needBefore = countConversations(loaded).needingAttention;
	assert.ok(errored.attention.some((reason) => reason.kind === 'error'));

	const sandboxKey = normalizeId(String(errored.conversation.sandbox_id));
	await controller.pauseSandbox(sandboxKey);
	const paused = await waitFor(store, (snapshot) => snapshot.conversations.get(errored.key)?.conversation.sandbox_status === 'PAUSED', 'the sandbox paused');
	const row = paused.conversations.get(errored.key)!;
	assert.equal(row.conversation.execution_status, null, 'the server sends no agent status for a paused sandbox');
	assert.equal(row.agentStatus, 'error', 'the last known agent status stays');
	assert.equal(row.agentStatusLastKnown, true);
	const reason = row.attention.find((entry) => entry.kind === 'error');
	assert.ok(reason && 'lastKnown' in reason && reason.lastKnown, `marked last known: ${JSON.stringify(row.attention)}`);
	assert.equal(countConversations(paused).needingAttention, needBefore, 'pausing a sandbox handles nothing');
	assert.equal(countConversations(paused).byStatus.get('error'), countConversations(loaded).byStatus.get('error'));

	// status: selects what the AGENT column shows, sandbox: what the SANDBOX column shows.
	assert.ok(selectConversationKeys(paused, 'status:error').includes(errored.key));
	assert.ok(selectConversationKeys(paused, 'sandbox:paused').includes(errored.key));
	assert.ok(selectConversationKeys(paused, 'agent:error sandbox:paused').includes(errored.key));
	assert.ok(!selectConversationKeys(paused, 'status:paused').includes(errored.key), 'a paused sandbox is not a paused agent');
	for (const key of selectConversationKeys(paused, 'status:paused')) assert.equal(paused.conversations.get(key)?.agentStatus, 'paused');
	for (const key of selectConversationKeys(paused, 'sandbox:paused')) assert.equal(paused.conversations.get(key)?.conversation.sandbox_status, 'PAUSED');
});

test('dashboard filter: an unknown status still filters and is reported as unknown', () => {
	assert.deepEqual(unknownFilterStatuses(parseConversationFilter('status:archived_v9 sandbox:hibernating')), ['status:archived_v9', 'sandbox:hibernating']);
	assert.deepEqual(unknownFilterStatuses(parseConversationFilter('status:wait,error sandbox:paus status:none')), [], 'prefixes of known statuses are known');
	const filter = parseConversationFilter('status:archived_v9');
	assert.deepEqual(filter.statuses, ['archived_v9']);
});

import assert from 'node:assert/strict';
import {test} from 'node:test';
import {app, startTestSimulator} from './helpers/sim-harness.js';

/**
 * The simulator's DELETE routes answer as upstream's (docs/service-behaviour.md §8.2): a
 * conversation by id (400 not a UUID, 404 unknown, success; an unshared sandbox goes with it), a
 * sandbox by `?sandbox_id=` (404 unknown).
 */

test('DELETE /app-conversations/{id}: 400 for a bad id, 404 unknown, success and its unshared sandbox gone', async (t) => {
	const sim = await startTestSimulator(t, {conversations: 4, historyDays: 3});
	const victim = sim.world.conversationList().find((conversation) => sim.world.findSandbox(conversation.sandboxId)?.status === 'ERROR')!;
	assert.ok(victim);
	const bad = await app(sim, '/api/v1/app-conversations/not-a-uuid', {method: 'DELETE'});
	assert.deepEqual([bad.status, bad.body], [400, {detail: 'Invalid conversation ID format'}]);
	const unknown = await app(sim, `/api/v1/app-conversations/${'e'.repeat(32)}`, {method: 'DELETE'});
	assert.deepEqual([unknown.status, unknown.body], [404, {detail: 'Conversation not found'}]);
	const done = await app(sim, `/api/v1/app-conversations/${victim.id}`, {method: 'DELETE'});
	assert.deepEqual([done.status, done.body], [200, {success: true}]);
	assert.equal(sim.world.findConversation(victim.id), undefined);
	assert.notEqual(sim.world.findSandbox(victim.sandboxId)?.status, 'ERROR', 'its sandbox deleted with it');
	const again = await app(sim, `/api/v1/sandboxes/${victim.sandboxId}?sandbox_id=${victim.sandboxId}`, {method: 'DELETE'});
	assert.equal(again.status, 404, 'the sandbox is gone: 404');
});

test('DELETE /sandboxes/{id}?sandbox_id=: success for a known one, 404 unknown', async (t) => {
	const sim = await startTestSimulator(t, {conversations: 4, historyDays: 3});
	const sandbox = sim.world.sandboxList().find((candidate) => candidate.status === 'ERROR')!;
	const done = await app(sim, `/api/v1/sandboxes/${sandbox.id}?sandbox_id=${sandbox.id}`, {method: 'DELETE'});
	assert.deepEqual([done.status, done.body], [200, {success: true}]);
	const unknown = await app(sim, '/api/v1/sandboxes/nope?sandbox_id=nope', {method: 'DELETE'});
	assert.equal(unknown.status, 404);
});

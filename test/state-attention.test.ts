import {test} from 'node:test';
import assert from 'node:assert/strict';
import {attentionRank, computeAttention, noAttentionRank, sameAttention, trailingRepeat} from '../source/state/attention.js';
import {appConversationSchema} from '../source/wire/schemas/app.js';
import {message, terminalAction, terminalObservation} from './helpers/event-fixtures.js';

const now = Date.parse('2026-11-22T12:00:00Z');

function conversation(fields: Record<string, unknown>) {
	return appConversationSchema.parse({
		id: 'a'.repeat(32),
		title: 'Fix tests',
		sandbox_status: 'RUNNING',
		execution_status: 'running',
		updated_at: '2026-11-22T11:59:00Z',
		...fields,
	});
}

test('a healthy running conversation needs nobody', () => {
	const reasons = computeAttention({conversation: conversation({}), now});
	assert.deepEqual(reasons, []);
	assert.equal(attentionRank(reasons), noAttentionRank);
});

test('waiting, error and stuck come with their since time, in that order of urgency', () => {
	const updated = Date.parse('2026-11-22T11:59:00Z');
	const waiting = computeAttention({conversation: conversation({execution_status: 'waiting_for_confirmation'}), now});
	assert.deepEqual(waiting, [{kind: 'waiting_for_confirmation', since: updated}]);
	const error = computeAttention({conversation: conversation({execution_status: 'error'}), now, statusSince: 42});
	assert.deepEqual(error, [{kind: 'error', since: 42}]);
	const stuck = computeAttention({conversation: conversation({execution_status: 'stuck'}), now});
	assert.ok(attentionRank(waiting) < attentionRank(error));
	assert.ok(attentionRank(error) < attentionRank(stuck));
});

test('sandbox ERROR or MISSING ranks after the execution problems, and both are listed', () => {
	const reasons = computeAttention({conversation: conversation({execution_status: 'error', sandbox_status: 'ERROR'}), now});
	assert.deepEqual(
		reasons.map((reason) => reason.kind),
		['error', 'sandbox_error'],
	);
	const missing = computeAttention({conversation: conversation({execution_status: null, sandbox_status: null}), now});
	assert.deepEqual(missing, [{kind: 'sandbox_error', status: 'MISSING', since: Date.parse('2026-11-22T11:59:00Z')}]);
	// A fresher status from the sandbox poll wins over the conversation's copy.
	const fresher = computeAttention({conversation: conversation({}), sandboxStatus: 'ERROR', now});
	assert.equal(fresher[0]?.kind, 'sandbox_error');
});

test('the stream execution status overrides the polled one', () => {
	const reasons = computeAttention({
		conversation: conversation({execution_status: 'running'}),
		executionStatus: 'waiting_for_confirmation',
		now,
	});
	assert.equal(reasons[0]?.kind, 'waiting_for_confirmation');
});

test('quiet: running in a running sandbox with no activity for quietAfterMs (configurable)', () => {
	const base = conversation({updated_at: '2026-11-22T11:45:30Z'});
	const quiet = computeAttention({conversation: base, now});
	assert.deepEqual(quiet, [{kind: 'quiet', quietForMs: 14 * 60_000}], 'whole minutes, so rows do not change every poll');
	assert.deepEqual(computeAttention({conversation: base, now, quietAfterMs: 20 * 60_000}), []);
	// Newer streamed activity resets it.
	assert.deepEqual(computeAttention({conversation: base, now, lastActivityAt: now - 1000}), []);
	// Paused or finished conversations are not "quiet".
	assert.deepEqual(computeAttention({conversation: conversation({updated_at: '2026-11-22T10:00:00Z', execution_status: 'finished'}), now}), []);
});

test('quiet while ages are not known: only from what the dashboard watched itself, said as a lower bound', () => {
	// By the Date header it has written nothing for weeks; the data disputes that clock.
	const base = conversation({updated_at: '2026-10-29T11:59:00Z'});
	assert.deepEqual(computeAttention({conversation: base, now}), [{kind: 'quiet', quietForMs: 24 * 86_400_000 + 60_000}], 'on a known clock: quiet 24d');
	assert.deepEqual(computeAttention({conversation: base, now, agesKnown: false}), [], 'not an age on a disputed clock');
	assert.deepEqual(computeAttention({conversation: base, now, agesKnown: false, quietSeenMs: 9 * 60_000}), [], 'watched 9 minutes: not yet');
	assert.deepEqual(computeAttention({conversation: base, now, agesKnown: false, quietSeenMs: 11.5 * 60_000}), [{kind: 'quiet', quietForMs: 11 * 60_000, atLeast: true}]);
	assert.equal(sameAttention([{kind: 'quiet', quietForMs: 60_000}], [{kind: 'quiet', quietForMs: 60_000, atLeast: true}]), false);
});

test('repeating: the same tool call with the same arguments three times in a row', () => {
	const events = [message('user', 'go')];
	for (let round = 0; round < 3; round++) {
		const action = terminalAction('ls -la');
		events.push(action, terminalObservation(action, 'total 0', 0));
	}

	assert.deepEqual(trailingRepeat(events), {tool: 'terminal', count: 3});
	const reasons = computeAttention({conversation: conversation({}), now, events});
	assert.deepEqual(reasons, [{kind: 'repeating', count: 3, tool: 'terminal'}]);
	// A different call at the end breaks the run.
	const broken = [...events, terminalAction('pytest')];
	assert.deepEqual(trailingRepeat(broken), {tool: 'terminal', count: 1});
	assert.deepEqual(computeAttention({conversation: conversation({}), now, events: broken}), []);
	// Two in a row is not enough by default, but the threshold is configurable.
	assert.deepEqual(computeAttention({conversation: conversation({}), now, events: events.slice(0, 5)}), []);
	assert.equal(computeAttention({conversation: conversation({}), now, events: events.slice(0, 5), repeatThreshold: 2})[0]?.kind, 'repeating');
});

test('sameAttention compares structurally', () => {
	const a = computeAttention({conversation: conversation({execution_status: 'stuck'}), now});
	const b = computeAttention({conversation: conversation({execution_status: 'stuck'}), now});
	assert.notEqual(a, b);
	assert.ok(sameAttention(a, b));
	assert.ok(!sameAttention(a, computeAttention({conversation: conversation({execution_status: 'error'}), now})));
});

test('a MISSING sandbox of a conversation idle for hours is routine clean-up, not a reason; ERROR always is', () => {
	const old = conversation({sandbox_status: 'MISSING', execution_status: null, updated_at: '2026-11-22T08:00:00Z'});
	assert.deepEqual(computeAttention({conversation: old, now}), []);
	const lostJustNow = conversation({sandbox_status: 'MISSING', execution_status: null, updated_at: '2026-11-22T11:30:00Z'});
	assert.equal(computeAttention({conversation: lostJustNow, now})[0]?.kind, 'sandbox_error');
	const brokenLongAgo = conversation({sandbox_status: 'ERROR', execution_status: null, updated_at: '2026-11-20T08:00:00Z'});
	assert.equal(computeAttention({conversation: brokenLongAgo, now})[0]?.kind, 'sandbox_error');
});

test('a sandbox in trouble says why: ERROR and a STARTING one past startingAfterMs carry status_detail; STARTING for less is just starting', () => {
	const failed = computeAttention({conversation: conversation({sandbox_status: 'ERROR', execution_status: null}), now, sandboxDetail: 'ImagePullBackOff'});
	assert.deepEqual(failed.map((reason) => reason.kind === 'sandbox_error' && [reason.status, reason.detail]), [['ERROR', 'ImagePullBackOff']]);
	// Asked for 11 minutes ago (default limit 10 minutes): not starting, with the runtime's reason.
	const stuck = computeAttention({conversation: conversation({sandbox_status: 'STARTING', execution_status: null, updated_at: '2026-11-22T11:49:00Z'}), now, sandboxDetail: 'insufficient kvm'});
	assert.deepEqual(stuck.map((reason) => reason.kind === 'sandbox_error' && [reason.status, reason.detail]), [['STARTING', 'insufficient kvm']]);
	assert.deepEqual(computeAttention({conversation: conversation({sandbox_status: 'STARTING', execution_status: null}), now, sandboxDetail: 'pulling image'}), [], 'starting for a minute, reason or not: nothing wrong yet');
	// A changed reason is a changed row (the store keeps rows whose attention is the same).
	assert.equal(sameAttention(failed, computeAttention({conversation: conversation({sandbox_status: 'ERROR', execution_status: null}), now, sandboxDetail: 'CrashLoopBackOff'})), false);
});

test('UNKNOWN, or a status this client does not know, raises the conversations that were running or needed you, and only those', () => {
	const unknown = (agent: string | null, status = 'UNKNOWN') =>
		computeAttention({conversation: conversation({sandbox_status: status, execution_status: null}), now, executionStatus: agent, executionStatusLastKnown: agent !== null, sandboxDetail: 'runtime provider unavailable'});
	for (const agent of ['running', 'waiting_for_confirmation', 'error', 'stuck']) {
		const reasons = unknown(agent);
		assert.ok(
			reasons.some((reason) => reason.kind === 'sandbox_error' && reason.status === 'UNKNOWN' && reason.detail === 'runtime provider unavailable'),
			`${agent}: ${JSON.stringify(reasons)}`,
		);
	}
	assert.deepEqual(unknown('finished'), [], 'a finished agent loses nothing while its provider is away');
	assert.deepEqual(unknown(null), [], 'never seen at work: nothing to say yet');
	assert.ok(unknown('running', 'HIBERNATING').some((reason) => reason.kind === 'sandbox_error' && reason.status === 'HIBERNATING'), 'a new word is treated as unknown, not as running or stopped');
	assert.deepEqual(unknown('running', 'PAUSED'), [], 'a paused sandbox is known: no reason of its own');
});

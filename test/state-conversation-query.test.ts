import {test} from 'node:test';
import assert from 'node:assert/strict';
import {computeAttention} from '../source/state/attention.js';
import {
	countConversations,
	nextNeedingAttention,
	parseConversationFilter,
	selectConversationKeys,
} from '../source/state/conversation-query.js';
import type {ConversationRow} from '../source/state/dashboard-types.js';
import {appConversationSchema} from '../source/wire/schemas/app.js';
import {hexId} from './helpers/fixtures.js';

const now = Date.parse('2026-11-22T12:00:00Z');

let serial = 0;
function row(fields: Record<string, unknown>, lastActivityAt: number | null = null): ConversationRow {
	serial++;
	const key = (fields.key as string | undefined) ?? hexId(serial);
	const conversation = appConversationSchema.parse({
		id: key,
		title: `Conversation ${serial}`,
		sandbox_status: 'RUNNING',
		execution_status: 'running',
		created_at: new Date(now - serial * 60_000).toISOString(),
		updated_at: new Date(lastActivityAt ?? now - 60_000).toISOString(),
		...fields,
	});
	return {
		key,
		conversation,
		agentStatus: conversation.execution_status ? String(conversation.execution_status) : null,
		agentStatusLastKnown: false,
		attention: computeAttention({conversation, now}),
		lastActivityAt,
		unseenEvents: 0,
	};
}

function snapshotOf(rows: ConversationRow[]) {
	return {conversations: new Map(rows.map((entry) => [entry.key, entry])) as ReadonlyMap<string, ConversationRow>};
}

const rows = [
	row({key: 'c1'.padEnd(32, '0'), title: 'Upgrade deps', selected_repository: 'acme/api'}, now - 5000),
	row({key: 'c2'.padEnd(32, '0'), title: 'Flaky pytest', execution_status: 'stuck', selected_repository: 'acme/web'}, now - 90_000),
	row({key: 'c3'.padEnd(32, '0'), title: 'Docs', execution_status: 'waiting_for_confirmation'}, now - 500_000),
	row({key: 'c4'.padEnd(32, '0'), title: 'Old one', execution_status: 'finished', sandbox_status: 'PAUSED'}, now - 9_000_000),
	row({key: 'c5'.padEnd(32, '0'), title: 'Broken', execution_status: 'error', sandbox_status: 'ERROR'}, now - 1000),
	row({key: 'c6'.padEnd(32, '0'), title: 'Archived thing', execution_status: 'ARCHIVED', sandbox_status: 'MISSING'}, now - 2000),
	row({key: 'c7'.padEnd(32, '0'), title: 'Fresh', execution_status: 'idle', selected_repository: 'Acme/API'}, now - 100),
];
const snapshot = snapshotOf(rows);
const k = (prefix: string) => prefix.padEnd(32, '0');

test('attention first: waiting, error, stuck, sandbox trouble, then by last activity', () => {
	const keys = selectConversationKeys(snapshot, '', 'attention');
	assert.deepEqual(keys, [k('c3'), k('c5'), k('c2'), k('c6'), k('c7'), k('c1'), k('c4')]);
});

test('other sort keys, with stable ties by key', () => {
	assert.deepEqual(selectConversationKeys(snapshot, '', 'activity'), [k('c7'), k('c5'), k('c6'), k('c1'), k('c2'), k('c3'), k('c4')]);
	assert.deepEqual(selectConversationKeys(snapshot, '', 'title').slice(0, 3), [k('c6'), k('c5'), k('c3')]);
	const tied = snapshotOf([row({key: k('b'), title: 'same'}, 1), row({key: k('a'), title: 'same'}, 1)]);
	assert.deepEqual(selectConversationKeys(tied, '', 'title'), [k('a'), k('b')]);
	assert.deepEqual(selectConversationKeys(tied, '', 'activity'), [k('a'), k('b')]);
});

test('status filters: one, several, a prefix, and an unknown raw value', () => {
	assert.deepEqual(selectConversationKeys(snapshot, 'status:stuck'), [k('c2')]);
	assert.deepEqual(selectConversationKeys(snapshot, 'status:waiting,error'), [k('c3'), k('c5')]);
	assert.deepEqual(selectConversationKeys(snapshot, 'STATUS:Archived'), [k('c6')]);
	assert.deepEqual(selectConversationKeys(snapshot, 'sandbox:paused'), [k('c4')]);
	assert.deepEqual(selectConversationKeys(snapshot, 'sandbox:missing,error'), [k('c5'), k('c6')]);
});

test('repo and free text, case-insensitive, ANDed', () => {
	assert.deepEqual(selectConversationKeys(snapshot, 'repo:acme/api'), [k('c7'), k('c1')]);
	assert.deepEqual(selectConversationKeys(snapshot, 'PYTEST'), [k('c2')]);
	assert.deepEqual(selectConversationKeys(snapshot, 'acme'), [k('c2'), k('c7'), k('c1')]);
	assert.deepEqual(selectConversationKeys(snapshot, 'acme status:idle'), [k('c7')]);
	assert.deepEqual(selectConversationKeys(snapshot, '"archived thing"'), [k('c6')]);
	assert.deepEqual(selectConversationKeys(snapshot, 'c4000'), [k('c4')], 'ids match too');
	assert.deepEqual(selectConversationKeys(snapshot, 'nothing-like-this'), []);
	assert.deepEqual(parseConversationFilter(' status:a,b  repo:x/y word ').statuses, ['a', 'b']);
});

test('memoised: the same array while the conversations Map and the query are unchanged', () => {
	const first = selectConversationKeys(snapshot, 'status:waiting,error', 'attention');
	const again = selectConversationKeys({conversations: snapshot.conversations}, 'status:waiting,error', 'attention');
	assert.equal(again, first);
	assert.notEqual(selectConversationKeys(snapshot, 'status:waiting,error', 'activity'), first);
	// A new Map (something changed) computes again.
	const changed = snapshotOf(rows);
	const recomputed = selectConversationKeys(changed, 'status:waiting,error', 'attention');
	assert.notEqual(recomputed, first);
	assert.deepEqual(recomputed, first);
});

test('counts for the header and the next row needing attention', () => {
	const counts = countConversations(snapshot);
	assert.equal(counts.total, 7);
	assert.equal(counts.byStatus.get('running'), 1);
	assert.equal(counts.byStatus.get('archived'), 1);
	assert.equal(counts.bySandbox.get('RUNNING'), 4);
	assert.equal(counts.needingAttention, 4);
	assert.equal(countConversations(snapshot), counts, 'memoised');
	const keys = selectConversationKeys(snapshot, '', 'activity');
	assert.equal(nextNeedingAttention(snapshot, keys, null), k('c5'));
	assert.equal(nextNeedingAttention(snapshot, keys, k('c5')), k('c6'));
	assert.equal(nextNeedingAttention(snapshot, keys, k('c3')), k('c5'), 'wraps around');
	assert.equal(nextNeedingAttention(snapshotOf([row({})]), [], null), null);
});

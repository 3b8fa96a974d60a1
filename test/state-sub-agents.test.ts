import assert from 'node:assert/strict';
import {test} from 'node:test';
import {attentionRank, computeAttention, needsAttentionItself, subAgentReason} from '../source/state/attention.js';
import {countConversations, nextNeedingAttention} from '../source/state/conversation-query.js';
import {selectConversationTree} from '../source/state/conversation-tree.js';
import {SubAgentIndex} from '../source/state/sub-agent-index.js';
import {appConversationSchema} from '../source/wire/schemas/app.js';
import {conversationRows, type ConversationSeed, hexId} from './helpers/dashboard-fixture.js';

/**
 * Sub-conversations in the state layer, without a server: a child that needs you raises its
 * parent (ranked as the child's reason, naming it), the list is a tree (children under their
 * parent, collapsible, filters keep the tree), and `n` goes to the child that needs you.
 * The store against the simulator is in state-fleet-sim.test.ts.
 */

const parent = hexId(1);
const worker = hexId(2);
const waiting = hexId(3);
const planner = hexId(4);

function seeds(extra: ConversationSeed[] = []): ConversationSeed[] {
	return [
		{id: parent, title: 'Refactor the billing service', execution: 'running', updatedMinutesAgo: 1},
		{id: worker, title: 'Sub-agent: write the unit tests', execution: 'running', parent, updatedMinutesAgo: 1},
		{id: waiting, title: 'Sub-agent: clean the build output', execution: 'waiting_for_confirmation', parent, updatedMinutesAgo: 2},
		{id: planner, title: 'Plan the work', execution: 'finished', parent, updatedMinutesAgo: 30},
		{id: hexId(5), title: 'An unrelated stuck run', execution: 'stuck', updatedMinutesAgo: 5},
		{id: hexId(6), title: 'A quiet finished run', execution: 'finished', updatedMinutesAgo: 50},
		...extra,
	];
}

test('a child waiting for approval raises its parent: ranked with the waiting ones, naming the child', () => {
	const rows = conversationRows(seeds());
	const raised = rows.get(parent)!;
	const first = raised.attention[0]!;
	assert.equal(first.kind, 'sub_agent');
	assert.ok(first.kind === 'sub_agent');
	assert.deepEqual(first.child, {key: waiting, title: 'Sub-agent: clean the build output'});
	assert.equal(first.reason.kind, 'waiting_for_confirmation');
	assert.equal(first.count, 1);
	assert.equal(attentionRank(raised.attention), 0, 'as urgent as a conversation waiting itself');
	assert.ok(attentionRank(raised.attention) < attentionRank(rows.get(hexId(5))!.attention), 'ahead of the stuck run');
	assert.equal(needsAttentionItself(raised.attention), false, 'it needs you only through its child');
	// The child that went back to work no longer raises it.
	const calm = conversationRows(seeds().map((seed) => (seed.id === waiting ? {...seed, execution: 'running'} : seed)));
	assert.deepEqual(calm.get(parent)!.attention, []);
});

test('subAgentReason: the most urgent child wins, its reason unwrapped through a raised grandchild; all are counted', () => {
	const conversation = appConversationSchema.parse({id: hexId(9), title: 'x', sandbox_status: 'RUNNING'});
	const child = (key: string, title: string, attention: ReturnType<typeof computeAttention>, lastActivityAt = 0) => ({key, conversation: {title}, attention, lastActivityAt});
	const stuck = computeAttention({conversation, now: 0, executionStatus: 'stuck'});
	const error = computeAttention({conversation, now: 0, executionStatus: 'error'});
	const grand = subAgentReason([child('g', 'grandchild', computeAttention({conversation, now: 0, executionStatus: 'waiting_for_confirmation'}))])!;
	const raisedChild = computeAttention({conversation, now: 0, executionStatus: 'running', subAgent: grand});
	const picked = subAgentReason([child('a', 'stuck one', stuck), child('b', 'error one', error), child('c', 'raised one', raisedChild), child('d', 'calm', [])])!;
	assert.equal(picked.child.key, 'c', 'waiting (through a grandchild) beats error and stuck');
	assert.equal(picked.reason.kind, 'waiting_for_confirmation', 'the reason is the real one, not "sub_agent"');
	assert.equal(picked.count, 3);
	assert.equal(subAgentReason([child('d', 'calm', [])]), null);
	// A parent with its own error keeps it first when the child's reason ranks lower.
	const own = computeAttention({conversation, now: 0, executionStatus: 'error', subAgent: subAgentReason([child('a', 'stuck one', stuck)])});
	assert.deepEqual(own.map((reason) => reason.kind), ['error', 'sub_agent']);
});

test('the tree: children under their parent, sorted like the list; collapsed hides them; the count stays', () => {
	const snapshot = {conversations: conversationRows(seeds())};
	const tree = selectConversationTree(snapshot, '', 'attention');
	assert.deepEqual(tree.keys, [parent, waiting, worker, planner, hexId(5), hexId(6)], 'the raised parent first, its waiting child first under it');
	assert.deepEqual(
		[...tree.nodes].map(([key, node]) => [key, node.depth, node.children, node.last]),
		[
			[parent, 0, 3, false],
			[waiting, 1, 0, false],
			[worker, 1, 0, false],
			[planner, 1, 0, true],
		],
	);
	assert.equal(tree.nodes.has(hexId(5)), false, 'a plain row is no tree node');
	assert.equal(selectConversationTree(snapshot, '', 'attention'), tree, 'memoised: the same object for the same inputs');
	const folded = selectConversationTree(snapshot, '', 'attention', new Set([parent]));
	assert.deepEqual(folded.keys, [parent, hexId(5), hexId(6)]);
	assert.deepEqual([folded.nodes.get(parent)?.collapsed, folded.nodes.get(parent)?.children], [true, 3]);
});

test('filters keep the tree: a matching child shows under its parent (context), even when collapsed', () => {
	const snapshot = {conversations: conversationRows(seeds())};
	const tree = selectConversationTree(snapshot, 'status:waiting', 'attention', new Set([parent]));
	assert.deepEqual(tree.keys, [parent, waiting], 'the parent as context, the waiting child under it');
	assert.equal(tree.nodes.get(parent)?.context, true, 'the parent does not match itself');
	assert.equal(tree.nodes.get(waiting)?.context, false);
	assert.equal(tree.nodes.get(parent)?.collapsed, false, 'a filter opens the parent: no match hides');
	const words = selectConversationTree(snapshot, 'unit tests', 'attention');
	assert.deepEqual(words.keys, [parent, worker]);
	const top = selectConversationTree(snapshot, 'billing', 'attention');
	assert.deepEqual(top.keys, [parent], 'a parent that matches shows without its non-matching children');
	assert.deepEqual(selectConversationTree(snapshot, 'nothing-matches-this', 'attention').keys, []);
});

test('orphans and loops: a child whose parent is not listed stands at the top, marked; ids in a circle are still listed', () => {
	const orphan = hexId(20);
	const loopA = hexId(21);
	const loopB = hexId(22);
	const rows = conversationRows([
		...seeds(),
		{id: orphan, title: 'Child of a conversation not loaded yet', execution: 'running', parent: hexId(99)},
		{id: loopA, title: 'Loop A', execution: 'idle', parent: loopB},
		{id: loopB, title: 'Loop B', execution: 'idle', parent: loopA},
	]);
	const tree = selectConversationTree({conversations: rows}, '', 'title');
	assert.ok(tree.keys.includes(orphan));
	assert.equal(tree.nodes.get(orphan)?.orphanOf, hexId(99));
	assert.equal(tree.nodes.get(orphan)?.depth, 0);
	assert.ok(tree.keys.includes(loopA) && tree.keys.includes(loopB), 'nothing lost');
	assert.equal(new Set(tree.keys).size, tree.keys.length, 'each once');
	assert.equal(tree.keys.length, rows.size);
});

test('n goes to the child that needs you, not its raised parent; with the children collapsed it stops at the parent', () => {
	const snapshot = {conversations: conversationRows(seeds())};
	const open = selectConversationTree(snapshot, '', 'attention').keys;
	assert.equal(nextNeedingAttention(snapshot, open, null), waiting, 'the parent is skipped: its child is on screen');
	assert.equal(nextNeedingAttention(snapshot, open, waiting), hexId(5));
	assert.equal(nextNeedingAttention(snapshot, [...open].reverse(), hexId(5)), waiting, 'N (backwards) the same');
	const folded = selectConversationTree(snapshot, '', 'attention', new Set([parent])).keys;
	assert.equal(nextNeedingAttention(snapshot, folded, null), parent, 'collapsed: the parent is where the child is');
	// The header counts who needs you once: the parent raised by its child is not a second one.
	assert.equal(countConversations(snapshot).needingAttention, 2);
});

test('SubAgentIndex: links, moves and forgets; a child naming itself is no child', () => {
	const index = new SubAgentIndex();
	assert.deepEqual(index.link('c1', 'p1'), ['p1']);
	assert.deepEqual(index.link('c2', 'p1'), ['p1']);
	assert.deepEqual([...index.children('p1')], ['c1', 'c2']);
	assert.deepEqual(index.link('c1', 'p2'), ['p1', 'p2'], 'both parents change');
	assert.deepEqual([...index.children('p1')], ['c2']);
	assert.equal(index.parentOf('c1'), 'p2');
	assert.equal(index.unlink('c2'), 'p1');
	assert.equal(index.children('p1').size, 0);
	assert.deepEqual(index.link('self', 'self'), []);
	assert.equal(index.parentOf('self'), null);
});

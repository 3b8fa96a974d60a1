import {useRef} from 'react';
import type {TreeNode} from '../../state/conversation-tree.js';
import type {ConversationRow} from '../../state/dashboard-types.js';

export type FrozenList = {
	rows: ReadonlyMap<string, ConversationRow>;
	keys: readonly string[];
	/** Where each row sits in the tree of sub-conversations (conversation-tree.ts), as held. */
	nodes: ReadonlyMap<string, TreeNode>;
	/** Rows that changed, appeared or left since the freeze: what pressing `F` again applies. */
	pendingChanges: number;
};

/** How many rows differ between the held list and the live one (rows are immutable: compare by reference). */
export function countPendingChanges(held: Pick<FrozenList, 'rows' | 'keys'>, rows: ReadonlyMap<string, ConversationRow>, keys: readonly string[]): number {
	const heldKeys = new Set(held.keys);
	let changes = 0;
	for (const key of keys) if (!heldKeys.has(key)) changes++;
	const liveKeys = new Set(keys);
	for (const key of held.keys) {
		if (!liveKeys.has(key)) changes++;
		else if (rows.get(key) !== held.rows.get(key)) changes++;
	}
	return changes;
}

/** The listed keys and tree of a set of rows under the view's filter, sort and folds (selectConversationTree). */
export type ListSelector = (rows: ReadonlyMap<string, ConversationRow>) => {keys: readonly string[]; nodes: ReadonlyMap<string, TreeNode>};

/**
 * The conversations list as the user sees it: live, or while frozen (`F`) the rows as they were at
 * the moment it was frozen, so nothing the server sends moves under the cursor while reading.
 * What the user does meanwhile (a filter, the sort, folding sub-agents) applies to the held rows:
 * `select` is the view's, run on them.
 */
export function useFrozenList(frozen: boolean, rows: ReadonlyMap<string, ConversationRow>, select: ListSelector): FrozenList {
	const held = useRef<ReadonlyMap<string, ConversationRow> | null>(null);
	const live = select(rows);
	if (!frozen) {
		held.current = null;
		return {rows, keys: live.keys, nodes: live.nodes, pendingChanges: 0};
	}
	held.current ??= rows;
	const shown = select(held.current);
	return {rows: held.current, keys: shown.keys, nodes: shown.nodes, pendingChanges: countPendingChanges({rows: held.current, keys: shown.keys}, rows, live.keys)};
}

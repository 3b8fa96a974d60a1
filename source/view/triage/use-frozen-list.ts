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
export function countPendingChanges(held: FrozenList, rows: ReadonlyMap<string, ConversationRow>, keys: readonly string[]): number {
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

/**
 * The conversations list as the user sees it: live, or while frozen (`F`) the rows and order of
 * the moment it was frozen, so nothing moves under the cursor while reading.
 */
export function useFrozenList(frozen: boolean, rows: ReadonlyMap<string, ConversationRow>, keys: readonly string[], nodes: ReadonlyMap<string, TreeNode> = noNodes): FrozenList {
	const held = useRef<FrozenList | null>(null);
	if (!frozen) {
		held.current = null;
		return {rows, keys, nodes, pendingChanges: 0};
	}
	held.current ??= {rows, keys, nodes, pendingChanges: 0};
	return {...held.current, pendingChanges: countPendingChanges(held.current, rows, keys)};
}

const noNodes: ReadonlyMap<string, TreeNode> = new Map();

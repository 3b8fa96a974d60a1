import {parentKeyOf} from './conversation-rows.js';
import {sortInPlace} from './sort-in-place.js';
import {compareRows, type ConversationFilter, isEmptyFilter, parseConversationFilter, rowMatches} from './conversation-query.js';
import type {ConversationRow, ConversationSortKey, DashboardSnapshot} from './dashboard-types.js';
import {RowsMemo} from './rows-memo.js';

/**
 * The conversations list as a tree: each sub-conversation (a `task` sub-agent, a planning agent)
 * under its parent, children sorted like the list, a parent collapsible. Filtering keeps the
 * tree: a child that matches shows under its parent (shown as context when it does not match
 * itself), and a filter opens collapsed parents so no match is hidden. A child whose parent is not
 * in the list (not loaded, or gone) stands at the top level, marked as such.
 *
 * One pass over the rows plus the sort the flat list needed anyway, memoised on the identity of
 * the conversations Map like `selectConversationKeys`: with 100,000 rows and no sub-agents it
 * costs what the flat list did, and moving the selection costs nothing.
 */

export type TreeNode = {
	/** 0 at the top level. */
	depth: number;
	/** Its sub-conversations in the list (all of them, whatever the filter shows). */
	children: number;
	/** Its children are hidden (collapsed by the user, no filter set). */
	collapsed: boolean;
	/** The last of its parent's children shown (draws `└` rather than `├`). */
	last: boolean;
	/** Shown only because a sub-conversation of it matches the filter. */
	context: boolean;
	/** A sub-conversation whose parent is not in the list: its parent's key. */
	orphanOf?: string;
};

export type ConversationTree = {
	/** Display order: every top-level row, each followed by its shown descendants. */
	keys: readonly string[];
	/** Only rows in a tree (a parent, a child, an orphan); a plain row has none. */
	nodes: ReadonlyMap<string, TreeNode>;
};

type Rows = DashboardSnapshot['conversations'];

const memo = new RowsMemo<Rows, ConversationTree>();

export function selectConversationTree(
	snapshot: Pick<DashboardSnapshot, 'conversations'>,
	filter: string | ConversationFilter,
	sort: ConversationSortKey = 'attention',
	collapsed: ReadonlySet<string> = noneCollapsed,
): ConversationTree {
	const rows = snapshot.conversations;
	const parsed = typeof filter === 'string' ? parseConversationFilter(filter) : filter;
	const memoKey = `${sort}\u0000${parsed.text}\u0000${[...collapsed].sort().join(',')}`;
	return memo.get(rows, memoKey, () => buildTree(rows, parsed, sort, collapsed));
}

const noneCollapsed: ReadonlySet<string> = new Set();

/** A sub-conversation without its own: one shared, frozen node per (depth, last, context), not one per row. */
const leaves: TreeNode[] = [];
function leaf(depth: number, last: boolean, context: boolean): TreeNode {
	const id = depth * 4 + (last ? 2 : 0) + (context ? 1 : 0);
	return (leaves[id] ??= Object.freeze({depth, children: 0, collapsed: false, last, context}));
}

function buildTree(rows: Rows, filter: ConversationFilter, sort: ConversationSortKey, collapsed: ReadonlySet<string>): ConversationTree {
	const children = new Map<string, ConversationRow[]>();
	const tops: ConversationRow[] = [];
	const orphans = new Map<string, string>();
	for (const row of rows.values()) {
		const raw = row.conversation.parent_conversation_id;
		// The server's own spelling is usually the key already: normalised only when it is not.
		const parent = !raw ? null : rows.has(raw) ? raw : parentKeyOf(row.conversation);
		if (parent === null || parent === row.key) tops.push(row);
		else if (rows.has(parent)) {
			const list = children.get(parent);
			if (list) list.push(row);
			else children.set(parent, [row]);
		} else {
			tops.push(row);
			orphans.set(row.key, parent);
		}
	}

	const all = isEmptyFilter(filter);
	const compare = compareRows(sort);
	// No sub-conversation at all (most fleets): the flat list, and no tree facts.
	if (children.size === 0 && orphans.size === 0) {
		const matching = all ? tops : tops.filter((row) => rowMatches(row, filter));
		return {keys: matching.sort(compare).map((row) => row.key), nodes: new Map()};
	}
	const matches = new Map<string, boolean>();
	// Whether a row or one of its descendants matches; a cycle of parent ids counts once.
	const shown = (row: ConversationRow, path: Set<string>): boolean => {
		const known = matches.get(row.key);
		if (known !== undefined) return known;
		if (path.has(row.key)) return false;
		path.add(row.key);
		const result = rowMatches(row, filter) || (children.get(row.key) ?? []).some((child) => shown(child, path));
		path.delete(row.key);
		matches.set(row.key, result);
		return result;
	};

	const keys: string[] = [];
	const nodes = new Map<string, TreeNode>();
	// Walking down from the top rows reaches each row once (a row has one parent, and a top row
	// none), so no visited set is needed: the common fleet without sub-agents pays nothing extra.
	const emit = (row: ConversationRow, depth: number, last: boolean) => {
		keys.push(row.key);
		const kids = children.get(row.key);
		const orphanOf = depth === 0 ? orphans.get(row.key) : undefined;
		if (!kids && depth === 0 && orphanOf === undefined) return;
		// A filter opens every parent: a match must never hide in a collapsed one.
		const folded = all && kids !== undefined && collapsed.has(row.key);
		const context = !all && !rowMatches(row, filter);
		let node: TreeNode;
		if (!kids && orphanOf === undefined) node = leaf(depth, last, context);
		else {
			node = {depth, children: kids?.length ?? 0, collapsed: folded, last, context};
			if (orphanOf !== undefined) node.orphanOf = orphanOf;
		}
		nodes.set(row.key, node);
		if (folded || !kids) return;
		// The list is built for this call alone: sorted in place.
		const visible = all ? kids : kids.filter((child) => shown(child, new Set()));
		if (visible.length > 1) sortInPlace(visible, compare);
		for (let index = 0; index < visible.length; index++) emit(visible[index]!, depth + 1, index === visible.length - 1);
	};

	// A member of a circle of parent ids, alone at the top (its children are in the circle too, each listed so).
	const loose = (row: ConversationRow) => {
		keys.push(row.key);
		nodes.set(row.key, {depth: 0, children: children.get(row.key)?.length ?? 0, collapsed: true, last: false, context: !all && !rowMatches(row, filter), orphanOf: parentKeyOf(row.conversation) ?? ''});
	};

	const top = (all ? tops : tops.filter((row) => shown(row, new Set()))).sort(compare);
	for (const row of top) emit(row, 0, false);
	// Rows whose parent ids go round in a circle have no top (and are reached from none): listed at
	// the end rather than lost. Only a list with sub-conversations can have them.
	// Counted first, without a set: a row has one parent, so the walk from the top rows meets each
	// reachable row once, and a count short of the list's size is the only sign of a circle. (A set
	// of every key, built on each change of a 100,000-row list, was garbage the collector paid for.)
	if (tops.length < rows.size && countReachable(tops, children) < rows.size) {
		const reachable = new Set<string>();
		const walk = (row: ConversationRow) => {
			reachable.add(row.key);
			for (const child of children.get(row.key) ?? []) walk(child);
		};
		for (const row of tops) walk(row);
		const placed = new Set(keys);
		for (const row of rows.values()) if (!reachable.has(row.key) && !placed.has(row.key) && (all || shown(row, new Set()))) loose(row);
	}
	return {keys, nodes};
}

/** How many rows the top rows and their descendants are (each reached once: one parent a row). */
function countReachable(tops: readonly ConversationRow[], children: ReadonlyMap<string, readonly ConversationRow[]>): number {
	let count = 0;
	const stack: ConversationRow[] = [...tops];
	while (stack.length > 0) {
		const row = stack.pop()!;
		count++;
		const kids = children.get(row.key);
		if (kids) for (const kid of kids) stack.push(kid);
	}
	return count;
}

import {parentKeyOf} from './conversation-rows.js';
import {compareRows, type ConversationFilter, isEmptyFilter, parseConversationFilter, rowMatches} from './conversation-query.js';
import type {ConversationRow, ConversationSortKey, DashboardSnapshot} from './dashboard-types.js';

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

const memo = new WeakMap<Rows, Map<string, ConversationTree>>();

export function selectConversationTree(
	snapshot: Pick<DashboardSnapshot, 'conversations'>,
	filter: string | ConversationFilter,
	sort: ConversationSortKey = 'attention',
	collapsed: ReadonlySet<string> = noneCollapsed,
): ConversationTree {
	const rows = snapshot.conversations;
	const parsed = typeof filter === 'string' ? parseConversationFilter(filter) : filter;
	const memoKey = `${sort}\u0000${parsed.text}\u0000${[...collapsed].sort().join(',')}`;
	let entries = memo.get(rows);
	const cached = entries?.get(memoKey);
	if (cached) return cached;
	const tree = buildTree(rows, parsed, sort, collapsed);
	if (!entries) {
		entries = new Map();
		memo.set(rows, entries);
	}

	if (entries.size > 20) entries.clear();
	entries.set(memoKey, tree);
	return tree;
}

const noneCollapsed: ReadonlySet<string> = new Set();

function buildTree(rows: Rows, filter: ConversationFilter, sort: ConversationSortKey, collapsed: ReadonlySet<string>): ConversationTree {
	const children = new Map<string, ConversationRow[]>();
	const tops: ConversationRow[] = [];
	const orphans = new Map<string, string>();
	for (const row of rows.values()) {
		const parent = parentKeyOf(row.conversation);
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
	const placed = new Set<string>();
	const emit = (row: ConversationRow, depth: number, last: boolean) => {
		if (placed.has(row.key)) return;
		placed.add(row.key);
		keys.push(row.key);
		const kids = children.get(row.key) ?? [];
		// A filter opens every parent: a match must never hide in a collapsed one.
		const folded = all && kids.length > 0 && collapsed.has(row.key);
		const orphanOf = orphans.get(row.key);
		if (kids.length > 0 || depth > 0 || orphanOf !== undefined) {
			nodes.set(row.key, {
				depth,
				children: kids.length,
				collapsed: folded,
				last,
				context: !all && !rowMatches(row, filter),
				...(orphanOf === undefined ? {} : {orphanOf}),
			});
		}

		if (folded || kids.length === 0) return;
		const visible = (all ? [...kids] : kids.filter((child) => shown(child, new Set()))).sort(compare);
		visible.forEach((child, index) => emit(child, depth + 1, index === visible.length - 1));
	};

	const top = (all ? tops : tops.filter((row) => shown(row, new Set()))).sort(compare);
	for (const row of top) emit(row, 0, false);
	// Rows whose parent ids go round in a circle have no top: listed at the end rather than lost.
	if (placed.size < rows.size) {
		const reachable = new Set<string>();
		const walk = (row: ConversationRow) => {
			if (reachable.has(row.key)) return;
			reachable.add(row.key);
			for (const child of children.get(row.key) ?? []) walk(child);
		};
		for (const row of tops) walk(row);
		for (const row of rows.values()) if (!reachable.has(row.key) && !placed.has(row.key) && (all || shown(row, new Set()))) emit(row, 0, false);
	}
	return {keys, nodes};
}

import type {Dispatch} from 'react';
import type {TreeNode} from '../state/conversation-tree.js';
import {parentKeyOf} from '../state/conversation-rows.js';
import type {DashboardSnapshot} from '../state/dashboard-types.js';
import type {ListWindowControls} from './use-list-window.js';
import type {ViewAction, ViewState} from './view-state.js';

/**
 * Folding the sub-agents under a conversation: space toggles, ← hides, → shows. On a sub-agent,
 * space and ← fold its parent and select it (where the cursor goes in a file tree). A filter shows
 * matching sub-agents whatever is folded; the notice says so rather than seeming to ignore the key.
 */
export function subAgentHandlers(args: {
	view: ViewState;
	dispatch: Dispatch<ViewAction>;
	snapshot: Pick<DashboardSnapshot, 'conversations'>;
	nodes: ReadonlyMap<string, TreeNode>;
	conversations: ListWindowControls;
	notice(text: string): void;
}) {
	const {view, dispatch, snapshot, nodes, conversations, notice} = args;
	const filtered = view.conversationFilter.trim().length > 0;
	const fold = (mode: 'toggle' | 'collapse' | 'expand') => {
		const key = conversations.selectedKey;
		if (!key) return;
		const node = nodes.get(key);
		if (node && node.children > 0) {
			const collapsed = mode === 'toggle' ? !view.collapsed.has(key) : mode === 'collapse';
			dispatch({type: 'collapse', key, collapsed});
			if (filtered && collapsed) notice('Folded; the filter still shows the sub-agents that match it.');
			return;
		}
		const row = snapshot.conversations.get(key);
		const parent = row ? parentKeyOf(row.conversation) : null;
		if (parent && snapshot.conversations.has(parent) && mode !== 'expand') {
			dispatch({type: 'collapse', key: parent, collapsed: true});
			conversations.select(parent);
			return;
		}
		if (mode !== 'collapse') notice('No sub-agents under this conversation.');
	};
	return {
		toggleSubAgents: () => fold('toggle'),
		collapseSubAgents: () => fold('collapse'),
		expandSubAgents: () => fold('expand'),
	};
}

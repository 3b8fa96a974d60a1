import type {Dispatch} from 'react';
import {nextNeedingAttention} from '../state/conversation-query.js';
import type {TreeNode} from '../state/conversation-tree.js';
import type {DashboardController, DashboardSnapshot} from '../state/dashboard-types.js';
import {planBulkInterrupt} from '../state/bulk-plan.js';
import {subAgentHandlers} from './sub-agent-keys.js';
import {snoozeHandlers} from './triage/snooze-keys.js';
import {useGlobalKeys} from './use-global-keys.js';
import {useKeyHandlers, type KeyRegistry} from './use-key-dispatch.js';
import type {ListWindowControls} from './use-list-window.js';
import {useTargetKeys} from './use-target-keys.js';
import {viewCommands} from './view-commands.js';
import type {ViewAction, ViewState} from './view-state.js';

type Args = {
	registry: KeyRegistry;
	view: ViewState;
	dispatch: Dispatch<ViewAction>;
	snapshot: DashboardSnapshot;
	controller: DashboardController;
	conversationKeys: readonly string[];
	/** The tree facts of the rows listed (sub-agents under their parent). */
	treeNodes: ReadonlyMap<string, TreeNode>;
	conversations: ListWindowControls;
	sandboxes: ListWindowControls;
	/** The terminal is wide enough to show the list and the timeline side by side. */
	roomForTwo: boolean;
	onQuit(): void;
	/** `*`: every profile at once (Dashboard.tsx asks the runtime). */
	onAllProfiles?(): void;
};

/**
 * The dashboard's own key handlers: the global ones and the y/n answer (use-global-keys.ts), and
 * each pane's: the two lists, the timeline, the attention queue. Keys on one conversation or
 * sandbox are planned over the server's lists (use-target-keys.ts). The timeline, details and
 * start form register their own (they own that state).
 */
export function useDashboardKeys(args: Args): void {
	const {registry, view, dispatch, snapshot, controller, conversationKeys, conversations, sandboxes} = args;
	const defaults = {registry, fallback: true};
	const commands = viewCommands(dispatch);
	const {say, focus, openOverlay} = commands;
	useGlobalKeys({...args, commands});
	const target = useTargetKeys({...args, commands});

	/** `alsoThen`: the view's own change that goes with the open (drawn with it). */
	const openConversation = (key: string | null | undefined, alsoThen?: () => void) => {
		if (!key) return;
		// A filter typed for one conversation's events rarely fits another's.
		const clearFilter = snapshot.timeline?.conversationKey !== key;
		// The read of a stopped conversation's stored events goes out before the pane is drawn
		// (frame-hold.ts): the server answers while it is.
		registry.frameHold.hold(
			() => controller.openTimeline(key),
			() => {
				alsoThen?.();
				commands.showTimeline(clearFilter);
			},
		);
	};
	const jumpToAttention = (direction: 1 | -1) => {
		const order = direction === 1 ? conversationKeys : [...conversationKeys].reverse();
		const next = nextNeedingAttention(snapshot, order, conversations.selectedKey);
		if (next === null) {
			say(conversationKeys.length === snapshot.conversations.size ? 'Nothing needs attention.' : 'Nothing shown needs attention (a filter is set).');
			return;
		}
		conversations.select(next);
		focus('conversations');
	};
	const attention = {nextAttention: () => jumpToAttention(1), previousAttention: () => jumpToAttention(-1)};
	const search = {search: () => openOverlay({kind: 'search'}), queue: () => openOverlay({kind: 'queue'})};
	const movement = (list: ListWindowControls) => ({
		up: () => list.move(-1),
		down: () => list.move(1),
		top: () => list.first(),
		bottom: () => list.last(),
		pageUp: () => list.page(-1),
		pageDown: () => list.page(1),
	});

	const onList = target.on('conversations', () => conversations.selectedKey);
	useKeyHandlers(
		'conversations',
		{
			...movement(conversations),
			...attention,
			open: () => {
				// Opening a row is picking it: the cursor stays on it when the filter is cleared or
				// the list re-sorts, instead of returning to the top row.
				const key = conversations.selectedKey;
				openConversation(key, () => {
					if (key) conversations.select(key);
				});
			},
			changes: onList.changes,
			back: () => {
				if (target.cancelAwaited()) return;
				if (view.conversationFilter) dispatch({type: 'set-filter', target: 'conversations', text: ''});
			},
			filter: () => dispatch({type: 'edit-filter', target: 'conversations'}),
			sort: () => dispatch({type: 'cycle-sort'}),
			freeze: () => dispatch({type: 'toggle-freeze'}),
			...subAgentHandlers({view, dispatch, snapshot, nodes: args.treeNodes, conversations, notice: say}),
			...search,
			runRetryable: target.runRetryable,
			bulkPause: () => target.openBulk('pause'),
			bulkResume: () => target.openBulk('resume'),
			bulkInterrupt: () => openOverlay({kind: 'bulk', action: 'interrupt', ...planBulkInterrupt(snapshot, conversationKeys)}),
			...onList.triage,
			...onList.agent,
			...onList.sandbox,
			...snoozeHandlers({snapshot, controller, dispatch, selectedKey: () => conversations.selectedKey}),
		},
		defaults,
	);
	useKeyHandlers(
		'sandboxes',
		{
			...movement(sandboxes),
			...attention,
			open: () => {
				const row = sandboxes.selectedKey ? snapshot.sandboxes.get(sandboxes.selectedKey) : undefined;
				const key = row?.conversationKeys[0];
				if (key) openConversation(key);
				else say('No conversation uses this sandbox.');
			},
			...search,
			back: () => void target.cancelAwaited(),
			...target.on('sandboxes', () => sandboxes.selectedKey).sandbox,
		},
		defaults,
	);
	const onTimeline = target.on('timeline', () => snapshot.timeline?.conversationKey);
	useKeyHandlers(
		'timeline',
		{
			...attention,
			...onTimeline.triage,
			...onTimeline.agent,
			...search,
			changes: onTimeline.changes,
			// With no conversation open the pane has nothing to clear: esc still leads back.
			back: () => {
				if (!target.cancelAwaited()) focus('conversations');
			},
			...onTimeline.sandbox,
		},
		defaults,
	);
	// From an event's details too: the jump leaves them for the list (focus closes the overlay).
	useKeyHandlers('details', attention, defaults);
}

import {useEffect, type Dispatch} from 'react';
import {canResume} from '../format/sandbox-advice.js';
import {sandboxKeyOf} from '../state/sandbox-rows.js';
import {nextNeedingAttention} from '../state/conversation-query.js';
import {causeGroups} from '../state/causes.js';
import type {DashboardController, DashboardSnapshot} from '../state/dashboard-types.js';
import {awaitedList, awaitingText} from './awaited-key.js';
import {keyOf} from './keymap.js';
import {subAgentHandlers} from './sub-agent-keys.js';
import type {TreeNode} from '../state/conversation-tree.js';
import {wideColumns} from './layout.js';
import {planSandboxAction} from './sandbox-question.js';
import {planAgentControl, type AgentVerb} from './triage/agent-control-plan.js';
import {planBulk, planBulkInterrupt} from '../state/bulk-plan.js';
import {runAgentControl} from './triage/run-agent-control.js';
import {snoozeHandlers} from './triage/snooze-keys.js';
import {planTriage, shortTitle, type TriageVerb} from '../state/triage-plan.js';
import {useKeyHandlers, type KeyRegistry} from './use-key-dispatch.js';
import type {ListWindowControls} from './use-list-window.js';
import type {PaneId, TargetVerb, ViewAction, ViewState} from './view-state.js';

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
 * The dashboard's own key handlers: quitting, panes, the two lists, sandbox actions behind a
 * y/n question, sort and the attention queue. The timeline, details and start form register
 * their own (they own that state).
 *
 * A key that acts on one conversation or sandbox (p r i c a x m d l) is planned over the lists
 * the server sends. Pressed before the list its plan reads has arrived, it waits for it (the
 * notice says so) and is planned once, when it has: never "not loaded, try again". Esc cancels it.
 */
export function useDashboardKeys(args: Args): void {
	const {registry, view, dispatch, snapshot, controller, conversationKeys, conversations, sandboxes} = args;
	const defaults = {registry, fallback: true};
	const notice = (text: string) => dispatch({type: 'notice', text, at: Date.now()});

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
				if (clearFilter) dispatch({type: 'set-filter', target: 'timeline', text: ''});
				dispatch({type: 'focus', pane: 'timeline'});
			},
		);
	};

	const askSandbox = (action: 'pause' | 'resume', sandboxKey: string | null | undefined, fromConversation?: string | null) => {
		const plan = planSandboxAction(snapshot, action, sandboxKey, fromConversation);
		if (plan.kind === 'refuse') return notice(plan.text);
		if (action !== 'resume' || !controller.freshSandboxes) return dispatch({type: 'open-overlay', overlay: {kind: 'confirm', request: plan.request}});
		// The cap question names what the server would pause now: the list is read again first (state/fresh-plan.ts).
		notice('Reading the sandbox list again for the cap question…');
		controller.freshSandboxes().then(
			(sandboxes) => {
				const fresh = planSandboxAction({...snapshot, sandboxes}, action, sandboxKey, fromConversation);
				if (fresh.kind === 'refuse') notice(fresh.text);
				else dispatch({type: 'open-overlay', overlay: {kind: 'confirm', request: fresh.request}});
			},
			(error: unknown) => notice(`Could not read the sandbox list again, so the cap question is not asked on an old one: ${error instanceof Error ? error.message : String(error)}`),
		);
	};

	// P / R plan over the sandbox list; opened before it has arrived, the panel says so and plans
	// once it is there, rather than calling every sandbox "not running".
	const openSandboxBulk = (action: 'pause' | 'resume') => {
		const plan = planBulk(snapshot, action, conversationKeys);
		dispatch({type: 'open-overlay', overlay: {kind: 'bulk', action, ...plan, ...(snapshot.sandboxesListed ? {} : {awaitingList: conversationKeys})}});
	};

	const openChanges = (key: string | null | undefined) => {
		if (key) dispatch({type: 'open-overlay', overlay: {kind: 'changes', conversationKey: key, file: null}});
		else notice('Select a conversation first.');
	};

	const sandboxOfConversation = (key: string | null | undefined) => {
		const sandboxId = key ? snapshot.conversations.get(key)?.conversation.sandbox_id : null;
		return sandboxId ? sandboxKeyOf(snapshot.sandboxes, sandboxId) : null;
	};

	const jumpToAttention = (direction: 1 | -1) => {
		const order = direction === 1 ? conversationKeys : [...conversationKeys].reverse();
		const next = nextNeedingAttention(snapshot, order, conversations.selectedKey);
		if (next === null) {
			notice(conversationKeys.length === snapshot.conversations.size ? 'Nothing needs attention.' : 'Nothing shown needs attention (a filter is set).');
			return;
		}
		conversations.select(next);
		dispatch({type: 'focus', pane: 'conversations'});
	};

	// Keys on one conversation or sandbox: planned now, or once the list they read has arrived.
	const act = (verb: TargetVerb, pane: PaneId, key: string | null | undefined) => {
		const list = awaitedList(snapshot, verb, pane, key);
		if (list === null) {
			plan(verb, pane, key);
			return;
		}
		dispatch({type: 'await-key', awaited: {verb, pane, key: key ?? null, overlay: null, notice: awaitingText(verb, list)}, at: Date.now()});
	};
	const plan = (verb: TargetVerb, pane: PaneId, key: string | null | undefined) => {
		switch (verb) {
			case 'pause':
			case 'resume':
				if (pane === 'sandboxes') askSandbox(verb, key);
				// The pause question counts the other conversations the sandbox stops.
				else askSandbox(verb, sandboxOfConversation(key), verb === 'pause' ? key : undefined);
				return;
			case 'interrupt':
			case 'continueAgent':
				askAgent(verb, key);
				return;
			case 'approve':
			case 'reject':
			case 'nudge':
				triage(verb, key);
				return;
			case 'changes':
				openChanges(key);
				return;
			case 'links':
				if (key) dispatch({type: 'open-overlay', overlay: {kind: 'links', conversationKey: key}});
				else notice('No conversation selected.');
		}
	};
	const selectedIn = (pane: PaneId) => (pane === 'sandboxes' ? sandboxes.selectedKey : pane === 'conversations' ? conversations.selectedKey : snapshot.timeline?.conversationKey);
	// The awaited key, once its lists are there and the user is back where it was pressed.
	useEffect(() => {
		const awaited = view.awaited;
		if (!awaited || (view.overlay?.kind ?? null) !== awaited.overlay) return;
		const key = awaited.key ?? selectedIn(awaited.pane);
		if (awaitedList(snapshot, awaited.verb, awaited.pane, key) !== null) return;
		dispatch({type: 'awaited'});
		plan(awaited.verb, awaited.pane, key);
	});
	/** Esc: a waiting key is cancelled first. */
	const cancelAwaited = (): boolean => {
		if (!view.awaited) return false;
		dispatch({type: 'awaited'});
		notice(`Cancelled: ${keyOf(view.awaited.verb)} will not act when the list arrives.`);
		return true;
	};

	// a and x change the agent's course: they show the pending actions and ask y/n first (x then
	// asks for a reason); m asks for its message.
	const triage = (verb: TriageVerb, key: string | null | undefined) => {
		const plan = planTriage(snapshot, controller, verb, key);
		if (plan.kind === 'refuse') notice(plan.text);
		else if (verb === 'nudge') dispatch({type: 'open-overlay', overlay: {kind: 'prompt', purpose: verb, conversationKey: plan.conversationKey}});
		else dispatch({type: 'open-overlay', overlay: {kind: 'triage-confirm', verb, conversationKey: plan.conversationKey}});
	};
	// i and c act on one conversation's agent, behind a y/n question naming it.
	const askAgent = (verb: AgentVerb, key: string | null | undefined) => {
		const plan = planAgentControl(snapshot, controller, verb, key);
		if (plan.kind === 'refuse') notice(plan.text);
		else dispatch({type: 'open-overlay', overlay: {kind: 'confirm', request: plan.request}});
	};
	const agentOn = (pane: PaneId, key: () => string | null | undefined) => ({
		interrupt: () => act('interrupt', pane, key()),
		continueAgent: () => act('continueAgent', pane, key()),
		links: () => act('links', pane, key()),
	});
	const triageOn = (pane: PaneId, key: () => string | null | undefined) => ({
		approve: () => act('approve', pane, key()),
		reject: () => act('reject', pane, key()),
		nudge: () => act('nudge', pane, key()),
		ask: () => openAsk(key()),
	});
	// A: a side question. Only a running agent can answer; its sandbox is never resumed for it.
	const openAsk = (key: string | null | undefined) => {
		if (!controller.askAgent) return notice('Asking an agent is not available here.');
		if (!key) return notice('Select a conversation first.');
		const conversation = snapshot.conversations.get(key)?.conversation;
		if (!conversation) return notice('That conversation is not in the list (yet).');
		const sandbox = String(conversation.sandbox_status ?? 'MISSING');
		if (sandbox !== 'RUNNING' || !conversation.conversation_url) {
			const resume = canResume(sandbox) ? ` ${keyOf('resume')} resumes it (asks first); asking never does.` : '';
			return notice(`Its sandbox is ${sandbox.toLowerCase()}: only a running agent can answer.${resume}`);
		}
		dispatch({type: 'open-overlay', overlay: {kind: 'ask', conversationKey: key}});
	};

	const search = {
		search: () => dispatch({type: 'open-overlay', overlay: {kind: 'search'}}),
		queue: () => dispatch({type: 'open-overlay', overlay: {kind: 'queue'}}),
	};
	// C: every retryable error of the fleet, whatever group it is in, behind one question.
	const runRetryable = () => {
		const keys = causeGroups(snapshot).flatMap((group) => (group.remedy === 'run' ? group.keys : []));
		if (keys.length === 0) notice('No conversation has a retryable error: nothing to run again.');
		else dispatch({type: 'open-overlay', overlay: {kind: 'remedy', remedy: 'run', title: 'every retryable error', conversationKeys: keys}});
	};
	const attention = {nextAttention: () => jumpToAttention(1), previousAttention: () => jumpToAttention(-1)};
	const movement = (list: ListWindowControls) => ({
		up: () => list.move(-1),
		down: () => list.move(1),
		top: () => list.first(),
		bottom: () => list.last(),
		pageUp: () => list.page(-1),
		pageDown: () => list.page(1),
	});

	useKeyHandlers('always', {forceQuit: args.onQuit}, defaults);
	useKeyHandlers(
		'global',
		{
			quit: args.onQuit,
			help: () => dispatch({type: 'open-overlay', overlay: {kind: 'help'}}),
			profiles: () => dispatch({type: 'open-overlay', overlay: {kind: 'profiles'}}),
			allProfiles: () => (args.onAllProfiles ? args.onAllProfiles() : notice('Every profile at once needs the dashboard started by agent-tui.')),
			nextPane: () => dispatch({type: 'cycle-pane', direction: 1}),
			previousPane: () => dispatch({type: 'cycle-pane', direction: -1}),
			paneConversations: () => dispatch({type: 'focus', pane: 'conversations'}),
			paneSandboxes: () => dispatch({type: 'focus', pane: 'sandboxes'}),
			paneTimeline: () => dispatch({type: 'focus', pane: 'timeline'}),
			zoom: () => {
				if (!args.roomForTwo && !view.zoomed) {
					notice(`One pane at a time already: panes sit side by side from ${wideColumns} columns.`);
					return;
				}
				dispatch({type: 'toggle-zoom'});
			},
			refresh: () => {
				controller.refresh();
				notice('Refreshing…');
			},
			start: () => {
				controller.resetStart();
				dispatch({type: 'open-overlay', overlay: {kind: 'start'}});
			},
		},
		defaults,
	);
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
			changes: () => act('changes', 'conversations', conversations.selectedKey),
			back: () => {
				if (cancelAwaited()) return;
				if (view.conversationFilter) dispatch({type: 'set-filter', target: 'conversations', text: ''});
			},
			filter: () => dispatch({type: 'edit-filter', target: 'conversations'}),
			sort: () => dispatch({type: 'cycle-sort'}),
			freeze: () => dispatch({type: 'toggle-freeze'}),
			...subAgentHandlers({view, dispatch, snapshot, nodes: args.treeNodes, conversations, notice}),
			...search,
			runRetryable,
			bulkPause: () => openSandboxBulk('pause'),
			bulkResume: () => openSandboxBulk('resume'),
			bulkInterrupt: () => dispatch({type: 'open-overlay', overlay: {kind: 'bulk', action: 'interrupt', ...planBulkInterrupt(snapshot, conversationKeys)}}),
			...triageOn('conversations', () => conversations.selectedKey),
			...agentOn('conversations', () => conversations.selectedKey),
			pause: () => act('pause', 'conversations', conversations.selectedKey),
			resume: () => act('resume', 'conversations', conversations.selectedKey),
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
				else notice('No conversation uses this sandbox.');
			},
			...search,
			back: () => void cancelAwaited(),
			pause: () => act('pause', 'sandboxes', sandboxes.selectedKey),
			resume: () => act('resume', 'sandboxes', sandboxes.selectedKey),
		},
		defaults,
	);
	useKeyHandlers(
		'timeline',
		{
			...attention,
			...triageOn('timeline', () => snapshot.timeline?.conversationKey),
			...agentOn('timeline', () => snapshot.timeline?.conversationKey),
			...search,
			changes: () => act('changes', 'timeline', snapshot.timeline?.conversationKey),
			// With no conversation open the pane has nothing to clear: esc still leads back.
			back: () => {
				if (!cancelAwaited()) dispatch({type: 'focus', pane: 'conversations'});
			},
			pause: () => act('pause', 'timeline', snapshot.timeline?.conversationKey),
			resume: () => act('resume', 'timeline', snapshot.timeline?.conversationKey),
		},
		defaults,
	);
	useKeyHandlers(
		'confirm',
		{
			confirmYes: () => {
				const overlay = view.overlay;
				dispatch({type: 'close-overlay'});
				if (overlay?.kind !== 'confirm') return;
				const request = overlay.request;
				if ('conversationKey' in request) {
					// runAgentControl reports every outcome on the notice line itself.
					void runAgentControl(controller, request.action, {conversationKey: request.conversationKey, title: shortTitle(snapshot, request.conversationKey)}, notice);
					return;
				}
				// The store reports failures itself (pending.error, notice); nothing to catch here but the promise.
				const run = request.action === 'pause' ? controller.pauseSandbox(request.sandboxKey) : controller.resumeSandbox(request.sandboxKey);
				run.catch(() => undefined);
			},
			confirmNo: () => {
				dispatch({type: 'close-overlay'});
				notice('Cancelled.');
			},
		},
		defaults,
	);
	// From an event's details too: the jump leaves them for the list (focus closes the overlay).
	useKeyHandlers('details', attention, defaults);
	useKeyHandlers('start', {back: () => dispatch({type: 'close-overlay'})}, defaults);
}

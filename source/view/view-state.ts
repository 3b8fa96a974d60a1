import type {ConversationSortKey} from '../state/dashboard-types.js';
import type {KeyContext} from './keymap.js';

/**
 * What the user is looking at, as opposed to what the server said (that is the store's snapshot):
 * the focused pane, the open overlay, filter lines and sort. A pure reducer, so the key flows can
 * be tested without Ink.
 */

export type PaneId = 'conversations' | 'sandboxes' | 'timeline';
export const paneOrder: readonly PaneId[] = ['conversations', 'sandboxes', 'timeline'];

type Question = {
	/** What the prompt asks, already sanitized: `Pause sandbox 1a2b3c?` */
	question: string;
	/** Shown after `[y/n]`: who uses it, side effects. */
	detail: string;
};

export type ConfirmRequest =
	| ({action: 'pause' | 'resume'; sandboxKey: string} & Question)
	/** `i` / `c`: one conversation's agent, not its sandbox. */
	| ({action: 'interrupt' | 'continueAgent'; conversationKey: string} & Question);

export type Overlay =
	| {kind: 'help'}
	| {kind: 'confirm'; request: ConfirmRequest}
	/** `a` / `x`: the pending actions of a conversation, then y/n (x then asks for a reason). */
	| {kind: 'triage-confirm'; verb: 'approve' | 'reject'; conversationKey: string}
	| {kind: 'start'}
	| {kind: 'details'}
	/** A one-line field: a rejection reason or a message for the agent. */
	| {kind: 'prompt'; purpose: 'reject' | 'nudge'; conversationKey: string}
	/** `P` / `R`: the sandboxes of the filtered conversations, behind a typed confirmation. */
	| {
			kind: 'bulk';
			action: 'pause' | 'resume';
			sandboxKeys: readonly string[];
			skipped: number;
			/** Opened before the sandbox list had arrived: the conversations to plan over once it has. */
			awaitingList?: readonly string[];
	  }
	/** `I`: stop the agents of the filtered conversations, behind a typed confirmation. */
	| {kind: 'bulk'; action: 'interrupt'; conversationKeys: readonly string[]; skipped: number}
	/** `l`: the links of a conversation's sandbox, tokens hidden; enter copies one. */
	| {kind: 'links'; conversationKey: string}
	/** `S`: search the events of the conversations shown. */
	| {kind: 'search'}
	/** ctrl-p: the config file's profiles. */
	| {kind: 'profiles'}
	/** `A`: a side question to a conversation's agent (`ask_agent`) and its answer. */
	| {kind: 'ask'; conversationKey: string}
	/** `d`: the files a conversation's agent changed; `file` is the one whose diff is shown, if any. */
	| {kind: 'changes'; conversationKey: string; file: number | null}
	/** `!`: what needs you, grouped by cause (state/causes.ts). */
	| {kind: 'queue'}
	/**
	 * A group's remedy over the conversations it held when asked: run the retryable errors again,
	 * or resume the sandboxes of those paused mid-run. `title` names the group.
	 */
	| {kind: 'remedy'; remedy: 'run' | 'resume'; title: string; conversationKeys: readonly string[]}
	/** `s`: how long to snooze these conversations; `fromQueue`: back to `!` after. */
	| {kind: 'snooze'; title: string; conversationKeys: readonly string[]; fromQueue: boolean}
	/** `D` in `!`: delete the dead group (state/dead-group.ts) as it was when asked, behind a typed count. */
	| {kind: 'delete-dead'; conversationKeys: readonly string[]};

export type FilterTarget = 'conversations' | 'timeline';

/** Keys that act on one conversation or sandbox and plan over the lists the server sends. */
export type TargetVerb = 'pause' | 'resume' | 'interrupt' | 'continueAgent' | 'approve' | 'reject' | 'nudge' | 'changes' | 'links';

/**
 * A key pressed before the list its plan reads had arrived (the sandbox list for `p`, the
 * conversation list for `a` on a conversation not in it yet): planned once, when it has, rather
 * than refused (use-dashboard-keys.ts). One at a time: a newer one replaces it.
 */
export type AwaitedKey = {
	verb: TargetVerb;
	pane: PaneId;
	/** What it was pressed on; null when nothing was selected yet: the selection once the list is there. */
	key: string | null;
	/** The overlay it was pressed in (the Changes view's resume), or null for a pane: planned once back there. */
	overlay: Overlay['kind'] | null;
	/** What the notice line says meanwhile (cleared when it is planned). */
	notice: string;
};

export type ViewState = {
	pane: PaneId;
	/** The list shown beside the timeline in the wide layout: the last list pane focused. */
	listPane: 'conversations' | 'sandboxes';
	overlay: Overlay | null;
	/** Which filter line has the keyboard, if any. */
	editing: FilterTarget | null;
	conversationFilter: string;
	timelineFilter: string;
	/** A search hit to select in the timeline once its events are there. */
	timelineFocus: {conversationKey: string; id: string; timestamp: string} | null;
	sort: ConversationSortKey;
	/** `F`: the conversations list holds still (order and rows) until pressed again. */
	frozen: boolean;
	/**
	 * `z` on a wide terminal: the focused pane takes the whole width, as at 80 columns. A timeline
	 * the full width of the terminal can be scrolled by the terminal itself (a scroll region is
	 * whole lines), so following a fast stream writes only the new rows.
	 */
	zoomed: boolean;
	/** A message from the view itself (e.g. "sandbox is already paused"), shown like store notices. */
	notice: {text: string; at: number; level?: 'info' | 'warn' | 'error'} | null;
	/** A key waiting for the list it needs. */
	awaited: AwaitedKey | null;
	/** Parents whose sub-conversations the list hides (space, ←); a filter shows matches anyway. */
	collapsed: ReadonlySet<string>;
};

export const sortKeys: readonly ConversationSortKey[] = ['attention', 'activity', 'created', 'cost', 'context', 'title'];

export type ViewAction =
	| {type: 'focus'; pane: PaneId}
	| {type: 'cycle-pane'; direction: 1 | -1}
	| {type: 'open-overlay'; overlay: Overlay}
	| {type: 'close-overlay'}
	| {type: 'edit-filter'; target: FilterTarget}
	| {type: 'set-filter'; target: FilterTarget; text: string}
	| {type: 'focus-event'; event: {conversationKey: string; id: string; timestamp: string}}
	| {type: 'focused'}
	/** Text typed in a filter line: ignored once that line has stopped editing. */
	| {type: 'type-filter'; target: FilterTarget; text: string}
	| {type: 'stop-editing'}
	| {type: 'cycle-sort'}
	| {type: 'toggle-freeze'}
	| {type: 'toggle-zoom'}
	/** With the notice that says what it waits for (gone once it is planned). */
	| {type: 'await-key'; awaited: AwaitedKey; at: number}
	/** The awaited key was planned (or cancelled). */
	| {type: 'awaited'}
	| {type: 'notice'; text: string; at: number; level?: 'info' | 'warn' | 'error'}
	/** Hide (`true`) or show a parent's sub-conversations; absent: the other way round. */
	| {type: 'collapse'; key: string; collapsed?: boolean};

export const initialViewState: ViewState = {
	pane: 'conversations',
	listPane: 'conversations',
	overlay: null,
	editing: null,
	conversationFilter: '',
	timelineFilter: '',
	timelineFocus: null,
	sort: 'attention',
	frozen: false,
	zoomed: false,
	notice: null,
	awaited: null,
	collapsed: new Set(),
};

function listPaneAfter(state: ViewState, pane: PaneId): ViewState['listPane'] {
	return pane === 'timeline' ? state.listPane : pane;
}

export function viewReducer(state: ViewState, action: ViewAction): ViewState {
	switch (action.type) {
		case 'focus':
			if (state.pane === action.pane && state.editing === null && state.overlay === null) return state;
			// Switching panes leaves the event details (they belong to the timeline).
			return {...state, pane: action.pane, listPane: listPaneAfter(state, action.pane), editing: null, overlay: null};
		case 'cycle-pane': {
			const index = paneOrder.indexOf(state.pane);
			const next = paneOrder[(index + action.direction + paneOrder.length) % paneOrder.length] ?? 'conversations';
			return {...state, pane: next, listPane: listPaneAfter(state, next), editing: null, overlay: null};
		}
		case 'open-overlay':
			// A new question supersedes the last message: "Cancelled: nothing was done." must not sit
			// under the next panel's "2 of 2 done".
			return {...state, overlay: action.overlay, editing: null, notice: null};
		case 'close-overlay':
			return state.overlay === null ? state : {...state, overlay: null};
		case 'edit-filter':
			return {...state, editing: action.target, pane: action.target, listPane: listPaneAfter(state, action.target)};
		case 'type-filter':
			// A text field keeps its input listener until React's passive effects run after it
			// unmounts: a key typed right after enter must not land in the filter it closed.
			if (state.editing !== action.target) return state;
			return action.target === 'conversations'
				? {...state, conversationFilter: action.text}
				: {...state, timelineFilter: action.text};
		case 'focus-event':
			return {...state, timelineFocus: action.event};
		case 'focused':
			return state.timelineFocus === null ? state : {...state, timelineFocus: null};
		case 'set-filter':
			return action.target === 'conversations'
				? {...state, conversationFilter: action.text}
				: {...state, timelineFilter: action.text};
		case 'stop-editing':
			return state.editing === null ? state : {...state, editing: null};
		case 'cycle-sort': {
			const index = sortKeys.indexOf(state.sort);
			return {...state, sort: sortKeys[(index + 1) % sortKeys.length] ?? 'attention'};
		}
		case 'toggle-freeze':
			return {...state, frozen: !state.frozen};
		case 'toggle-zoom':
			return {...state, zoomed: !state.zoomed};
		case 'await-key':
			return {...state, awaited: action.awaited, notice: {text: action.awaited.notice, at: action.at}};
		case 'awaited':
			if (state.awaited === null) return state;
			// The "waiting for" notice is over with the wait.
			return {...state, awaited: null, notice: state.notice?.text === state.awaited.notice ? null : state.notice};
		case 'notice':
			return {...state, notice: action.level ? {text: action.text, at: action.at, level: action.level} : {text: action.text, at: action.at}};
		case 'collapse': {
			const folded = action.collapsed ?? !state.collapsed.has(action.key);
			if (folded === state.collapsed.has(action.key)) return state;
			const collapsed = new Set(state.collapsed);
			if (folded) collapsed.add(action.key);
			else collapsed.delete(action.key);
			return {...state, collapsed};
		}
	}
}

/**
 * The contexts keys are looked up in, most specific first. A modal (help, confirmation, a text
 * field) shadows everything but `always`, so typing `q` in the filter types a q. The same stack
 * is the same array from render to render, so what is memoised on it (the footer's hints) stays.
 */
export function keyContexts(state: ViewState): readonly KeyContext[] {
	return stableStack(contextStack(state));
}

const stacks = new Map<string, readonly KeyContext[]>();

function stableStack(stack: KeyContext[]): readonly KeyContext[] {
	const id = stack.join(' ');
	let kept = stacks.get(id);
	if (kept === undefined) stacks.set(id, (kept = Object.freeze(stack)));
	return kept;
}

function contextStack(state: ViewState): KeyContext[] {
	const overlay = state.overlay?.kind;
	if (overlay === 'help') return ['help', 'always'];
	if (overlay === 'confirm' || overlay === 'triage-confirm') return ['confirm', 'always'];
	if (overlay === 'start') return ['start', 'always'];
	if (overlay === 'prompt' || overlay === 'bulk' || overlay === 'delete-dead' || overlay === 'search' || overlay === 'ask') return ['prompt', 'always'];
	if (overlay === 'links') return ['links', 'always'];
	if (overlay === 'queue') return ['queue', 'always'];
	if (overlay === 'remedy') return ['remedy', 'always'];
	if (overlay === 'snooze') return ['snooze', 'always'];
	if (overlay === 'profiles') return ['profiles', 'always'];
	if (state.overlay?.kind === 'changes') return [state.overlay.file === null ? 'changes' : 'diff', 'always'];
	if (state.editing) return ['filter', 'always'];
	if (overlay === 'details') return ['details', 'global', 'always'];
	return [state.pane, 'global', 'always'];
}

import type {ErrorCause} from '../wire/error-classification.js';
import type {GoalState} from '../wire/goal.js';
import type {HistoryEndStatus} from './history-pager.js';
import type {AppConversation, Sandbox, SandboxSpec, StartTask} from '../wire/schemas/app.js';
import type {PluginSpec} from '../wire/schemas/create-request.js';
import type {LoggedEvent} from '../wire/schemas/events.js';
import type {ChangesSession} from './changes-session.js';
import type {SearchListener} from './event-search.js';
import type {PendingAction} from './timeline-query.js';
import type {UnreadableRow} from './unreadable-rows.js';
import type {DeleteConversations} from './delete-plan.js';

/**
 * The contract between the dashboard's state layer (store, pollers, streams, commands) and its
 * view layer (Ink components). Components read a `DashboardSnapshot` through
 * `useSyncExternalStore(store.subscribe, store.getSnapshot)` and act only through
 * `DashboardController`; they never fetch. Snapshots are immutable: a change produces a new
 * object for the part that changed, so memoised rows can compare by reference.
 */

export type ConnectionHealth = 'live' | 'reconnecting' | 'polling' | 'stale' | 'offline';

export type ConnectionState = {
	health: ConnectionHealth;
	/** When the conversation list was last refreshed successfully (ms since epoch). */
	lastSuccessAt: number | null;
	/** Short, sanitized, secret-free message of the last failure, if the last attempt failed. */
	lastError: string | null;
	/** Set when the server rejected the key: polling stops until the user fixes it. */
	keyRejected: boolean;
	/** Next scheduled retry while failing (ms since epoch), to show "retrying in 8 s". */
	nextRetryAt: number | null;
	/** Requests sent in the last 60 s, against the budget (shown in the header when near it). */
	requestsLastMinute: number;
	/** The requests a minute that may go: the configured limit, or the one learned from 429s when lower. */
	budgetPerMinute: number;
	/** Clients on this machine sharing the budget of this server and key (state/shared-budget.ts), this one included. */
	budgetClients?: number;
	/** `budgetPerMinute` was learned from the server's 429s: `named` when the 429 said it, else inferred. */
	budgetLearned?: 'named' | 'inferred';
	/**
	 * The data's clock minus ours (ms, whole seconds): estimated from the data itself (state/
	 * data-clock.ts), from the servers' `Date` headers until the data said something. Ages on
	 * screen are `now + clockOffsetMs - serverTimestamp`; the header says so past a minute.
	 */
	clockOffsetMs: number;
	/** Where `clockOffsetMs` comes from: the data, the `Date` headers, or nothing yet. */
	clockSource?: 'data' | 'date-header' | 'none';
	/**
	 * The zone of the agent servers' naive event times as a label (`UTC+1`), found by comparing
	 * an event with the app server's UTC time of the same moment; null until then.
	 */
	eventZone?: string | null;
	/**
	 * True while ages cannot be told (DataClock.agesKnown): only the `Date` header stands in for
	 * the data's clock and the data disputes it (agents at work, nothing written in the 12 hours
	 * before it: state/age-basis.ts `unknown`). Views show `?` for ages and the header says the data clock is not known yet; the store
	 * raises nothing from an age meanwhile (a `quiet` only from what it watched itself).
	 */
	agesUnverified?: boolean;
	/**
	 * True while ages rest on the `Date` header alone, nothing in the data confirming or disputing
	 * it (state/age-basis.ts `assumed`): ages are told, and the header says they are assumed.
	 */
	agesAssumed?: boolean;
};

/** Why a conversation needs a person; computed by the state layer, shown as a reason. */
export type AttentionReason =
	/** `lastKnown`: the agent's last status seen before its sandbox stopped, not a live one. */
	| {kind: 'waiting_for_confirmation'; since: number | null; lastKnown?: boolean}
	/** `cause`: why, when known (the newest ConversationErrorEvent; state/error-causes.ts). */
	| {kind: 'error'; since: number | null; lastKnown?: boolean; cause?: ErrorCause | null}
	| {kind: 'stuck'; since: number | null; lastKnown?: boolean}
	/**
	 * Its sandbox is in trouble: ERROR, MISSING lately, STARTING with a reason, or a status that
	 * says nothing (UNKNOWN, a word this client does not know) while its agent was at work or
	 * needed you. `detail`: the sandbox's `status_detail` (`ImagePullBackOff`), when it gave one.
	 */
	| {kind: 'sandbox_error'; status: string; since: number | null; detail?: string}
	/**
	 * Running and writing nothing for `quietForMs`. `atLeast`: watched by the dashboard itself
	 * (its `updated_at` stood still across answers) while the data's clock is not known, so the
	 * agent may have been quiet longer.
	 */
	| {kind: 'quiet'; quietForMs: number; atLeast?: boolean}
	/** Its cost rose with no action or observation since `since` (servers' clock); `spent` USD since then. */
	| {kind: 'spending'; since: number; spent: number}
	| {kind: 'repeating'; count: number; tool: string}
	/**
	 * A sub-conversation (a `task` sub-agent, a planning agent) needs you, so its parent does:
	 * `child` names the most urgent one and `reason` is that child's own first reason (unwrapped
	 * when the child is itself raised by one of its children); `count` children need you in all.
	 * Ranked as its reason: a child waiting for approval puts its parent with the waiting ones.
	 */
	| {kind: 'sub_agent'; child: {key: string; title: string | null}; reason: OwnAttentionReason; count: number};

/** Every reason but `sub_agent`: what a conversation needs for itself. */
export type OwnAttentionReason = Exclude<AttentionReason, {kind: 'sub_agent'}>;

/** What a snoozed row carries (state/snoozes.ts): when its snooze ends, or `change`. */
export type SnoozeMark = {until: number | 'change'};

export type ConversationRow = {
	/** Normalized (32-hex) id: the key everywhere in the store. */
	key: string;
	conversation: AppConversation;
	/**
	 * The agent's status as the row shows it: the live execution status, or, while the server
	 * sends none (its sandbox is not running), the last one seen, with `agentStatusLastKnown`.
	 * Null when none was ever seen. Never the sandbox's status: that is `conversation.sandbox_status`.
	 */
	agentStatus: string | null;
	agentStatusLastKnown: boolean;
	/** Attention reasons, most urgent first; empty when nothing needs a person. */
	attention: AttentionReason[];
	/**
	 * Why the agent stopped with an error (its newest ConversationErrorEvent, with the SDK's
	 * classification when the server sends one): null when it has none, undefined while not
	 * known (not read yet, or the agent is not in error). Read through wire/error-classification.ts.
	 */
	errorCause?: ErrorCause | null;
	/**
	 * Its goal loop (`goal 3/10`), as its events last said: known once its timeline was opened in
	 * this session (the service's list does not carry it), kept after it closes; else undefined.
	 */
	goal?: GoalState | null;
	/** ms since epoch of the newest activity known (updated_at, or newest streamed event). */
	lastActivityAt: number | null;
	/** ERROR/MISSING and unchanged for `deadAfterMs` on a confirmed clock (state/dead-group.ts): outside `!`, in the dead group. */
	dead?: {afterMs: number};
	/** Events that arrived since the user last opened this conversation (0 if never streamed). */
	unseenEvents: number;
	/**
	 * Why its sandbox is in the state it is (`status_detail`: `ImagePullBackOff`), from the
	 * sandbox list while that list's status agrees with this conversation's; else absent.
	 */
	sandboxDetail?: string | null;
	/** USD per hour over the last minutes, from the cost's change on the servers' clock (state/spend.ts); null: not known yet. */
	costPerHour?: number | null;
	/** When its sandbox's current session started (servers' clock): `exact` when seen, else its creation (the earliest it can be). */
	sessionStart?: {at: number; exact: boolean} | null;
	/** The all-servers view (`--all-profiles`): the server this row came from (the SERVER column). */
	server?: RowServer;
	/** Snoozed by the person (state/snoozes.ts): out of the queue, `n`/`N` and the alerts until then. */
	snoozed?: SnoozeMark;
};

/**
 * The server a row came from in the all-servers view. `stale` while that server does not answer
 * (its rows show their last known state, marked); `clockOffsetMs` is that server's clock minus
 * ours, so the row's ages are told by its own server's clock.
 */
export type RowServer = {name: string; stale: boolean; clockOffsetMs: number; agesUnverified?: boolean};

/** One server of the all-servers view, as the header shows it. */
export type ServerState = {
	/** The profile's name: the SERVER column's word. */
	name: string;
	/** Its host (never a key). */
	label: string;
	connection: ConnectionState;
	keySource?: string | null;
};

export type SandboxActionState = {
	kind: 'pausing' | 'resuming';
	startedAt: number;
	/** The server refused or failed: the reason stays on screen until the next action. */
	error?: string;
};

export type SandboxRow = {
	key: string;
	sandbox: Sandbox;
	/** Keys of the conversations that use this sandbox. */
	conversationKeys: string[];
	pending: SandboxActionState | null;
	/** The service paused this sandbox itself (running-sandbox cap), noticed by the state layer. */
	pausedByCap: boolean;
	/** The all-servers view: the server this sandbox belongs to. */
	server?: RowServer;
};

export type StreamHealth = {
	state: 'idle' | 'backfilling' | 'live' | 'reconnecting' | 'failed' | 'closed';
	attempt: number;
	nextRetryInMs?: number;
	lastError?: string;
	/** No socket holds, and the history is read on over REST meanwhile (StreamStatus.overRest). */
	overRest?: boolean;
	/** Our clock when such a REST read last reached the end: the timeline was complete then. */
	restReadAt?: number;
};

import type {StreamLag} from './stream-lag.js';

export type TimelineState = {
	conversationKey: string;
	/** All events known for the open conversation, in (timestamp, id) order, deduplicated. */
	events: readonly LoggedEvent[];
	/** Increments whenever `events` changes (cheap change detection for memoised views). */
	version: number;
	stream: StreamHealth;
	/** Execution status from the stream's state updates (newer than the polled one). */
	executionStatus: string | null;
	/** The goal loop's newest state (`goal` updates; wire/goal.ts), null when the log holds none. */
	goal?: GoalState | null;
	/** A resync could not prove there is no gap (shown as a marker). */
	gap: boolean;
	/** How far the stream is behind the server (stream-lag.ts); absent for stored history. */
	lag?: StreamLag;
	/**
	 * Set while the events are the app server's stored copy, not a live stream: the sandbox is
	 * not RUNNING (its status here). The timeline goes live when it runs again.
	 */
	stored?: {sandboxStatus: string} | null;
	/** Whether older events exist that are not loaded (read back a page at a time as the view asks). */
	older?: HistoryEndStatus;
	/** Whether newer events exist that are not loaded: reading far back dropped them to bound memory. */
	newer?: HistoryEndStatus;
};

/** The screen's first and last events while the view is not following: a trim of the timeline keeps both and all between. */
export type ShownRange = {oldest: {timestamp: string; id: string}; newest: {timestamp: string; id: string}};

export type StartProgress = {
	state: 'idle' | 'starting' | 'ready' | 'error';
	/** Every start-task snapshot received so far, oldest first. */
	phases: StartTask[];
	error: string | null;
	conversationKey: string | null;
};

export type DashboardSnapshot = {
	/** Increments on every published change. */
	version: number;
	serverLabel: string;
	/**
	 * Where the key this dashboard sends came from, as a "key rejected" header says it (`key from
	 * OPENHANDS_API_KEY`, `key from apiKey of profile "work" in …`, `no key is set: …`); null for
	 * the demo or when unknown.
	 */
	keySource?: string | null;
	demo: boolean;
	connection: ConnectionState;
	/** Every known conversation by key; order and filtering are view-model concerns (selectors). */
	conversations: ReadonlyMap<string, ConversationRow>;
	sandboxes: ReadonlyMap<string, SandboxRow>;
	/**
	 * The whole conversation list has arrived at least once (a full walk of the search pages). Until
	 * then a conversation missing from `conversations` may just not have arrived: a key that needs
	 * it waits (use-dashboard-keys.ts).
	 */
	conversationsListed: boolean;
	/**
	 * The whole sandbox list has arrived at least once. Until then an empty or short `sandboxes`
	 * means "not loaded yet", not "no sandbox is running": plans over sandboxes wait for it.
	 */
	sandboxesListed: boolean;
	specs: readonly SandboxSpec[];
	/**
	 * The most sandboxes the service lets run at once, when known (configured, or learned from a
	 * pause it made): a start or resume at the cap pauses the oldest other one.
	 */
	runningSandboxCap: number | null;
	/** Items the server sent that failed validation, for a visible warning. */
	invalidItems: number;
	/** The first conversation rows that could not be read, with their id if any and why (unreadable-rows.ts). */
	unreadableRows?: readonly UnreadableRow[];
	timeline: TimelineState | null;
	start: StartProgress;
	/** One transient message for the footer (action results, refusals), with its time. */
	notice: {text: string; level: 'info' | 'warn' | 'error'; at: number} | null;
	/**
	 * The all-servers view (`--all-profiles`, state/fleet-store.ts): every server with its own
	 * connection. Absent for one server. Keys are then qualified by server (state/server-keys.ts).
	 */
	servers?: readonly ServerState[];
	/**
	 * The agent's last answer (`agent_final_response`) by conversation key, for rows read while on
	 * screen with their sandbox running (state/final-responses.ts); as the agent wrote it, so the
	 * view sanitizes it. Absent or missing a key: not read.
	 */
	answers?: ReadonlyMap<string, string>;
};

export type ConversationSortKey = 'attention' | 'activity' | 'created' | 'cost' | 'context' | 'title';

export interface DashboardController {
	/** Snooze a conversation until it changes or until a time (state/snoozed-dashboard.ts); null when it is not listed. */
	snooze?(conversationKey: string, until: number | 'change'): (SnoozeMark & {unsaved?: string}) | null;
	/** End a conversation's snooze; false when it had none. */
	unsnooze?(conversationKey: string): boolean;
	/** Force a refresh now (ctrl-r), within the request budget. */
	refresh(): void;
	/** Tell the poller which conversation keys are on screen, so they are refreshed first. */
	setVisibleConversations(keys: readonly string[]): void;
	/** Open a conversation's timeline: backfill history, then follow live. Closes the previous one. */
	openTimeline(conversationKey: string): void;
	closeTimeline(): void;
	/** The open timeline's next older page of history (the view reached the oldest event held). */
	loadOlderEvents?(): void;
	/** The open timeline's next newer page (the view reached the newest event held, and newer ones were dropped). */
	loadNewerEvents?(): void;
	/** Back to the newest events when they were dropped (`G`): the newest page is read again. */
	timelineToNewest?(): void;
	/** The first and last events the timeline shows while not following (null: following): kept in memory. */
	pinTimeline?(range: ShownRange | null): void;
	pauseSandbox(sandboxKey: string): Promise<void>;
	/** Delete conversations and the sandboxes only they use (state/delete-plan.ts): re-read, then paced, one server at a time. */
	deleteConversations?: DeleteConversations;
	resumeSandbox(sandboxKey: string): Promise<void>;
	/** The sandbox list read again now (one request) before a plan is made on it (state/fresh-plan.ts). */
	freshSandboxes?(): Promise<ReadonlyMap<string, SandboxRow>>;
	/** Resumes these sandboxes one step at a time on fresh data, saying what the server did (state/fresh-plan.ts). */
	resumeInSteps?(sandboxKeys: readonly string[], planned: ReadonlyMap<string, readonly string[]> | null, report: (report: ResumeStepReport) => void, stopped: () => boolean): Promise<void>;
	startConversation(request: {message: string; repository?: string; plugins?: PluginSpec[]}): Promise<void>;
	resetStart(): void;
	dismissNotice(): void;
	/** A message for the notice line from beside the store (alerts: a tmux setting to change). */
	notice?(text: string, level: 'info' | 'warn' | 'error'): void;
	/*
	 * Triage actions through the conversation's agent server (issue 6). Declared optional by the
	 * view side until the state side implements them; the view says "not available" without them.
	 * Each resolves when the server accepted the request and rejects with a short, secret-free error.
	 */
	/** Approve every pending action of a conversation waiting for confirmation. */
	approve?(conversationKey: string): Promise<void>;
	/** Reject the pending actions, with an optional reason the agent sees. */
	reject?(conversationKey: string, reason?: string): Promise<void>;
	/**
	 * The actions a conversation waits for you to approve or reject, read from its agent server
	 * (the newest events), so the question behind `a` / `x` shows what it acts on.
	 */
	pendingActions?(conversationKey: string): Promise<readonly PendingAction[]>;
	/** Send a user message and run the agent. */
	nudge?(conversationKey: string, text: string): Promise<void>;
	/** Stop this one agent (not its sandbox): `/interrupt`, or `/pause` on older servers. */
	interrupt?(conversationKey: string): Promise<'interrupt' | 'pause'>;
	/** Let a stopped agent go on (`/run`); `already-running` is an answer, not a failure. */
	continueAgent?(conversationKey: string): Promise<'started' | 'already-running'>;
	/**
	 * Ask the agent a side question (`ask_agent`): its answer, unsanitized. The conversation's
	 * status and history stay as they are; a sandbox that is not running is refused, never resumed.
	 */
	askAgent?(conversationKey: string, question: string, signal?: AbortSignal): Promise<string>;
	/** Search the events of these conversations (timeline filter grammar); hits arrive as found. Returns a cancel function. */
	searchAcross?(conversationKeys: readonly string[], query: string, listener: SearchListener): () => void;
	/** The files a conversation's agent changed, and their diffs as they are opened (the Changes view). The caller closes it. */
	openChanges?(conversationKey: string): ChangesSession;
	/**
	 * The conversation's page in the service's web UI (`{app}/conversations/{id}`, the web UI's
	 * route, OpenHands frontend/src/routes.ts), for `y`; null when the row is not known.
	 */
	conversationLink?(conversationKey: string): string | null;
	/** Stops polling and streams; leaves no timers or sockets. */
	close(): Promise<void>;
}

export interface DashboardStore {
	subscribe(listener: () => void): () => void;
	getSnapshot(): DashboardSnapshot;
}

/** One sandbox of a resume run step by step on fresh data (state/fresh-plan.ts), as it went. */
export type ResumeStepReport =
	| {key: string; state: 'skipped'; why: string}
	| {key: string; state: 'sent'; pauses: readonly string[]; planned: readonly string[] | null}
	| {key: string; state: 'done'; paused: readonly string[]; running: number; cap: number | null}
	| {key: string; state: 'failed'; reason: string}
	| {key: string; state: 'stopped'; why: string};

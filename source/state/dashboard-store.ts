import {normalizeId} from '../wire/ids.js';
import {type ServerClock, serverClock} from '../wire/server-clock.js';
import type {AppConversation, Sandbox, SandboxSpec} from '../wire/schemas/app.js';
import {defaultQuietAfterMs, parseTime, subAgentReason} from './attention.js';
import {costPerHour, roundRate} from './spend.js';
import {type ProbeClient, SpendWatch} from './spend-progress.js';
import {BatchedPublisher} from './batched-publisher.js';
import {DataClock, isAtWork, zoneLabel} from './data-clock.js';
import type {GoalState} from '../wire/goal.js';
import {ErrorCauses, type ReadCause, readAgentErrorCause, readErrorCause} from './error-causes.js';
import {
	type AnswerTiming,
	ConversationPoller,
	type PollerClient,
	type PollerHealth,
	type PollerIntervals,
} from './conversation-poller.js';
import {buildRow, conversationKey, parentKeyOf, statusSignature} from './conversation-rows.js';
import {SubAgentIndex} from './sub-agent-index.js';
import type {
	ConnectionHealth,
	ConnectionState,
	ConversationRow,
	DashboardController,
	DashboardSnapshot,
	DashboardStore,
	SandboxRow,
	StartProgress,
} from './dashboard-types.js';
import {redact} from './redact.js';
import {RequestBudget, type RequestBudgetOptions} from './request-budget.js';
import {budgetSharing, sameBudgetSharing} from './budget-connection.js';
import {budgetedGitProxy} from './budgeted-git.js';
import {
	type CapWatch,
	capGraceMs,
	capVerdict,
	capWatchFor,
	confirmedByConversations,
	mergeSandboxes,
	relinkSandboxes,
	sandboxKeyOf,
	shortId,
	watchedSandboxIds,
} from './sandbox-rows.js';
import {agentStreams} from './agent-stream.js';
import {FinalResponses} from './final-responses.js';
import {AgentClient} from '../wire/agent-client.js';
import {GitClient} from '../wire/git-client.js';
import {agentBaseUrl} from '../wire/agent-base-url.js';
import type {Transport} from '../wire/transport.js';
import {createConversationActions} from './conversation-actions.js';
import {createSandboxActions} from './sandbox-actions.js';
import {createSearchAcross} from './event-search.js';
import {createChangesOpener} from './changes-session.js';
import {gitStateReader} from './git-progress.js';
import type {GitProxy} from '../wire/conversation-git.js';
import {runStart, type StartClient, type StartInput} from './start-conversation.js';
import type {ReadHistoryPage} from './history-pager.js';
import {historySource, type Pace, readStoredPage, type StoredHistoryOptions} from './stored-history.js';
import {type OpenTimelineStream, type TimelineChange, TimelineSession} from './timeline-session.js';
import {publishWindowMs} from './flood-window.js';

/**
 * The dashboard's state outside React: one poller, one budget, at most one timeline stream, and
 * a snapshot published through a batched publisher. Components read it with
 * `useSyncExternalStore(store.subscribe, store.getSnapshot)` and act through the controller.
 *
 * Snapshot discipline: parts are replaced only when they changed (a new conversations Map only
 * when a row changed, a row only when something shown in it changed), publishes are batched to
 * one per `flushMs`, and a flush that finds nothing new publishes nothing: an idle dashboard
 * does not re-render. Nothing in a snapshot or a notice contains a credential: messages pass
 * through `redact()` with the secrets the store was given.
 */

/** What the store needs of the AppClient (tests may pass a stand-in). */
export type DashboardClient = PollerClient &
	StartClient &
	Partial<GitProxy> & {
		pauseSandbox(id: string, call?: {signal?: AbortSignal}): Promise<unknown>;
		resumeSandbox(id: string, call?: {signal?: AbortSignal}): Promise<unknown>;
		/** The app server's stored copy of the events (AppClient has it); without it, stopped conversations show none. */
		storedEvents?: StoredHistoryOptions['client'];
	};

export type CreateDashboardOptions = {
	appClient: DashboardClient;
	appBaseUrl: string;
	serverLabel: string;
	/** Where the key sent came from, as a "key rejected" header says it (commands/dashboard.ts keySourceOf). */
	keySource?: string | null;
	demo: boolean;
	now?: () => number;
	/**
	 * The server's connection pool, clock estimate and pacing (wire/transport.ts), shared by the
	 * app client's owner and every agent-server client this dashboard makes; closed by its owner.
	 * Default: the process's.
	 */
	transport?: Transport;
	/** The servers' clock from their `Date` headers (default: the transport's estimate): the data clock's fallback. */
	clock?: ServerClock;
	/** The clock that wrote the data (ages and lag use it); default: a new one over `clock`. One per server. */
	dataClock?: DataClock;
	/** A shared budget (to also count the HTTP client's own retries), or options for a new one. */
	budget?: RequestBudget | RequestBudgetOptions;
	quietAfterMs?: number;
	/** Spending without progress: the cost rose with no action or observation for this long (default 10 min). */
	spendAfterMs?: number;
	/** How a conversation's agent server is asked about progress (tests may pass a stand-in). */
	progressClient?: (conversation: AppConversation) => ProbeClient;
	/** The service's cap on running sandboxes, when known (the simulator's, a config value); else learned. */
	runningSandboxCap?: number | null;
	/** Identical tool calls in a row before a conversation is flagged as repeating itself. */
	repeatThreshold?: number;
	flushMs?: number;
	/** Polling cadence; see `defaultPollerIntervals`. */
	intervals?: Partial<PollerIntervals>;
	/** How long a pause/resume may wait for its status change before it is reported (default 2 min). */
	sandboxActionTimeoutMs?: number;
	/** How a timeline stream is opened; defaults to a StreamSupervisor over the conversation's agent server. */
	openStream?: OpenTimelineStream;
	/** Events a timeline keeps in memory while following (default 50,000). */
	maxTimelineEvents?: number;
	/** Bytes those events may take (default 48 MB: timeline-session.ts defaultMaxBytes). */
	maxTimelineBytes?: number;
	/** Exact strings never to show (the API key), in addition to the credential patterns. */
	secrets?: readonly string[];
	random?: () => number;
	/** Start polling at once (default). Tests may start later with `controller.refresh()`. */
	autoStart?: boolean;
};

export type Dashboard = {
	store: DashboardStore;
	controller: DashboardController;
	/** The budget every app-server request of this dashboard goes through. */
	budget: RequestBudget;
};

const severity = {info: 0, warn: 1, error: 2} as const;
/** Spending without progress, by default: as long as `quiet`. */
export const defaultSpendAfterMs = 10 * 60_000;
/** A warning or error stays in front of routine notices for this long. */
const noticeKeepMs = 10_000;

const idleStart: StartProgress = {state: 'idle', phases: [], error: null, conversationKey: null};

export function createDashboard(options: CreateDashboardOptions): Dashboard {
	const model = new DashboardModel(options);
	return {store: model.store, controller: model.controller, budget: model.budget};
}

class DashboardModel {
	readonly budget: RequestBudget;
	readonly store: DashboardStore;
	readonly controller: DashboardController;
	readonly #options: CreateDashboardOptions;
	readonly #client: DashboardClient;
	readonly #now: () => number;
	readonly #dataClock: DataClock;
	readonly #quietAfterMs: number;
	readonly #actionTimeoutMs: number;
	readonly #secrets: readonly string[];
	readonly #publisher: BatchedPublisher<DashboardSnapshot>;
	readonly #poller: ConversationPoller;
	readonly #ownsBudget: boolean;
	/** The agents' last answers for the rows on screen (final-responses.ts), within this budget. */
	readonly #finalResponses: FinalResponses;

	/** Working rows; shared with the published snapshot until the first change after a flush. */
	#rows: Map<string, ConversationRow> = new Map();
	#rowsOwned = false;
	/** The normal publishing window, and the live events of the open timeline since the last snapshot (flood-window.ts). */
	readonly #flushMs: number;
	#liveSincePublish = 0;
	#linksDirty = false;
	#sandboxes: ReadonlyMap<string, SandboxRow> = new Map();
	#specs: readonly SandboxSpec[] = [];
	#invalidItems = 0;
	#health: PollerHealth;
	#timeline: TimelineSession | null = null;
	#start: StartProgress = idleStart;
	#notice: DashboardSnapshot['notice'] = null;
	/** The messages the notice holds, each once with how often it came (shown `(×2)`). */
	#noticeParts: Array<{text: string; count: number}> = [];
	#capWatch: CapWatch | null = null;
	#runningCap: number | null = null;
	#sandboxesListed = false;
	#conversationsListed = false;
	/** key -> the agent's and the sandbox's status, and when the store saw each appear (null: before it looked). */
	#statusSeen = new Map<string, {agent: string; agentSince: number | null; sandbox: string; sandboxSince: number | null}>();
	#streamActivity = new Map<string, number>();
	/** The last execution status seen per conversation: the server sends none once its sandbox stops. */
	#lastKnownStatus = new Map<string, string>();
	/** When the answer that last brought each conversation was asked for (our clock): a change bound. */
	#answeredAt = new Map<string, number>();
	/** Each conversation's `updated_at` and when (our clock) the first answer with it arrived. */
	#held = new Map<string, {updatedAt: string; since: number}>();
	/**
	 * Whether ages can be told (DataClock.agesKnown), as of the last conversation answer: rows and
	 * the connection's `agesUnverified` say the same thing from the same moment.
	 */
	#agesKnown = true;
	#unseen = new Map<string, number>();
	/** Sandboxes whose list was read again for a status their conversations showed first (the status asked for). */
	readonly #reasonAsked = new Map<string, string>();
	/** Parents and their sub-conversations: a child that needs you raises its parent. */
	readonly #subAgents = new SubAgentIndex();
	readonly #spend: SpendWatch;
	/** The changed files of a spending candidate's repository: progress for the spend watch. */
	readonly #gitState: ReturnType<typeof gitStateReader>;
	/** Per sandbox: its status as last seen, and when it was seen to start running (servers' clock). */
	#sessions = new Map<string, {status: string; runningSince: number | null}>();
	#startRun = 0;
	#startAbort: AbortController | null = null;
	#closed = false;
	/** Each conversation's goal loop, as its timeline last said (null: none). */
	#goals = new Map<string, GoalState | null>();
	/** Why errored conversations failed (state/error-causes.ts). */
	readonly #errorCauses: ErrorCauses;

	constructor(options: CreateDashboardOptions) {
		this.#options = options;
		this.#client = options.appClient;
		this.#now = options.now ?? (() => Date.now());
		this.#dataClock = options.dataClock ?? new DataClock({fallback: options.clock ?? options.transport?.clock ?? serverClock, now: this.#now});
		this.#runningCap = options.runningSandboxCap ?? null;
		this.#quietAfterMs = options.quietAfterMs ?? defaultQuietAfterMs;
		this.#actionTimeoutMs = options.sandboxActionTimeoutMs ?? 120_000;
		this.#secrets = options.secrets ?? [];
		this.#ownsBudget = !(options.budget instanceof RequestBudget);
		this.budget = options.budget instanceof RequestBudget ? options.budget : new RequestBudget({now: this.#now, ...options.budget});
		this.#finalResponses = new FinalResponses({
			budget: this.budget,
			conversation: (key) => this.#rows.get(key)?.conversation,
			client: (conversation) => this.#agentClient(conversation, options.appBaseUrl),
			onChange: () => this.#touch(),
			now: () => this.#now(),
		});
		this.#health = {ok: true, lastSuccessAt: null, lastError: null, keyRejected: false, nextRetryAt: null};
		this.#flushMs = options.flushMs ?? 100;
		this.#publisher = new BatchedPublisher<DashboardSnapshot>(this.#initialSnapshot(), this.#flushMs);
		this.#gitState = gitStateReader({
			app: this.#client.gitChanges && this.#client.gitDiff ? budgetedGitProxy(this.#client as Required<Pick<DashboardClient, 'gitChanges' | 'gitDiff'>>, this.budget, 'background') : null,
			workspace: (conversation) => this.#workspaceOf(conversation),
			agentGit: (conversation) =>
				conversation.conversation_url
					? new GitClient({baseUrl: agentBaseUrl(conversation.conversation_url, options.appBaseUrl), sessionApiKey: conversation.session_api_key ?? null, maxRetries: 0, ...this.#transported})
					: null,
		});
		this.#spend = new SpendWatch({
			afterMs: options.spendAfterMs ?? defaultSpendAfterMs,
			now: () => this.#serverNow(),
			client: options.progressClient ?? ((conversation) => AgentClient.fromConversation(conversation, options.appBaseUrl, {maxRetries: 0, ...this.#transported})),
			changed: (key) => this.#refreshRow(key),
			// A git change is progress too: the changed files, read as the Changes view reads them.
			gitState: (conversation, signal) => this.#gitState.read(conversation, signal),
		});
		this.#poller = new ConversationPoller({
			client: this.#client,
			budget: this.budget,
			now: this.#now,
			random: options.random,
			intervals: options.intervals,
			sink: {
				conversations: (items, _origin, timing) => this.#onConversations(items, timing),
				removed: (keys) => this.#onRemoved(keys),
				sandboxes: (items, complete) => this.#onSandboxes(items, complete),
				walkComplete: () => {
					if (this.#conversationsListed) return;
					this.#conversationsListed = true;
					this.#touch();
				},
				specs: (items) => this.#onSpecs(items),
				invalid: (count) => {
					this.#invalidItems = count;
					this.#touch();
				},
				health: (health) => {
					this.#health = health;
					this.#touch();
				},
			},
		});
		this.#errorCauses = new ErrorCauses({reader: (conversation) => this.#causeReader(conversation), onChange: (key) => this.#refreshRow(key), now: this.#now});
		this.store = {subscribe: this.#publisher.subscribe, getSnapshot: this.#publisher.get};
		this.controller = {
			refresh: () => this.#poller.refresh(),
			setVisibleConversations: (keys) => {
				this.#poller.setVisible(keys);
				this.#finalResponses.show(keys);
			},
			openTimeline: (key) => {
				this.#openTimeline(key);
				// Now, not with the next batch: the view moves to the timeline on the same key, and a batch
				// window (longer behind a busy stream) showed the previous conversation's events there.
				this.#publisher.flush();
			},
			closeTimeline: () => this.#closeTimeline(),
			loadOlderEvents: () => this.#timeline?.loadOlder(),
			loadNewerEvents: () => this.#timeline?.loadNewer(),
			timelineToNewest: () => this.#timeline?.toNewest(),
			pinTimeline: (range) => this.#timeline?.pin(range),
			...createSandboxActions({
				client: this.#client,
				budget: this.budget,
				secrets: this.#secrets,
				now: this.#now,
				actionTimeoutMs: this.#actionTimeoutMs,
				rows: () => this.#sandboxes,
				setPending: (key, pending) => this.#setPending(key, pending),
				setCapWatch: (watch) => {
					this.#capWatch = watch;
				},
				runningCap: () => this.#runningCap,
				updateWatch: () => this.#updateWatch(),
				refreshSandboxes: () => this.#poller.refreshSandboxes(),
				notice: (text, level) => this.#setNotice(text, level),
				closed: () => this.#closed,
			}),
			...createConversationActions({
				appBaseUrl: options.appBaseUrl,
				client: this.#agentClient,
				secrets: this.#secrets,
				conversation: (key) => this.#rows.get(key)?.conversation,
				onAccepted: () => this.#poller.refresh(),
			}),
			...createSearchAcross({
				appBaseUrl: options.appBaseUrl,
				client: this.#agentClient,
				secrets: this.#secrets,
				conversation: (key) => this.#rows.get(key)?.conversation,
				// Stopped conversations through the stored copy, one request at a time each, under the shared budget.
				...(this.#client.storedEvents
					? {stored: {client: this.#client.storedEvents, pace: (key: string): Pace => (task) => this.budget.schedule(`search-stored:${key}`, task, 'visible')}}
					: {}),
			}),
			...createChangesOpener({
				appBaseUrl: options.appBaseUrl,
				secrets: this.#secrets,
				conversation: (key) => this.#rows.get(key)?.conversation,
				// Through the app server's git proxy (the bearer key), the agent server where it has none.
				app: this.#client.gitChanges && this.#client.gitDiff ? budgetedGitProxy(this.#client as Required<Pick<DashboardClient, 'gitChanges' | 'gitDiff'>>, this.budget, 'visible') : null,
				workspace: (conversation) => this.#workspaceOf(conversation),
				agentGit: (conversation, appBaseUrl) =>
					conversation.conversation_url
						? new GitClient({baseUrl: agentBaseUrl(conversation.conversation_url, appBaseUrl), sessionApiKey: conversation.session_api_key ?? null, maxRetries: 1, ...this.#transported})
						: null,
			}),
			startConversation: (request) => this.#startConversation(request),
			resetStart: () => {
				// A start still streaming is abandoned (its result is ignored), not cancelled on the server.
				this.#startRun++;
				this.#startAbort?.abort();
				this.#startAbort = null;
				this.#start = idleStart;
				this.#touch();
			},
			notice: (text, level) => this.#setNotice(text, level),
			dismissNotice: () => {
				if (this.#notice === null) return;
				this.#notice = null;
				this.#touch();
			},
			close: () => this.#close(),
		};
		if (options.autoStart !== false) this.#poller.start();
	}

	#initialSnapshot(): DashboardSnapshot {
		return {
			version: 0,
			serverLabel: redact(this.#options.serverLabel, this.#options.secrets ?? []),
			keySource: this.#options.keySource ? redact(this.#options.keySource, this.#options.secrets ?? []) : null,
			demo: this.#options.demo,
			connection: {
				health: 'polling',
				lastSuccessAt: null,
				lastError: null,
				keyRejected: false,
				nextRetryAt: null,
				requestsLastMinute: 0,
				budgetPerMinute: this.budget.perMinute,
				clockOffsetMs: 0,
				clockSource: 'none',
				eventZone: null,
			},
			conversations: this.#rows,
			sandboxes: this.#sandboxes,
			conversationsListed: false,
			sandboxesListed: false,
			specs: this.#specs,
			runningSandboxCap: this.#runningCap,
			invalidItems: 0,
			timeline: null,
			start: this.#start,
			notice: null,
			answers: this.#finalResponses.answers,
		};
	}

	/** Every agent-server client goes through this server's transport (its pool, clock and pacing). */
	get #transported(): {transport?: Transport} {
		return this.#options.transport ? {transport: this.#options.transport} : {};
	}

	readonly #agentClient = (conversation: AppConversation, appBaseUrl: string): AgentClient =>
		AgentClient.fromConversation(conversation, appBaseUrl, {maxRetries: 1, ...this.#transported});

	/**
	 * How to read an errored conversation's cause: its agent server while the sandbox runs (that
	 * server's own limits, not the app server's budget), else the stored copy, behind what a person
	 * looks at in the app server's budget. Without either, it stays unknown.
	 */
	#causeReader(conversation: AppConversation): ReadCause {
		const conversationId = String(conversation.id);
		if (historySource(conversation) === 'agent-server') {
			const client = this.#agentClient(conversation, this.#options.appBaseUrl);
			return (signal) => readAgentErrorCause(client, signal);
		}
		const stored = this.#client.storedEvents;
		if (!stored) return () => Promise.resolve(null);
		return (signal) => this.budget.schedule(`error-cause:${normalizeId(conversationId)}`, (budgetSignal) => readErrorCause(stored, conversationId, AbortSignal.any([signal, budgetSignal])), 'background');
	}

	// ---- publishing ---------------------------------------------------------------------------

	#touch(): void {
		if (this.#closed) return;
		this.#publisher.schedule(() => this.#buildSnapshot());
	}

	#mutableRows(): Map<string, ConversationRow> {
		if (!this.#rowsOwned) {
			this.#rows = new Map(this.#rows);
			this.#rowsOwned = true;
		}

		return this.#rows;
	}

	#buildSnapshot(): DashboardSnapshot {
		const previous = this.#publisher.get();
		this.#publisher.setWindow(publishWindowMs(this.#flushMs, this.#liveSincePublish));
		this.#liveSincePublish = 0;
		if (this.#linksDirty) {
			this.#linksDirty = false;
			this.#sandboxes = relinkSandboxes(this.#sandboxes, this.#conversationKeysBySandbox());
		}

		// From here on the published Map is shared: the next change copies it first.
		this.#rowsOwned = false;
		const timeline = this.#timeline?.state() ?? null;
		const parts = {
			conversations: this.#rows as ReadonlyMap<string, ConversationRow>,
			sandboxes: this.#sandboxes,
			conversationsListed: this.#conversationsListed,
			sandboxesListed: this.#sandboxesListed,
			specs: this.#specs,
			runningSandboxCap: this.#runningCap,
			invalidItems: this.#invalidItems,
			timeline,
			start: this.#start,
			notice: this.#notice,
			answers: this.#finalResponses.answers,
		};
		const dataChanged =
			parts.conversations !== previous.conversations ||
			parts.sandboxes !== previous.sandboxes ||
			parts.sandboxesListed !== previous.sandboxesListed ||
			parts.conversationsListed !== previous.conversationsListed ||
			parts.specs !== previous.specs ||
			parts.runningSandboxCap !== previous.runningSandboxCap ||
			parts.invalidItems !== previous.invalidItems ||
			parts.timeline !== previous.timeline ||
			parts.start !== previous.start ||
			parts.notice !== previous.notice ||
			parts.answers !== previous.answers;
		const connection = this.#connection(previous.connection, dataChanged);
		if (!dataChanged && connection === previous.connection) return previous;
		if (parts.conversations !== previous.conversations) this.#poller.setAttention(attentionKeys(parts.conversations));
		return {...previous, ...parts, connection, version: previous.version + 1};
	}

	#connection(previous: ConnectionState, dataChanged: boolean): ConnectionState {
		const health = this.#health;
		const stream = this.#timeline?.state().stream.state;
		let state: ConnectionHealth;
		if (health.keyRejected) state = 'offline';
		else if (!health.ok) state = health.lastSuccessAt === null ? 'offline' : 'stale';
		else if (stream === 'live') state = 'live';
		else if (stream === 'reconnecting' || stream === 'failed') state = 'reconnecting';
		else state = 'polling';
		const clockOffsetMs = this.#publishedOffset(previous.clockOffsetMs);
		const clockSource = this.#dataClock.source();
		const naiveOffset = this.#dataClock.naiveOffsetMs();
		const eventZone = naiveOffset === null ? null : zoneLabel(naiveOffset);
		const agesUnverified = !this.#agesKnown;
		const same =
			previous.clockOffsetMs === clockOffsetMs &&
			previous.clockSource === clockSource &&
			previous.eventZone === eventZone &&
			(previous.agesUnverified ?? false) === agesUnverified &&
			previous.health === state &&
			previous.lastError === health.lastError &&
			previous.keyRejected === health.keyRejected &&
			previous.nextRetryAt === health.nextRetryAt &&
			sameBudgetSharing(previous, this.budget);
		// A newer success time alone is not worth a render: polls that bring nothing new must not
		// re-render an idle dashboard. It is published with the next change, and always together
		// with a change of health (so "stale since" is exact).
		if (same && !dataChanged && previous.lastSuccessAt !== null) return previous;
		return {
			health: state,
			lastSuccessAt: health.lastSuccessAt,
			lastError: health.lastError === null ? null : redact(health.lastError, this.#secrets),
			keyRejected: health.keyRejected,
			nextRetryAt: health.nextRetryAt,
			requestsLastMinute: this.budget.requestsLastMinute(),
			...budgetSharing(this.budget),
			clockOffsetMs,
			clockSource,
			eventZone,
			...(agesUnverified ? {agesUnverified} : {}),
		};
	}

	/**
	 * The offset as published: whole seconds, and moved only when the estimate moved by more than
	 * a second, so the jitter of the estimate never re-renders an idle dashboard.
	 */
	#publishedOffset(previous: number): number {
		const estimate = this.#dataClock.offsetMs();
		return Math.abs(estimate - previous) > 1000 ? Math.round(estimate / 1000) * 1000 : previous;
	}

	/** Now by the data's clock: what server timestamps (ages, quiet, "for 3m") are compared with. */
	#serverNow(): number {
		return this.#now() + this.#publishedOffset(this.#publisher.get().connection.clockOffsetMs);
	}

	/**
	 * One notice slot. A routine message does not wipe out a recent warning or error (the cap
	 * pause must not vanish under "running again" a poll later): it is appended to it instead.
	 */
	#setNotice(text: string, level: 'info' | 'warn' | 'error'): void {
		const now = this.#now();
		const clean = redact(text, this.#secrets);
		const previous = this.#notice;
		const fresh = previous !== null && now - previous.at < noticeKeepMs;
		const repeat = fresh ? this.#noticeParts.find((part) => part.text === clean) : undefined;
		if (repeat) {
			// The same message again (a status seen by two polls, a second refusal): counted, not repeated.
			repeat.count++;
			this.#notice = {text: this.#joinedNotice(), level: previous!.level, at: severity[previous!.level] > severity[level] ? previous!.at : now};
		} else if (previous && fresh && severity[previous.level] > severity[level]) {
			this.#noticeParts.push({text: clean, count: 1});
			// Keeps the warning's time, so routine messages cannot hold it on screen forever.
			this.#notice = {text: this.#joinedNotice(), level: previous.level, at: previous.at};
		} else {
			this.#noticeParts = [{text: clean, count: 1}];
			this.#notice = {text: clean, level, at: now};
		}

		this.#touch();
	}

	#joinedNotice(): string {
		const joined = this.#noticeParts.map((part) => (part.count > 1 ? `${part.text} (×${part.count})` : part.text)).join(' ');
		return joined.length > 400 ? `${joined.slice(0, 399)}…` : joined;
	}

	// ---- conversations ------------------------------------------------------------------------

	#rowFor(key: string, conversation: AppConversation, previous: ConversationRow | undefined): ConversationRow {
		const timeline = this.#timeline?.key === key ? this.#timeline : null;
		const streamStatus = timeline?.executionStatus ?? null;
		const live = streamStatus ?? conversation.execution_status;
		if (live) this.#lastKnownStatus.set(key, String(live));
		const signature = statusSignature(conversation, live ? String(live) : (this.#lastKnownStatus.get(key) ?? null));
		const seen = this.#statusSeen.get(key);
		if (!seen) {
			// First sight: the transition time is unknown; updated_at then is the best the server gives,
			// kept, so a later updated_at (its sandbox paused) does not make an old status look new.
			const updatedAt = parseUtc(conversation.updated_at);
			this.#statusSeen.set(key, {agent: signature.agent, agentSince: updatedAt, sandbox: signature.sandbox, sandboxSince: updatedAt});
		} else if (seen.agent !== signature.agent || seen.sandbox !== signature.sandbox) {
			const now = this.#serverNow();
			// An agent status seen for the first time (none was known: its sandbox was not running) is
			// no transition we saw happen: it began by updated_at, as on first sight.
			const agentSince = seen.agent === '' ? parseUtc(conversation.updated_at) : now;
			this.#statusSeen.set(key, {
				agent: signature.agent,
				agentSince: seen.agent === signature.agent ? seen.agentSince : agentSince,
				sandbox: signature.sandbox,
				sandboxSince: seen.sandbox === signature.sandbox ? seen.sandboxSince : now,
			});
		}

		const children = [...this.#subAgents.children(key)].flatMap((child) => this.#rows.get(child) ?? []);
		const now = this.#serverNow();
		this.#spend.observe(key, conversation, live ? String(live) : null);
		const rate = costPerHour(this.#spend.history.samples(key), now, {createdAt: parseTime(conversation.created_at)});
		const status = this.#lastKnownStatus.get(key) ?? null;
		// In error: why. Read once per error (a later error has a later updated_at).
		const errorCause = status === 'error' ? this.#errorCauses.causeFor(key, conversation, String(conversation.updated_at ?? '')) : undefined;
		// Its goal loop, as its open timeline says (remembered after it closes: nothing else says it).
		if (timeline) this.#goals.set(key, timeline.goal);
		const goal = this.#goals.get(key);
		return buildRow(previous, conversation, {
			sandboxDetail: this.#sandboxDetail(conversation),
			subAgent: children.length === 0 ? null : subAgentReason(children),
			costPerHour: roundRate(rate),
			spending: this.#spend.verdict(key),
			sessionStart: this.#sessionStart(conversation),
			lastKnownStatus: status,
			...(errorCause === undefined ? {} : {errorCause}),
			...(goal === undefined ? {} : {goal}),
			now: this.#serverNow(),
			quietAfterMs: this.#quietAfterMs,
			...(this.#agesKnown ? {} : {agesKnown: false, quietSeenMs: this.#heldFor(key)}),
			...(this.#options.repeatThreshold === undefined ? {} : {repeatThreshold: this.#options.repeatThreshold}),
			streamStatus,
			events: timeline?.currentEvents ?? null,
			streamActivityAt: this.#streamActivity.get(key) ?? null,
			statusSince: this.#statusSeen.get(key)?.agentSince ?? null,
			sandboxStatusSince: this.#statusSeen.get(key)?.sandboxSince ?? null,
			unseenEvents: this.#unseen.get(key) ?? 0,
		});
	}

	/** Where a conversation's workspace is, as far as the sandbox and spec lists say (git-paths.ts). */
	#workspaceOf(conversation: AppConversation): {sandboxWorkingDir: string | null; specWorkingDir: string | null; sharedSandbox: boolean} {
		const row = conversation.sandbox_id ? this.#sandboxes.get(normalizeId(conversation.sandbox_id)) : undefined;
		const spec = row?.sandbox.sandbox_spec_id ? this.#specs.find((candidate) => candidate.id === row.sandbox.sandbox_spec_id) : undefined;
		return {sandboxWorkingDir: row?.sandbox.working_dir ?? null, specWorkingDir: spec?.working_dir ?? null, sharedSandbox: (row?.conversationKeys.length ?? 0) > 1};
	}

	/**
	 * Why its sandbox is as it is, when the sandbox list says so for the status this conversation
	 * shows (the two lists are polled apart; a reason for another status would mislead).
	 */
	#sandboxDetail(conversation: AppConversation): string | null {
		if (!conversation.sandbox_id) return null;
		const sandbox = this.#sandboxes.get(normalizeId(conversation.sandbox_id))?.sandbox;
		if (!sandbox?.status_detail) return null;
		return String(sandbox.status).toUpperCase() === String(conversation.sandbox_status ?? '').toUpperCase() ? sandbox.status_detail : null;
	}

	/** Its sandbox shows a status that may have a reason (ERROR, STARTING, UNKNOWN, …) the sandbox list does not show yet. */
	#sandboxNeedsReason(conversation: AppConversation): boolean {
		const status = String(conversation.sandbox_status ?? '').toUpperCase();
		if (!conversation.sandbox_id || ['RUNNING', 'PAUSED', 'MISSING', ''].includes(status)) return false;
		const key = normalizeId(conversation.sandbox_id);
		const listed = this.#sandboxes.get(key)?.sandbox.status;
		if (!this.#sandboxesListed || String(listed ?? '').toUpperCase() === status) return false;
		// Once per sandbox and status: a sandbox the list never shows must not cost a list per poll.
		if (this.#reasonAsked.get(key) === status) return false;
		this.#reasonAsked.set(key, status);
		return true;
	}

	#onConversations(items: readonly AppConversation[], timing?: AnswerTiming): void {
		// What the whole answer says of the clock first: whether ages can be told holds for every row.
		if (timing) {
			let atWork = false;
			for (const conversation of items) {
				const key = conversationKey(conversation);
				this.#observeClock(key, conversation, this.#rows.get(key)?.conversation, timing);
				this.#observeHeld(key, conversation, timing);
				atWork ||= isAtWork(conversation);
			}
			if (atWork) this.#dataClock.observeAtWork();
		}
		const agesKnown = this.#dataClock.agesKnown();
		const flipped = agesKnown !== this.#agesKnown;
		this.#agesKnown = agesKnown;
		let changed = false;
		const parents = new Set<string>();
		for (const conversation of items) {
			const key = conversationKey(conversation);
			const previous = this.#rows.get(key);
			const linked = this.#subAgents.link(key, parentKeyOf(conversation));
			const row = this.#rowFor(key, conversation, previous);
			if (row === previous) continue;
			this.#mutableRows().set(key, row);
			changed = true;
			for (const parent of linked) parents.add(parent);
			if (!previous || previous.conversation.sandbox_id !== row.conversation.sandbox_id) this.#linksDirty = true;
			if (this.#timeline?.key === key) this.#timeline.update(conversation);
		}

		this.#refreshParents(parents);
		if (flipped) {
			// Ages became known (or doubtful): every row's age-based reasons (quiet) follow at once.
			const listed = new Set(items.map((conversation) => conversationKey(conversation)));
			for (const key of [...this.#rows.keys()]) if (!listed.has(key)) this.#refreshRow(key);
			changed = true;
		}
		if (changed) {
			this.#touch();
			// Rows on screen that changed may have a new last answer.
			this.#finalResponses.changed();
		}
		// A sandbox that went into trouble says why only in the sandbox list: read it now, not a minute later.
		if (items.some((conversation) => this.#sandboxNeedsReason(conversation))) this.#poller.refreshSandboxes();
		// The list must not say "paused" while p and r still say "pausing…" until the next
		// sandbox poll: a conversation that shows the awaited status settles the action now.
		const confirmed = confirmedByConversations(this.#sandboxes, items);
		if (confirmed.length > 0) this.#onSandboxes(confirmed, false);
	}

	/**
	 * What an answer says about the data's clock (state/data-clock.ts): an `updated_at` that changed
	 * since the last answer bounds it both ways, one seen the first time from below. For the open
	 * conversation, a change that came with a live event pairs that event's naive time with the app
	 * server's UTC time of the same moment: the zone of the event times.
	 */
	#observeClock(key: string, conversation: AppConversation, before: AppConversation | undefined, timing: AnswerTiming): void {
		const updatedAt = parseUtc(conversation.updated_at);
		const askedBefore = this.#answeredAt.get(key);
		this.#answeredAt.set(key, timing.sentAt);
		if (updatedAt === null) return;
		if (!before || askedBefore === undefined) {
			this.#dataClock.observeSeen(updatedAt, timing.receivedAt);
			return;
		}
		if (before.updated_at === conversation.updated_at) return;
		this.#dataClock.observeChange(updatedAt, askedBefore, timing.receivedAt);
		const newest = this.#timeline?.key === key ? this.#timeline.newestLive : null;
		// The event written last before this answer: it arrived after the previous one was asked for.
		if (newest && newest.arrivedAt >= askedBefore && newest.arrivedAt <= timing.receivedAt) {
			this.#dataClock.observeSameMoment(newest.timestamp, updatedAt);
		}
	}

	/**
	 * Since when (our clock) each conversation's `updated_at` has stood still, as answers showed it:
	 * the first answer with the current value arrived then, and every later one still had it.
	 */
	#observeHeld(key: string, conversation: AppConversation, timing: AnswerTiming): void {
		const updatedAt = String(conversation.updated_at ?? '');
		if (this.#held.get(key)?.updatedAt !== updatedAt) this.#held.set(key, {updatedAt, since: timing.receivedAt});
	}

	/**
	 * How long we have watched a conversation write nothing (our clock, no server's): from the
	 * arrival of the first answer with its current `updated_at` to the request of the latest one
	 * that still had it. A lower bound of its quiet time that needs no clock of the data.
	 */
	#heldFor(key: string): number | null {
		const held = this.#held.get(key);
		const asked = this.#answeredAt.get(key);
		return held && asked !== undefined ? Math.max(0, asked - held.since) : null;
	}

	/**
	 * Recomputes one row from its current conversation (stream status, events, unseen, its
	 * sandbox's reason or its sub-agents changed); its parent follows when it changed.
	 */
	#refreshRow(key: string): void {
		if (this.#rebuild(key)) this.#refreshParents([key].flatMap((child) => this.#subAgents.parentOf(child) ?? []));
	}

	#rebuild(key: string): boolean {
		const previous = this.#rows.get(key);
		if (!previous) return false;
		const row = this.#rowFor(key, previous.conversation, previous);
		if (row === previous) return false;
		this.#mutableRows().set(key, row);
		this.#touch();
		return true;
	}

	/** Rebuilds these parents, then theirs while something changed (each once: ids can loop). */
	#refreshParents(keys: Iterable<string>): void {
		const seen = new Set<string>();
		let queue = [...keys];
		while (queue.length > 0) {
			const next: string[] = [];
			for (const key of queue) {
				if (seen.has(key)) continue;
				seen.add(key);
				const grandparent = this.#subAgents.parentOf(key);
				if (this.#rebuild(key) && grandparent) next.push(grandparent);
			}
			queue = next;
		}
	}

	/**
	 * A look-up answered null: the server does not know the id any more (deleted, or no longer
	 * visible to this user). The row is removed rather than kept as MISSING: MISSING is a real
	 * sandbox status with another meaning (the conversation exists, its runtime does not), and a
	 * ghost row would invite actions that can only fail. An open timeline stays open, with a notice.
	 */
	#onRemoved(keys: readonly string[]): void {
		let removed = 0;
		const parents: string[] = [];
		for (const key of keys) {
			if (!this.#rows.has(key)) continue;
			this.#mutableRows().delete(key);
			const parent = this.#subAgents.unlink(key);
			if (parent) parents.push(parent);
			this.#statusSeen.delete(key);
			this.#streamActivity.delete(key);
			this.#lastKnownStatus.delete(key);
			this.#unseen.delete(key);
			this.#finalResponses.forget(key);
			this.#answeredAt.delete(key);
			this.#held.delete(key);
			this.#spend.forget(key);
			this.#gitState.forget(key);
			this.#errorCauses.forget(key);
			this.#goals.delete(key);
			removed++;
		}

		if (removed === 0) return;
		this.#refreshParents(parents);
		this.#linksDirty = true;
		const open = this.#timeline?.key;
		if (open && keys.includes(open)) {
			this.#setNotice(`Conversation ${shortId(open)} no longer exists on the server.`, 'warn');
		}

		this.#touch();
	}

	#conversationKeysBySandbox(): Map<string, string[]> {
		const index = new Map<string, string[]>();
		for (const row of this.#rows.values()) {
			const sandboxId = row.conversation.sandbox_id;
			if (!sandboxId) continue;
			const key = normalizeId(sandboxId);
			const list = index.get(key);
			if (list) list.push(row.key);
			else index.set(key, [row.key]);
		}

		for (const list of index.values()) list.sort();
		return index;
	}

	// ---- sandboxes ----------------------------------------------------------------------------

	#onSandboxes(items: readonly Sandbox[], complete: boolean): void {
		const now = this.#now();
		if (complete) {
			this.#linksDirty = false;
			this.#sandboxesListed = true;
		}
		const merged = mergeSandboxes(this.#sandboxes, items, {
			now,
			conversationKeys: this.#conversationKeysBySandbox(),
			capWatch: this.#capWatch,
			actionTimeoutMs: this.#actionTimeoutMs,
			complete,
		});
		if (merged.notices.length > 0) {
			const level = worst(merged.notices.map((notice) => notice.level)) ?? 'info';
			for (const text of new Set(merged.notices.map((notice) => notice.text))) this.#setNotice(text, level);
		}

		const watch = this.#capWatch;
		if (watch) {
			// The service kept (others running before - those it paused) + the new one: that is its cap.
			let pausedNow = 0;
			for (const [key, row] of merged.rows) if (row.pausedByCap && !this.#sandboxes.get(key)?.pausedByCap) pausedNow++;
			if (pausedNow > 0) this.#runningCap = watch.runningBefore.size - pausedNow + 1;
			this.#checkCapWatch(watch, merged.rows, now, pausedNow > 0);
		}

		if (merged.changed) {
			const before = this.#sandboxes;
			this.#sandboxes = merged.rows;
			this.#touch();
			// A sandbox's reason shows on its conversations' rows: rebuild those whose reason changed.
			for (const [key, row] of merged.rows) {
				const old = before.get(key)?.sandbox;
				const detail = row.sandbox.status_detail ?? null;
				if ((old?.status_detail ?? null) === detail && (detail === null || old?.status === row.sandbox.status)) continue;
				for (const conversationKey of row.conversationKeys) this.#refreshRow(conversationKey);
			}
		}
		this.#noteSessions(merged.rows);

		this.#updateWatch();
	}

	/**
	 * When each sandbox's running session began, as far as seen: a change to RUNNING after the first
	 * sight is exact; one already running at first sight began at its creation at the earliest.
	 */
	#noteSessions(rows: ReadonlyMap<string, SandboxRow>): void {
		for (const [key, row] of rows) {
			const status = String(row.sandbox.status).toUpperCase();
			const seen = this.#sessions.get(key);
			if (seen?.status === status) continue;
			const started = seen !== undefined && status === 'RUNNING' ? this.#serverNow() : null;
			this.#sessions.set(key, {status, runningSince: started});
		}
	}

	#sessionStart(conversation: AppConversation): {at: number; exact: boolean} | null {
		if (String(conversation.sandbox_status) !== 'RUNNING' || !conversation.sandbox_id) return null;
		const key = sandboxKeyOf(this.#sandboxes, conversation.sandbox_id);
		const seen = this.#sessions.get(key);
		if (seen?.runningSince != null) return {at: seen.runningSince, exact: true};
		const created = parseTime(this.#sandboxes.get(key)?.sandbox.created_at);
		return created === null ? null : {at: created, exact: false};
	}

	/** Tells the poller which sandboxes to look up quickly (none: back to the slow full list). */
	#updateWatch(): void {
		// The cap watch itself outlives the resume (the service may pause the other sandbox a bit
		// later); the slow full list still sees that until the watch expires.
		this.#poller.watchSandboxes(watchedSandboxIds(this.#sandboxes, this.#capWatch));
	}

	/**
	 * The question said what the service would pause; this checks it against what the service did.
	 * The resume (or start) is done when its sandbox runs (or its task is READY); the sandboxes that
	 * were running are then waited for `capGraceMs` more, looked up meanwhile, and a difference
	 * either way is said in a notice. The watch ends there, or once every named one is PAUSED.
	 */
	#checkCapWatch(watch: CapWatch, rows: ReadonlyMap<string, SandboxRow>, now: number, pausedNow: boolean): void {
		if (watch.settledAt === null && watch.resumedKey !== '') {
			const resumed = rows.get(watch.resumedKey);
			if (resumed && !resumed.pending) this.#settleCapWatch(now);
		}

		const named = watch.predicted.length > 0 && watch.predicted.every((key) => String(rows.get(key)?.sandbox.status).toUpperCase() === 'PAUSED');
		const final = now > watch.until || (watch.settledAt !== null && named);
		const verdict = pausedNow || final ? capVerdict(rows, watch, final) : null;
		if (verdict) this.#setNotice(verdict.text, verdict.level);
		if (final) this.#capWatch = null;
	}

	/** The resume or start the cap watch is about is done: the named sandboxes get `capGraceMs` more. */
	#settleCapWatch(now: number): void {
		const watch = this.#capWatch;
		if (!watch || watch.settledAt !== null) return;
		this.#capWatch = {...watch, settledAt: now, until: Math.min(watch.until, now + capGraceMs(now - watch.startedAt))};
		// Anything the question did not foresee shows in the whole list: read it once more now.
		this.#poller.refreshSandboxes();
	}

	#onSpecs(items: readonly SandboxSpec[]): void {
		const same =
			items.length === this.#specs.length && items.every((spec, index) => JSON.stringify(spec) === JSON.stringify(this.#specs[index]));
		if (same) return;
		this.#specs = items;
		this.#touch();
	}

	#setPending(key: string, pending: SandboxRow['pending']): void {
		const row = this.#sandboxes.get(key);
		if (!row) return;
		const next = new Map(this.#sandboxes);
		next.set(key, {...row, pending});
		this.#sandboxes = next;
		this.#touch();
	}

	// ---- timeline -----------------------------------------------------------------------------

	#openTimeline(key: string): void {
		if (this.#closed) return;
		const normalized = normalizeId(key);
		const row = this.#rows.get(normalized);
		if (!row) {
			// A conversation just started: the view asks as soon as the task says READY, while the
			// start flow is still fetching it; the flow opens it (or says why not) when that returns.
			if (this.#start.state === 'ready' && this.#start.conversationKey === normalized) return;
			this.#setNotice(`Conversation ${shortId(normalized)} is not in the list (yet); refresh and try again.`, 'warn');
			return;
		}

		const open = this.#timeline;
		if (open?.key === normalized && open.state().stream.state !== 'failed') {
			// Already streaming: opening it again only marks its events as seen.
			this.#unseen.set(normalized, 0);
			this.#refreshRow(normalized);
			return;
		}

		this.#closeTimeline();
		this.#unseen.set(normalized, 0);
		this.#timeline = new TimelineSession({
			key: normalized,
			conversation: row.conversation,
			appBaseUrl: this.#options.appBaseUrl,
			openStream: this.#options.openStream ?? agentStreams(this.#options.transport),
			readHistory: this.#historyReader(row.conversation.id),
			...(this.#options.maxTimelineEvents === undefined ? {} : {maxEvents: this.#options.maxTimelineEvents}),
			...(this.#options.maxTimelineBytes === undefined ? {} : {maxBytes: this.#options.maxTimelineBytes}),
			now: this.#now,
			// The data's clock the rows' ages use: the stream's live events tell it, and its lag reads it.
			dataClock: this.#dataClock,
			secrets: this.#secrets,
			onChange: (change) => this.#onTimelineChange(normalized, change),
		});
		this.#refreshRow(normalized);
		this.#touch();
	}

	/**
	 * The stored history of one conversation through the shared budget: what the user is looking
	 * at, so it goes ahead of the background walk but never past the server's limits.
	 */
	#historyReader(conversationId: string): ReadHistoryPage | undefined {
		const client = this.#client.storedEvents;
		if (!client) return undefined;
		const key = `stored-events:${normalizeId(conversationId)}`;
		const pace: Pace = (task) => this.budget.schedule(key, task, 'visible');
		return async (request) => {
			const page = await readStoredPage({
				client,
				conversationId,
				sortOrder: request.sortOrder,
				limit: request.limit,
				...(request.pageId === null ? {} : {pageId: request.pageId}),
				...(request.timestampLt === undefined ? {} : {timestampLt: request.timestampLt}),
				...(request.timestampGte === undefined ? {} : {timestampGte: request.timestampGte}),
				pace,
				signal: request.signal,
			});
			return {events: page.events, nextPageId: page.nextPageId};
		};
	}

	#onTimelineChange(key: string, change: TimelineChange): void {
		if (this.#timeline?.key !== key || this.#closed) return;
		if (change.liveEvents > 0) this.#unseen.set(key, (this.#unseen.get(key) ?? 0) + change.liveEvents);
		this.#liveSincePublish += change.liveEvents;
		if (change.newestActivityAt !== null && change.newestActivityAt > (this.#streamActivity.get(key) ?? 0)) {
			this.#streamActivity.set(key, change.newestActivityAt);
		}

		this.#refreshRow(key);
		this.#touch();
		if (change.urgent) this.#publisher.flush();
	}

	#closeTimeline(): void {
		const session = this.#timeline;
		if (!session) return;
		this.#timeline = null;
		void session.close();
		// The row goes back to the polled status (nothing streams for it any more).
		this.#refreshRow(session.key);
		this.#touch();
	}

	// ---- start --------------------------------------------------------------------------------

	async #startConversation(input: StartInput): Promise<void> {
		if (this.#closed) return;
		if (this.#start.state === 'starting') {
			this.#setNotice('A conversation is already starting; wait for it or reset the form.', 'warn');
			return;
		}

		const run = ++this.#startRun;
		// A start may make the service pause the oldest other running sandboxes: watch for it.
		this.#capWatch = capWatchFor(this.#sandboxes, '', 'Starting a conversation', this.#runningCap, this.#now(), this.#actionTimeoutMs);
		const current = () => run === this.#startRun && !this.#closed;
		const abort = new AbortController();
		this.#startAbort?.abort();
		this.#startAbort = abort;
		await runStart(input, {
			client: this.#client,
			budget: this.budget,
			secrets: this.#secrets,
			signal: abort.signal,
			current,
			phases: () => this.#start.phases,
			progress: (patch, replace) => {
				if (!current()) return;
				this.#start = replace ? {...idleStart, ...patch} : {...this.#start, ...patch};
				this.#touch();
			},
			opened: (conversation) => {
				this.#settleCapWatch(this.#now());
				this.#poller.track(conversation);
				this.#onConversations([conversation]);
				this.#poller.refreshSandboxes();
				this.#openTimeline(conversationKey(conversation));
			},
			notice: (text, level) => this.#setNotice(text, level),
			refresh: () => this.#poller.refresh(),
		});
		// Ended without opening (an ERROR, a reset): the watch waits no longer than the grace.
		if (this.#capWatch?.resumedKey === '') this.#settleCapWatch(this.#now());
	}

	// ---- close --------------------------------------------------------------------------------

	async #close(): Promise<void> {
		if (this.#closed) return;
		const session = this.#timeline;
		this.#timeline = null;
		this.#closed = true;
		this.#spend.close();
		// No agent's last answer is read after close (a poll's news or a row shown would start one).
		this.#finalResponses.close();
		this.#startRun++;
		this.#startAbort?.abort();
		this.#poller.close();
		this.#errorCauses.close();
		this.#publisher.close();
		if (this.#ownsBudget) this.budget.close();
		await session?.close();
	}
}

/** An app-server datetime (UTC, `Z`) in ms; null when absent or unreadable. */
function parseUtc(value: string | null | undefined): number | null {
	if (!value) return null;
	const ms = Date.parse(value);
	return Number.isNaN(ms) ? null : ms;
}

function attentionKeys(rows: ReadonlyMap<string, ConversationRow>): string[] {
	const keys: string[] = [];
	for (const row of rows.values()) if (row.attention.length > 0) keys.push(row.key);
	return keys;
}

function worst(levels: Array<'info' | 'warn' | 'error'>): 'info' | 'warn' | 'error' | undefined {
	if (levels.includes('error')) return 'error';
	if (levels.includes('warn')) return 'warn';
	return levels[0];
}


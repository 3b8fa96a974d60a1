import {normalizeId} from '../wire/ids.js';
import {conversationLink} from './conversation-link.js';
import {serverClock} from '../wire/server-clock.js';
import type {AppConversation} from '../wire/schemas/app.js';
import {defaultQuietAfterMs, subAgentReason} from './attention.js';
import {DashboardSpend} from './dashboard-spend.js';
import {BatchedPublisher} from './batched-publisher.js';
import {DataClock, zoneLabel} from './data-clock.js';
import {DashboardClocks, parseUtc} from './dashboard-clocks.js';
import {SandboxFacts} from './dashboard-sandboxes.js';
import {onDataClock} from './age-basis.js';
import type {ErrorCauses} from './error-causes.js';
import {attentionKeys, createErrorCauses} from './dashboard-causes.js';
import {
	type AnswerTiming,
	ConversationPoller,
	type PollerHealth,
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
	StartProgress,
} from './dashboard-types.js';
import {redact} from './redact.js';
import {RequestBudget} from './request-budget.js';
import {shortId} from './sandbox-rows.js';
import {FinalResponses} from './final-responses.js';
import {AgentClient} from '../wire/agent-client.js';
import {GitClient} from '../wire/git-client.js';
import {agentBaseUrl} from '../wire/agent-base-url.js';
import type {Transport} from '../wire/transport.js';
import {createConversationActions} from './conversation-actions.js';
import {createSandboxActions} from './sandbox-actions.js';
import {createSearchAcross} from './event-search.js';
import {createChangesOpener} from './changes-session.js';
import {runStart, type StartInput} from './start-conversation.js';
import type {Pace} from './stored-history.js';
import {DashboardTimeline} from './dashboard-timeline.js';
import {publishWindowMs} from './flood-window.js';
import {Notices} from './dashboard-notices.js';
import type {CreateDashboardOptions, Dashboard, DashboardClient} from './dashboard-options.js';

export type {CreateDashboardOptions, Dashboard, DashboardClient} from './dashboard-options.js';

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

export {defaultSpendAfterMs} from './dashboard-spend.js';

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
	readonly #clocks: DashboardClocks;
	readonly #sandboxes: SandboxFacts;
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
	#invalidItems = 0;
	#health: PollerHealth;
	readonly #timeline: DashboardTimeline;
	#start: StartProgress = idleStart;
	readonly #notices: Notices;
	#conversationsListed = false;
	/** key -> the agent's and the sandbox's status, and when the store saw each appear (null: before it looked). */
	#statusSeen = new Map<string, {agent: string; agentSince: number | null; sandbox: string; sandboxSince: number | null}>();
	/** The last execution status seen per conversation: the server sends none once its sandbox stops. */
	#lastKnownStatus = new Map<string, string>();
	/** Parents and their sub-conversations: a child that needs you raises its parent. */
	readonly #subAgents = new SubAgentIndex();
	readonly #spend: DashboardSpend;
	#startRun = 0;
	#startAbort: AbortController | null = null;
	#closed = false;
	/** Why errored conversations failed (state/error-causes.ts). */
	readonly #errorCauses: ErrorCauses;

	constructor(options: CreateDashboardOptions) {
		this.#options = options;
		this.#client = options.appClient;
		this.#now = options.now ?? (() => Date.now());
		this.#clocks = new DashboardClocks({
			dataClock: options.dataClock ?? new DataClock({fallback: options.clock ?? options.transport?.clock ?? serverClock, now: this.#now}),
			now: this.#now,
			publishedOffsetMs: () => this.#publisher.get().connection.clockOffsetMs,
			newestLive: (key) => this.#timeline.sessionFor(key)?.newestLive ?? null,
		});
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
		this.#notices = new Notices({now: this.#now, secrets: this.#secrets, changed: () => this.#touch()});
		this.#sandboxes = new SandboxFacts({
			server: options.serverLabel,
			now: this.#now,
			serverNow: () => this.#clocks.serverNow(),
			onDataClock: (localMs) => this.#clocks.onDataClock(localMs),
			actionTimeoutMs: this.#actionTimeoutMs,
			runningCap: options.runningSandboxCap ?? null,
			conversationKeys: () => this.#conversationKeysBySandbox(),
			notice: (text, level) => this.#notices.setNotice(text, level),
			refreshRow: (key) => this.#refreshRow(key),
			watchSandboxes: (ids) => this.#poller.watchSandboxes(ids),
			refreshSandboxes: () => this.#poller.refreshSandboxes(),
			changed: () => this.#touch(),
		});
		this.#timeline = new DashboardTimeline({
			appBaseUrl: options.appBaseUrl,
			openStream: options.openStream,
			transport: options.transport,
			maxTimelineEvents: options.maxTimelineEvents,
			maxTimelineBytes: options.maxTimelineBytes,
			storedEvents: this.#client.storedEvents,
			budget: this.budget,
			now: this.#now,
			dataClock: this.#clocks.dataClock,
			secrets: this.#secrets,
			conversation: (key) => this.#rows.get(key)?.conversation,
			starting: (key) => this.#start.state === 'ready' && this.#start.conversationKey === key,
			notice: (text, level) => this.#notices.setNotice(text, level),
			refreshRow: (key) => this.#refreshRow(key),
			changed: () => this.#touch(),
			flush: () => this.#publisher.flush(),
			closed: () => this.#closed,
		});
		this.#flushMs = options.flushMs ?? 100;
		this.#publisher = new BatchedPublisher<DashboardSnapshot>(this.#initialSnapshot(), this.#flushMs);
		this.#spend = new DashboardSpend({
			appBaseUrl: options.appBaseUrl,
			afterMs: options.spendAfterMs,
			serverNow: () => this.#clocks.serverNow(),
			...(options.progressClient ? {progressClient: options.progressClient} : {}),
			app: this.#client.gitChanges && this.#client.gitDiff ? (this.#client as Required<Pick<DashboardClient, 'gitChanges' | 'gitDiff'>>) : null,
			workspace: (conversation) => this.#sandboxes.workspaceOf(conversation),
			transported: () => this.#transported,
			changed: (key) => this.#refreshRow(key),
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
				sandboxes: (items, complete) => this.#sandboxes.onSandboxes(items, complete),
				walkComplete: () => {
					if (this.#conversationsListed) return;
					this.#conversationsListed = true;
					// The whole listing is in: ages resting on the Date header alone may now be told.
					this.#onConversations([]);
					this.#touch();
				},
				specs: (items) => this.#sandboxes.onSpecs(items),
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
		this.#errorCauses = createErrorCauses({
			appBaseUrl: options.appBaseUrl,
			budget: this.budget,
			storedEvents: this.#client.storedEvents,
			agentClient: this.#agentClient,
			onChange: (key) => this.#refreshRow(key),
			now: this.#now,
		});
		this.store = {subscribe: this.#publisher.subscribe, getSnapshot: this.#publisher.get};
		this.controller = {
			refresh: () => this.#poller.refresh(),
			conversationLink: (key) => conversationLink(options.appBaseUrl, this.#publisher.get().conversations.get(key)?.conversation),
			setVisibleConversations: (keys) => {
				this.#poller.setVisible(keys);
				this.#finalResponses.show(keys);
			},
			openTimeline: (key) => {
				this.#timeline.openTimeline(key);
				// Now, not with the next batch: the view moves to the timeline on the same key, and a batch
				// window (longer behind a busy stream) showed the previous conversation's events there.
				this.#publisher.flush();
			},
			closeTimeline: () => this.#timeline.closeTimeline(),
			loadOlderEvents: () => this.#timeline.session?.loadOlder(),
			loadNewerEvents: () => this.#timeline.session?.loadNewer(),
			timelineToNewest: () => this.#timeline.session?.toNewest(),
			pinTimeline: (range) => this.#timeline.session?.pin(range),
			...createSandboxActions({
				client: this.#client,
				budget: this.budget,
				secrets: this.#secrets,
				now: this.#now,
				actionTimeoutMs: this.#actionTimeoutMs,
				rows: () => this.#sandboxes.rows,
				setPending: (key, pending) => this.#sandboxes.setPending(key, pending),
				setCapWatch: (watch) => this.#sandboxes.setCapWatch(watch),
				runningCap: () => this.#sandboxes.runningCap,
				updateWatch: () => this.#sandboxes.updateWatch(),
				refreshSandboxes: () => this.#poller.refreshSandboxes(),
				notice: (text, level) => this.#notices.setNotice(text, level),
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
				app: this.#client.gitChanges && this.#client.gitDiff ? (this.#client as Required<Pick<DashboardClient, 'gitChanges' | 'gitDiff'>>) : null,
				workspace: (conversation) => this.#sandboxes.workspaceOf(conversation),
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
			notice: (text, level) => this.#notices.setNotice(text, level),
			dismissNotice: () => this.#notices.dismissNotice(),
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
			sandboxes: this.#sandboxes.rows,
			conversationsListed: false,
			sandboxesListed: false,
			specs: this.#sandboxes.specs,
			runningSandboxCap: this.#sandboxes.runningCap,
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
		this.#publisher.setWindow(publishWindowMs(this.#flushMs, this.#timeline.takeLiveSincePublish()));
		this.#sandboxes.relinkIfDirty();

		// From here on the published Map is shared: the next change copies it first.
		this.#rowsOwned = false;
		const timeline = this.#timeline.session?.state() ?? null;
		const parts = {
			conversations: this.#rows as ReadonlyMap<string, ConversationRow>,
			sandboxes: this.#sandboxes.rows,
			conversationsListed: this.#conversationsListed,
			sandboxesListed: this.#sandboxes.listed,
			specs: this.#sandboxes.specs,
			runningSandboxCap: this.#sandboxes.runningCap,
			invalidItems: this.#invalidItems,
			timeline,
			start: this.#start,
			notice: this.#notices.current,
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
		const stream = this.#timeline.session?.state().stream.state;
		let state: ConnectionHealth;
		if (health.keyRejected) state = 'offline';
		else if (!health.ok) state = health.lastSuccessAt === null ? 'offline' : 'stale';
		else if (stream === 'live') state = 'live';
		else if (stream === 'reconnecting' || stream === 'failed') state = 'reconnecting';
		else state = 'polling';
		const clockOffsetMs = this.#clocks.publishedOffset(previous.clockOffsetMs);
		const clockSource = this.#clocks.dataClock.source();
		const naiveOffset = this.#clocks.dataClock.naiveOffsetMs();
		const eventZone = naiveOffset === null ? null : zoneLabel(naiveOffset);
		const agesUnverified = !this.#clocks.agesKnown;
		const agesAssumed = !agesUnverified && this.#clocks.dataClock.ageBasis() === 'assumed';
		const same =
			previous.clockOffsetMs === clockOffsetMs &&
			previous.clockSource === clockSource &&
			previous.eventZone === eventZone &&
			(previous.agesUnverified ?? false) === agesUnverified &&
			(previous.agesAssumed ?? false) === agesAssumed &&
			previous.health === state &&
			previous.lastError === health.lastError &&
			previous.keyRejected === health.keyRejected &&
			previous.nextRetryAt === health.nextRetryAt;
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
			budgetPerMinute: this.budget.perMinute,
			clockOffsetMs,
			clockSource,
			eventZone,
			...(agesUnverified ? {agesUnverified} : {}),
			...(agesAssumed ? {agesAssumed} : {}),
		};
	}

	// ---- conversations ------------------------------------------------------------------------

	#rowFor(key: string, conversation: AppConversation, previous: ConversationRow | undefined): ConversationRow {
		const timeline = this.#timeline.sessionFor(key);
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
			const now = this.#clocks.serverNow();
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
		const now = this.#clocks.serverNow();
		const spend = this.#spend.rowSpend(key, conversation, live ? String(live) : null, now);
		const status = this.#lastKnownStatus.get(key) ?? null;
		// In error: why. Read once per error (a later error has a later updated_at).
		const errorCause = status === 'error' ? this.#errorCauses.causeFor(key, conversation, String(conversation.updated_at ?? '')) : undefined;
		// Its goal loop, as its open timeline says (remembered after it closes: nothing else says it).
		const goal = this.#timeline.goalFor(key, timeline);
		const streamActivity = this.#timeline.streamActivity(key);
		return buildRow(previous, conversation, {
			sandboxDetail: this.#sandboxes.sandboxDetail(conversation),
			subAgent: children.length === 0 ? null : subAgentReason(children),
			costPerHour: spend.costPerHour,
			spending: spend.spending,
			sessionStart: this.#sandboxes.sessionStart(conversation),
			lastKnownStatus: status,
			...(errorCause === undefined ? {} : {errorCause}),
			...(goal === undefined ? {} : {goal}),
			now: this.#clocks.serverNow(),
			quietAfterMs: this.#quietAfterMs,
			...(this.#clocks.agesKnown ? {} : {agesKnown: false, quietSeenMs: this.#clocks.heldFor(key)}),
			...(this.#options.repeatThreshold === undefined ? {} : {repeatThreshold: this.#options.repeatThreshold}),
			streamStatus,
			events: timeline?.currentEvents ?? null,
			// Arrivals are on our clock: placed on the data's, as every time they are compared with.
			streamActivityAt: streamActivity === undefined ? null : onDataClock(streamActivity, this.#clocks.serverNow() - this.#now()),
			statusSince: this.#statusSeen.get(key)?.agentSince ?? null,
			sandboxStatusSince: this.#statusSeen.get(key)?.sandboxSince ?? null,
			unseenEvents: this.#timeline.unseen(key),
		});
	}

	#onConversations(items: readonly AppConversation[], timing?: AnswerTiming): void {
		// What the whole answer says of the clock first: whether ages can be told holds for every row.
		const flipped = this.#clocks.observeAnswer(items, timing, (key) => this.#rows.get(key)?.conversation, this.#conversationsListed);
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
			if (!previous || previous.conversation.sandbox_id !== row.conversation.sandbox_id) this.#sandboxes.markLinksDirty();
			this.#timeline.sessionFor(key)?.update(conversation);
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
		if (items.some((conversation) => this.#sandboxes.sandboxNeedsReason(conversation))) this.#poller.refreshSandboxes();
		// The list must not say "paused" while p and r still say "pausing…" until the next
		// sandbox poll: a conversation that shows the awaited status settles the action now.
		this.#sandboxes.confirmFromConversations(items);
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
			this.#lastKnownStatus.delete(key);
			this.#finalResponses.forget(key);
			this.#clocks.forget(key);
			this.#spend.forget(key);
			this.#errorCauses.forget(key);
			this.#timeline.forget(key);
			removed++;
		}

		if (removed === 0) return;
		this.#refreshParents(parents);
		this.#sandboxes.markLinksDirty();
		const open = this.#timeline.session?.key;
		if (open && keys.includes(open)) {
			this.#notices.setNotice(`Conversation ${shortId(open)} no longer exists on the server.`, 'warn');
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

	// ---- start --------------------------------------------------------------------------------

	async #startConversation(input: StartInput): Promise<void> {
		if (this.#closed) return;
		if (this.#start.state === 'starting') {
			this.#notices.setNotice('A conversation is already starting; wait for it or reset the form.', 'warn');
			return;
		}

		const run = ++this.#startRun;
		// A start may make the service pause the oldest other running sandboxes: watch for it.
		this.#sandboxes.watchStart('Starting a conversation');
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
				this.#sandboxes.settleCapWatch(this.#now());
				this.#poller.track(conversation);
				this.#onConversations([conversation]);
				this.#poller.refreshSandboxes();
				this.#timeline.openTimeline(conversationKey(conversation));
			},
			notice: (text, level) => this.#notices.setNotice(text, level),
			refresh: () => this.#poller.refresh(),
		});
		// Ended without opening (an ERROR, a reset): the watch waits no longer than the grace.
		if (this.#sandboxes.capWatch?.resumedKey === '') this.#sandboxes.settleCapWatch(this.#now());
	}

	// ---- close --------------------------------------------------------------------------------

	async #close(): Promise<void> {
		if (this.#closed) return;
		const session = this.#timeline.detach();
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

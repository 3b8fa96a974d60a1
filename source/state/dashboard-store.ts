import {conversationLink} from './conversation-link.js';
import {serverClock} from '../wire/server-clock.js';
import type {AppConversation} from '../wire/schemas/app.js';
import {defaultQuietAfterMs} from './attention.js';
import {DashboardSpend} from './dashboard-spend.js';
import {BatchedPublisher} from './batched-publisher.js';
import {DataClock, zoneLabel} from './data-clock.js';
import {DashboardClocks} from './dashboard-clocks.js';
import {SandboxFacts} from './dashboard-sandboxes.js';
import type {ErrorCauses} from './error-causes.js';
import {attentionKeys, createErrorCauses} from './dashboard-causes.js';
import {
	ConversationPoller,
	type PollerHealth,
} from './conversation-poller.js';
import {conversationKey} from './conversation-rows.js';
import type {
	ConnectionHealth,
	ConnectionState,
	DashboardController,
	DashboardSnapshot,
	DashboardStore,
} from './dashboard-types.js';
import {redact} from './redact.js';
import {RequestBudget} from './request-budget.js';
import {FinalResponses} from './final-responses.js';
import {AgentClient} from '../wire/agent-client.js';
import type {Transport} from '../wire/transport.js';
import {createDashboardActions} from './dashboard-actions.js';
import {StartFlow} from './dashboard-start.js';
import {DashboardTimeline} from './dashboard-timeline.js';
import {ConversationFacts} from './dashboard-conversations.js';
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
	readonly #rows: ConversationFacts;
	readonly #quietAfterMs: number;
	readonly #actionTimeoutMs: number;
	readonly #secrets: readonly string[];
	readonly #publisher: BatchedPublisher<DashboardSnapshot>;
	readonly #poller: ConversationPoller;
	readonly #ownsBudget: boolean;
	/** The agents' last answers for the rows on screen (final-responses.ts), within this budget. */
	readonly #finalResponses: FinalResponses;

	/** The normal publishing window, and the live events of the open timeline since the last snapshot (flood-window.ts). */
	readonly #flushMs: number;
	#invalidItems = 0;
	#health: PollerHealth;
	readonly #timeline: DashboardTimeline;
	readonly #start: StartFlow;
	readonly #notices: Notices;
	readonly #spend: DashboardSpend;
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
			conversation: (key) => this.#rows.rows.get(key)?.conversation,
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
			conversationKeys: () => this.#rows.conversationKeysBySandbox(),
			notice: (text, level) => this.#notices.setNotice(text, level),
			refreshRow: (key) => this.#rows.refreshRow(key),
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
			conversation: (key) => this.#rows.rows.get(key)?.conversation,
			starting: (key) => this.#start.progress.state === 'ready' && this.#start.progress.conversationKey === key,
			notice: (text, level) => this.#notices.setNotice(text, level),
			refreshRow: (key) => this.#rows.refreshRow(key),
			changed: () => this.#touch(),
			flush: () => this.#publisher.flush(),
			closed: () => this.#closed,
		});
		this.#spend = new DashboardSpend({
			appBaseUrl: options.appBaseUrl,
			afterMs: options.spendAfterMs,
			serverNow: () => this.#clocks.serverNow(),
			...(options.progressClient ? {progressClient: options.progressClient} : {}),
			app: this.#client.gitChanges && this.#client.gitDiff ? (this.#client as Required<Pick<DashboardClient, 'gitChanges' | 'gitDiff'>>) : null,
			workspace: (conversation) => this.#sandboxes.workspaceOf(conversation),
			transported: () => this.#transported,
			changed: (key) => this.#rows.refreshRow(key),
		});
		this.#rows = new ConversationFacts({
			server: options.serverLabel,
			now: this.#now,
			quietAfterMs: this.#quietAfterMs,
			repeatThreshold: options.repeatThreshold,
			clocks: this.#clocks,
			sandboxes: this.#sandboxes,
			timeline: this.#timeline,
			spend: this.#spend,
			errorCauses: () => this.#errorCauses,
			finalResponses: () => this.#finalResponses,
			notice: (text, level) => this.#notices.setNotice(text, level),
			refreshSandboxes: () => this.#poller.refreshSandboxes(),
			changed: () => this.#touch(),
		});
		this.#flushMs = options.flushMs ?? 100;
		this.#start = new StartFlow({
			client: this.#client,
			budget: this.budget,
			secrets: this.#secrets,
			now: this.#now,
			sandboxes: this.#sandboxes,
			opened: (conversation) => {
				this.#poller.track(conversation);
				this.#rows.onConversations([conversation], undefined, 'action');
				this.#poller.refreshSandboxes();
				this.#timeline.openTimeline(conversationKey(conversation));
			},
			refresh: () => this.#poller.refresh(),
			notice: (text, level) => this.#notices.setNotice(text, level),
			changed: () => this.#touch(),
			closed: () => this.#closed,
		});
		this.#publisher = new BatchedPublisher<DashboardSnapshot>(this.#initialSnapshot(), this.#flushMs);
		this.#poller = new ConversationPoller({
			client: this.#client,
			budget: this.budget,
			now: this.#now,
			random: options.random,
			intervals: options.intervals,
			sink: {
				conversations: (items, origin, timing) => this.#rows.onConversations(items, timing, origin),
				removed: (keys) => this.#rows.onRemoved(keys),
				sandboxes: (items, complete) => this.#sandboxes.onSandboxes(items, complete),
				walkComplete: () => this.#rows.walkComplete(),
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
			onChange: (key) => this.#rows.refreshRow(key),
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
			...createDashboardActions({
				appBaseUrl: options.appBaseUrl,
				client: this.#client,
				budget: this.budget,
				secrets: this.#secrets,
				now: this.#now,
				actionTimeoutMs: this.#actionTimeoutMs,
				sandboxes: this.#sandboxes,
				conversation: (key) => this.#rows.rows.get(key)?.conversation,
				agentClient: this.#agentClient,
				transported: () => this.#transported,
				refresh: () => this.#poller.refresh(),
				refreshSandboxes: () => this.#poller.refreshSandboxes(),
				notice: (text, level) => this.#notices.setNotice(text, level),
				closed: () => this.#closed,
			}),
			startConversation: (request) => this.#start.startConversation(request),
			resetStart: () => this.#start.resetStart(),
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
			conversations: this.#rows.rows,
			sandboxes: this.#sandboxes.rows,
			conversationsListed: false,
			sandboxesListed: false,
			specs: this.#sandboxes.specs,
			runningSandboxCap: this.#sandboxes.runningCap,
			invalidItems: 0,
			timeline: null,
			start: this.#start.progress,
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

	#buildSnapshot(): DashboardSnapshot {
		const previous = this.#publisher.get();
		this.#publisher.setWindow(publishWindowMs(this.#flushMs, this.#timeline.takeLiveSincePublish()));
		this.#sandboxes.relinkIfDirty();

		const timeline = this.#timeline.session?.state() ?? null;
		const parts = {
			// From here on the published Map is shared: the next change copies it first.
			conversations: this.#rows.publish(),
			sandboxes: this.#sandboxes.rows,
			conversationsListed: this.#rows.listed,
			sandboxesListed: this.#sandboxes.listed,
			specs: this.#sandboxes.specs,
			runningSandboxCap: this.#sandboxes.runningCap,
			invalidItems: this.#invalidItems,
			timeline,
			start: this.#start.progress,
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

	// ---- close --------------------------------------------------------------------------------

	async #close(): Promise<void> {
		if (this.#closed) return;
		const session = this.#timeline.detach();
		this.#closed = true;
		this.#spend.close();
		// No agent's last answer is read after close (a poll's news or a row shown would start one).
		this.#finalResponses.close();
		this.#start.abandon();
		this.#poller.close();
		this.#errorCauses.close();
		this.#publisher.close();
		if (this.#ownsBudget) this.budget.close();
		await session?.close();
	}
}

import {serverClock} from '../wire/server-clock.js';
import type {AppConversation} from '../wire/schemas/app.js';
import {AgentClient} from '../wire/agent-client.js';
import type {Transport} from '../wire/transport.js';
import {defaultQuietAfterMs} from './attention.js';
import {BatchedPublisher} from './batched-publisher.js';
import {conversationLink} from './conversation-link.js';
import {ConversationPoller, type PollerHealth} from './conversation-poller.js';
import {conversationKey} from './conversation-rows.js';
import {DataClock} from './data-clock.js';
import type {ErrorCauses} from './error-causes.js';
import {FinalResponses} from './final-responses.js';
import {publishWindowMs} from './flood-window.js';
import {RequestBudget} from './request-budget.js';
import {budgetedGitProxy} from './budgeted-git.js';
import type {DashboardController, DashboardSnapshot, DashboardStore} from './dashboard-types.js';
import type {CreateDashboardOptions, Dashboard, DashboardClient} from './dashboard-options.js';
import {createDashboardActions} from './dashboard-actions.js';
import {attentionKeys, createErrorCauses} from './dashboard-causes.js';
import {DashboardClocks} from './dashboard-clocks.js';
import {ConversationFacts} from './dashboard-conversations.js';
import {Notices} from './dashboard-notices.js';
import {SandboxFacts} from './dashboard-sandboxes.js';
import {connectionState, initialSnapshot, partsChanged, type SnapshotParts} from './dashboard-snapshot.js';
import {DashboardSpend} from './dashboard-spend.js';
import {StartFlow} from './dashboard-start.js';
import {DashboardTimeline} from './dashboard-timeline.js';
import {createFreshPlans} from './fresh-plan.js';
import {LastStatusReads} from './last-status-reads.js';
import {RepeatScan, runningForScan} from './repeat-scan.js';
import type {UnreadableRow} from './unreadable-rows.js';
import {optionalDelete, storeDelete} from './delete-plan.js';

export type {CreateDashboardOptions, Dashboard, DashboardClient} from './dashboard-options.js';

/**
 * The dashboard's state outside React, for one server: one poller, one budget, at most one
 * timeline stream, and a snapshot published through a batched publisher. Components read it with
 * `useSyncExternalStore(store.subscribe, store.getSnapshot)` and act through the controller.
 *
 * This file is the composition root (docs/state.md): the ONE place that builds the concerns and
 * wires them together; each concern owns its facts in a module of its own:
 * conversations (dashboard-conversations.ts), sandboxes (dashboard-sandboxes.ts), clocks
 * (dashboard-clocks.ts), spend (dashboard-spend.ts), causes (dashboard-causes.ts), the timeline
 * (dashboard-timeline.ts), the server actions (dashboard-actions.ts), starting a conversation
 * (dashboard-start.ts), the notice (dashboard-notices.ts) and what a snapshot is made of
 * (dashboard-snapshot.ts). The poller's answers come in here and go to the concern that owns them.
 *
 * Snapshot discipline: parts are replaced only when they changed, publishes are batched to one
 * per `flushMs`, and a flush that finds nothing new publishes nothing: an idle dashboard does
 * not re-render. Nothing in a snapshot or a notice contains a credential: messages pass through
 * `redact()` with the secrets the store was given.
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
	#unreadableRows: readonly UnreadableRow[] = [];
	#health: PollerHealth;
	/** A model re-sending the same call, for every running conversation (state/repeat-scan.ts). */
	readonly #repeats: RepeatScan;
	/** A sandbox whose status says nothing (UNKNOWN): was its agent at work? (state/last-status-reads.ts) */
	readonly #lastStatus: LastStatusReads;
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
			app: this.#client.gitChanges && this.#client.gitDiff ? budgetedGitProxy(this.#client as Required<Pick<DashboardClient, 'gitChanges' | 'gitDiff'>>, this.budget, 'background') : null,
			workspace: (conversation) => this.#sandboxes.workspaceOf(conversation),
			transported: () => this.#transported,
			changed: (key) => this.#rows.refreshRow(key),
		});
		this.#repeats = new RepeatScan({
			readTail: (key, limit, signal) => {
				const conversation = this.#rows.rows.get(key)?.conversation;
				return conversation ? this.#agentClient(conversation, options.appBaseUrl).searchEvents({sortOrder: 'TIMESTAMP_DESC', limit, signal}).then((page) => page.events) : null;
			},
			schedule: (key, task) => this.budget.schedule(key, task, 'background'),
			onChange: (key) => this.#rows.refreshRow(key),
			...(options.repeatScanMs === undefined ? {} : {intervalMs: options.repeatScanMs}),
		});
		this.#lastStatus = new LastStatusReads({
			client: this.#client.storedEvents,
			schedule: (key, task) => this.budget.schedule(key, task, 'background'),
			onKnown: (key, status) => this.#rows.noteLastKnownStatus(key, status),
		});
		this.#rows = new ConversationFacts({
			repeatOf: (key) => this.#repeats.repeatOf(key),
			wantLastStatus: (key, conversation) => this.#lastStatus.want(key, conversation),
			answered: () => this.#repeats.setRunning(runningForScan(this.#rows.rows.values(), this.#timeline.session?.key)),
			server: options.serverLabel,
			now: this.#now,
			quietAfterMs: this.#quietAfterMs,
			repeatThreshold: options.repeatThreshold,
			dead: options,
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
		this.#publisher = new BatchedPublisher<DashboardSnapshot>(
			initialSnapshot(
				{serverLabel: options.serverLabel, keySource: options.keySource, demo: options.demo, secrets: this.#secrets, budgetPerMinute: this.budget.perMinute},
				{...this.#parts(), timeline: null},
			),
			this.#flushMs,
		);
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
				invalid: (count, rows) => {
					if (count === this.#invalidItems && count === 0) return;
					this.#invalidItems = count;
					this.#unreadableRows = rows;
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
			...optionalDelete(storeDelete(this.#client as Parameters<typeof storeDelete>[0], this.budget, () => this.#publisher.get().conversations, () => this.#poller.refresh())),
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
			...createFreshPlans({
				read: async () => {
					const items = await this.budget.schedule('sandboxes:fresh', (signal) => this.#client.listSandboxes({signal}), 'action');
					if (!this.#closed) this.#sandboxes.onSandboxes(items, true);
				},
				secrets: this.#secrets,
				rows: () => this.#sandboxes.rows,
				subscribe: this.#publisher.subscribe,
				resume: (key) => this.controller.resumeSandbox(key),
				refreshConversations: () => this.#poller.refresh(),
				cap: () => this.#sandboxes.runningCap,
				now: this.#now,
				actionTimeoutMs: this.#actionTimeoutMs,
			}),
			...optionalDelete(storeDelete(this.#client as Parameters<typeof storeDelete>[0], this.budget, () => this.#publisher.get().conversations, () => this.#poller.refresh())),
			startConversation: (request) => this.#start.startConversation(request),
			resetStart: () => this.#start.resetStart(),
			notice: (text, level) => this.#notices.setNotice(text, level),
			dismissNotice: () => this.#notices.dismissNotice(),
			close: () => this.#close(),
		};
		if (options.autoStart !== false) this.#poller.start();
	}

	/** What each concern has for the next snapshot. */
	#parts(): SnapshotParts {
		return {
			// From here on the published Map is shared: the next change copies it first.
			conversations: this.#rows.publish(),
			sandboxes: this.#sandboxes.rows,
			conversationsListed: this.#rows.listed,
			sandboxesListed: this.#sandboxes.listed,
			specs: this.#sandboxes.specs,
			runningSandboxCap: this.#sandboxes.runningCap,
			invalidItems: this.#invalidItems,
			unreadableRows: this.#unreadableRows,
			timeline: this.#timeline.session?.state() ?? null,
			start: this.#start.progress,
			notice: this.#notices.current,
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

		const parts = this.#parts();
		const dataChanged = partsChanged(parts, previous);
		const connection = connectionState(previous.connection, dataChanged, {
			health: this.#health,
			stream: this.#timeline.session?.state().stream.state,
			clocks: this.#clocks,
			budget: this.budget,
			secrets: this.#secrets,
		});
		if (!dataChanged && connection === previous.connection) return previous;
		if (parts.conversations !== previous.conversations) this.#poller.setAttention(attentionKeys(parts.conversations));
		return {...previous, ...parts, connection, version: previous.version + 1};
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
		this.#repeats.close();
		this.#publisher.close();
		if (this.#ownsBudget) this.budget.close();
		await session?.close();
	}
}

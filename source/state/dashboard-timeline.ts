import {normalizeId} from '../wire/ids.js';
import type {AppConversation} from '../wire/schemas/app.js';
import type {GoalState} from '../wire/goal.js';
import type {Transport} from '../wire/transport.js';
import {agentStreams} from './agent-stream.js';
import type {DataClock} from './data-clock.js';
import type {NoticeLevel} from './dashboard-notices.js';
import type {ReadHistoryPage} from './history-pager.js';
import type {RequestBudget} from './request-budget.js';
import {shortId} from './sandbox-rows.js';
import {type Pace, readStoredPage, type StoredHistoryOptions} from './stored-history.js';
import {type OpenTimelineStream, type TimelineChange, TimelineSession} from './timeline-session.js';

/**
 * The open timeline (at most one stream at a time) and what streams said of each conversation:
 * its newest activity (our clock at arrival), events not seen yet, and its goal loop as its
 * timeline last said it (remembered after it closes: nothing else says it). The rows read these.
 */

export type DashboardTimelineOptions = {
	appBaseUrl: string;
	openStream?: OpenTimelineStream | undefined;
	transport?: Transport | undefined;
	maxTimelineEvents?: number | undefined;
	maxTimelineBytes?: number | undefined;
	storedEvents: StoredHistoryOptions['client'] | undefined;
	budget: RequestBudget;
	now: () => number;
	dataClock: DataClock;
	secrets: readonly string[];
	/** The conversation of a row, when it is in the list. */
	conversation: (key: string) => AppConversation | undefined;
	/** The start flow is fetching this conversation (READY): it opens it itself when that returns. */
	starting: (key: string) => boolean;
	notice: (text: string, level: NoticeLevel) => void;
	refreshRow: (key: string) => void;
	changed: () => void;
	/** Publish now (an urgent change of the stream). */
	flush: () => void;
	closed: () => boolean;
};

export class DashboardTimeline {
	#timeline: TimelineSession | null = null;
	/** The live events of the open timeline since the last snapshot (flood-window.ts). */
	#liveSincePublish = 0;
	#streamActivity = new Map<string, number>();
	#unseen = new Map<string, number>();
	/** Each conversation's goal loop, as its timeline last said (null: none). */
	#goals = new Map<string, GoalState | null>();
	readonly #options: DashboardTimelineOptions;

	constructor(options: DashboardTimelineOptions) {
		this.#options = options;
	}

	/** The open timeline, if any. */
	get session(): TimelineSession | null {
		return this.#timeline;
	}

	/** The open timeline when it is this conversation's. */
	sessionFor(key: string): TimelineSession | null {
		return this.#timeline?.key === key ? this.#timeline : null;
	}

	/** Live events since the last publish, counted from zero again. */
	takeLiveSincePublish(): number {
		const count = this.#liveSincePublish;
		this.#liveSincePublish = 0;
		return count;
	}

	unseen(key: string): number {
		return this.#unseen.get(key) ?? 0;
	}

	/** When (our clock) the stream last brought something of this conversation. */
	streamActivity(key: string): number | undefined {
		return this.#streamActivity.get(key);
	}

	/** Its goal loop: as the open timeline says it now, else as it last said it. */
	goalFor(key: string, timeline: TimelineSession | null): GoalState | null | undefined {
		if (timeline) this.#goals.set(key, timeline.goal);
		return this.#goals.get(key);
	}

	forget(key: string): void {
		this.#streamActivity.delete(key);
		this.#unseen.delete(key);
		this.#goals.delete(key);
	}

	openTimeline(key: string): void {
		if (this.#options.closed()) return;
		const normalized = normalizeId(key);
		const conversation = this.#options.conversation(normalized);
		if (!conversation) {
			// A conversation just started: the view asks as soon as the task says READY, while the
			// start flow is still fetching it; the flow opens it (or says why not) when that returns.
			if (this.#options.starting(normalized)) return;
			this.#options.notice(`Conversation ${shortId(normalized)} is not in the list (yet); refresh and try again.`, 'warn');
			return;
		}

		const open = this.#timeline;
		if (open?.key === normalized && open.state().stream.state !== 'failed') {
			// Already streaming: opening it again only marks its events as seen.
			this.#unseen.set(normalized, 0);
			this.#options.refreshRow(normalized);
			return;
		}

		this.closeTimeline();
		this.#unseen.set(normalized, 0);
		const options = this.#options;
		this.#timeline = new TimelineSession({
			key: normalized,
			conversation,
			appBaseUrl: options.appBaseUrl,
			openStream: options.openStream ?? agentStreams(options.transport),
			readHistory: this.#historyReader(conversation.id),
			...(options.maxTimelineEvents === undefined ? {} : {maxEvents: options.maxTimelineEvents}),
			...(options.maxTimelineBytes === undefined ? {} : {maxBytes: options.maxTimelineBytes}),
			now: options.now,
			// The data's clock the rows' ages use: the stream's live events tell it, and its lag reads it.
			dataClock: options.dataClock,
			secrets: options.secrets,
			onChange: (change) => this.#onTimelineChange(normalized, change),
		});
		options.refreshRow(normalized);
		options.changed();
	}

	/**
	 * The stored history of one conversation through the shared budget: what the user is looking
	 * at, so it goes ahead of the background walk but never past the server's limits.
	 */
	#historyReader(conversationId: string): ReadHistoryPage | undefined {
		const client = this.#options.storedEvents;
		if (!client) return undefined;
		const key = `stored-events:${normalizeId(conversationId)}`;
		const pace: Pace = (task) => this.#options.budget.schedule(key, task, 'visible');
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
		if (this.#timeline?.key !== key || this.#options.closed()) return;
		if (change.liveEvents > 0) this.#unseen.set(key, (this.#unseen.get(key) ?? 0) + change.liveEvents);
		this.#liveSincePublish += change.liveEvents;
		if (change.newestActivityAt !== null && change.newestActivityAt > (this.#streamActivity.get(key) ?? 0)) {
			this.#streamActivity.set(key, change.newestActivityAt);
		}

		this.#options.refreshRow(key);
		this.#options.changed();
		if (change.urgent) this.#options.flush();
	}

	closeTimeline(): void {
		const session = this.#timeline;
		if (!session) return;
		this.#timeline = null;
		void session.close();
		// The row goes back to the polled status (nothing streams for it any more).
		this.#options.refreshRow(session.key);
		this.#options.changed();
	}

	/** On the dashboard's close: the open timeline is let go (no row rebuilt for it); the caller closes it. */
	detach(): TimelineSession | null {
		const session = this.#timeline;
		this.#timeline = null;
		return session;
	}
}

import {hasAgentServer} from '../wire/agent-base-url.js';
import type {AppConversation} from '../wire/schemas/app.js';
import type {LoggedEvent} from '../wire/schemas/events.js';
import type {ShownRange, StreamHealth, TimelineState} from './dashboard-types.js';
import {EventLog} from './event-log.js';
import {HistoryPager} from './history-pager.js';
import {redact} from './redact.js';
import {executionStatusOf} from './stream-events.js';
import type {GoalState} from '../wire/goal.js';
import {latestGoal} from './timeline-goal.js';
import {lagAfter, sameHealth, shownHealth} from './timeline-health.js';
import type {TimelineSessionOptions, TimelineStream, TimelineStreamStatus} from './timeline-types.js';
import type {StreamLag} from './stream-lag.js';

/**
 * The open conversation's timeline: one stream (history backfill, then live) writing into an
 * EventLog, published as an immutable events array with a version, the stream's health, the
 * execution status it reports and whether a gap may exist. The store owns at most one session.
 * If the conversation's agent server changes (its sandbox was resumed: new URL or session key),
 * the stream is reopened on the same log, so nothing already shown is lost or duplicated.
 *
 * A conversation whose sandbox is not RUNNING has no agent server: its timeline is the app
 * server's stored copy instead (docs/service-behaviour.md §3.1), opened on its newest page (one request)
 * with older pages read as the view asks (`loadOlder`). When the sandbox runs again the stream
 * opens on the same log from the newest stored event: both sources share event ids, so the log
 * holds each event once and the timeline goes live where it stands.
 *
 * The same pager bounds memory: the log is a window of about `maxEvents` on the history. Past
 * it, the oldest events are dropped (a long follow), or the newest when the screen is at the old
 * end (reading a long history up to its first event); never what is on screen (see `pin`). What
 * was dropped is read back from the stored copy when scrolled to; following again (or `G` past
 * the window) re-reads the newest page instead of walking back up. While the newest end is not
 * held, a live stream's events wait in the stored copy: when reading newer pages reaches the end,
 * the stream is reopened from there, so nothing is lost or shown twice.
 */

export type {
	OpenTimelineStream,
	TimelineChange,
	TimelineSessionOptions,
	TimelineStream,
	TimelineStreamHandlers,
	TimelineStreamStatus,
} from './timeline-types.js';
export {latestGoal} from './timeline-goal.js';

const trimSlack = 1000;
/** The timeline's share of memory for events: with the rest of the dashboard, under 300 MB resident. */
export const defaultMaxBytes = 48 * 1024 * 1024;
/** Over the byte bound by this share of it before a trim, so a trim is one splice per few megabytes. */
const byteSlackShare = 1 / 12;

export class TimelineSession {
	readonly key: string;
	readonly #options: TimelineSessionOptions;
	readonly #log = new EventLog();
	/** The immutable copy handed out, and the log version it was taken at. */
	#events: readonly LoggedEvent[] = [];
	#eventsVersion = 0;
	#health: StreamHealth = {state: 'idle', attempt: 0};
	#executionStatus: string | null = null;
	#gap = false;
	#lag: StreamLag = {lagMs: null, behindSince: null};
	#newestLive: {timestamp: string; arrivedAt: number} | null = null;
	#state: TimelineState | null = null;
	#conversation: AppConversation;
	#stream: TimelineStream | null = null;
	#generation = 0;
	#closed = false;
	readonly #pager: HistoryPager | null;
	/** Showing the stored copy (the sandbox is not running), not a live stream. */
	#stored: boolean;
	/** What is on screen while the view is not following: trimming keeps it. */
	#pin: ShownRange | null = null;
	/** The execution status of the newest stored state update, taken while the log held the newest end. */
	#storedStatus: string | null = null;
	#goal: GoalState | null = null;
	#goalVersion = -1;
	readonly #maxEvents: number;
	readonly #maxBytes: number;
	/** The newest end was dropped while streaming: reopen the stream once it is read back. */
	#reopenAfterCeiling = false;
	/** The newest page is being read for an empty window (the first screen): published at once. */
	#firstScreen = true;

	constructor(options: TimelineSessionOptions) {
		this.key = options.key;
		this.#options = options;
		this.#conversation = options.conversation;
		this.#maxEvents = Math.max(1000, options.maxEvents ?? 50_000);
		this.#maxBytes = Math.max(256 * 1024, options.maxBytes ?? defaultMaxBytes);
		const read = options.readHistory;
		this.#pager = read
			? new HistoryPager({
				log: this.#log,
				read,
				onChange: (fresh) => this.#pageArrived(fresh),
			})
			: null;
		this.#stored = !hasAgentServer(options.conversation) && this.#pager !== null;
		if (this.#stored) void this.#pager!.loadNewest();
		else this.#open();
	}

	/** The next older page of the history, when the view reaches the oldest event held. */
	loadOlder(): void {
		if (this.#closed || !this.#pager) return;
		void this.#pager.loadOlder();
	}

	/** The next newer page, when the view reaches the newest event held and newer ones were dropped. */
	loadNewer(): void {
		if (this.#closed || !this.#pager) return;
		void this.#pager.loadNewer();
	}

	/**
	 * What the view shows while it is not following (null: following the newest). Following asks
	 * for the newest end: when it was dropped, the window starts again from the newest page.
	 */
	pin(range: ShownRange | null): void {
		this.#pin = range === null ? null : {oldest: {...range.oldest}, newest: {...range.newest}};
		if (range === null) {
			if (this.#log.ceiling) this.toNewest();
			else this.#trim();
		}
	}

	/**
	 * Back to the newest end when it is not held (`G`, or follow): the window is dropped and read
	 * again from the newest page, one request, instead of walking up every page between; a live
	 * stream is reopened from there.
	 */
	toNewest(): void {
		if (this.#closed || !this.#pager || !this.#log.ceiling) return;
		const live = !this.#stored;
		if (live) this.#closeStream();
		this.#pager.reset();
		this.#log.reset();
		this.#reopenAfterCeiling = false;
		this.#firstScreen = true;
		// The new window is complete from the newest stored page on; the stream (if any) reads on from there.
		this.#log.syncedThrough = null;
		this.#state = null;
		const generation = this.#generation;
		void this.#pager.loadNewest().then(() => {
			if (live && !this.#closed && !this.#stored && generation === this.#generation) this.#open();
		});
		this.#options.onChange({liveEvents: 0, newestActivityAt: null});
	}

	/**
	 * The log's own array, for a read right now (attention); never stored or published. Null while
	 * the newest end is not held: what the agent did last is then not known here.
	 */
	get currentEvents(): readonly LoggedEvent[] | null {
		return this.#log.ceiling ? null : this.#log.events;
	}

	/** The events as an immutable array: copied once per change, when first asked for. */
	get events(): readonly LoggedEvent[] {
		if (this.#eventsVersion !== this.#log.version) {
			this.#events = this.#log.toArray();
			this.#eventsVersion = this.#log.version;
		}

		return this.#events;
	}

	get executionStatus(): string | null {
		return this.#executionStatus;
	}

	/** The newest goal state in the log (null: none), looked up once per change of the log. */
	get goal(): GoalState | null {
		if (this.#goalVersion !== this.#log.version) {
			this.#goal = latestGoal(this.#log.events);
			this.#goalVersion = this.#log.version;
		}
		return this.#goal;
	}

	/** The newest event that arrived while the stream was live, and when (our clock); null before one did. */
	get newestLive(): {timestamp: string; arrivedAt: number} | null {
		return this.#newestLive;
	}

	/** The current TimelineState; the same object until something changes. */
	state(): TimelineState {
		// No stream reports a status for stored history: the newest state update held says what it last was.
		if (this.#stored && this.#state === null) {
			if (!this.#log.ceiling) this.#storedStatus = this.#lastStoredStatus() ?? this.#storedStatus;
			this.#executionStatus = this.#storedStatus ?? this.#executionStatus;
		}
		this.#state ??= {
			conversationKey: this.key,
			events: this.events,
			version: this.#log.version,
			stream: this.#health,
			executionStatus: this.#executionStatus,
			goal: this.goal,
			gap: this.#gap,
			lag: this.#lag,
			stored: this.#stored ? {sandboxStatus: this.#conversation.sandbox_status} : null,
			older: this.#pager?.status ?? {state: 'none', pages: 0},
			newer: this.#pager?.newerStatus ?? {state: 'none', pages: 0},
		};
		return this.#state;
	}

	/**
	 * The polled conversation changed. When its agent server moved (URL or session key; the
	 * sandbox was resumed or restarted) and the stream is not live, reconnect with the new one.
	 */
	update(conversation: AppConversation): void {
		if (this.#closed) return;
		const before = this.#conversation;
		this.#conversation = conversation;
		if (this.#stored) {
			if (before.sandbox_status !== conversation.sandbox_status) this.#state = null;
			if (!hasAgentServer(conversation)) {
				if (this.#state === null) this.#options.onChange({liveEvents: 0, newestActivityAt: null});
				return;
			}
			// The sandbox runs again: go live on the same log, from where the stored copy ended. With
			// the newest end dropped (reading far back), the stream's events wait for it to be read back.
			this.#stored = false;
			this.#state = null;
			this.#reopenAfterCeiling = this.#log.ceiling !== null;
			this.#open();
			this.#options.onChange({liveEvents: 0, newestActivityAt: null});
			return;
		}
		if (this.#pager && !hasAgentServer(conversation) && this.#health.state !== 'live') {
			// Paused (or gone) under an open timeline: stop retrying a server that is not there.
			this.#closeStream();
			this.#stored = true;
			this.#health = {state: 'idle', attempt: 0};
			this.#state = null;
			this.#options.onChange({liveEvents: 0, newestActivityAt: null});
			return;
		}
		const moved =
			before.conversation_url !== conversation.conversation_url ||
			(before.session_api_key?.reveal() ?? null) !== (conversation.session_api_key?.reveal() ?? null);
		if (moved && conversation.conversation_url && this.#health.state !== 'live') {
			void this.#stream?.close();
			this.#stream = null;
			this.#open();
		}
	}

	async close(): Promise<void> {
		if (this.#closed) return;
		this.#closed = true;
		this.#generation++;
		this.#pager?.close();
		const stream = this.#stream;
		this.#stream = null;
		await stream?.close();
	}

	#closeStream(): void {
		void this.#stream?.close();
		this.#stream = null;
		this.#generation++;
		this.#health = {state: 'idle', attempt: 0};
	}

	/**
	 * A page of the stored copy landed (or a read started or ended). Stored events are history,
	 * never "new since you looked"; the first page is the screen the user is waiting for, so it is
	 * published at once. A newer page that reached the end while a stream is open: the stream's
	 * events were left out meanwhile, so it is reopened from the newest event now held.
	 */
	#pageArrived(fresh: readonly LoggedEvent[]): void {
		if (this.#closed) return;
		this.#state = null;
		const first = fresh.length > 0 && this.#firstScreen;
		if (first) this.#firstScreen = false;
		if (fresh.length > 0) this.#trim();
		if (this.#reopenAfterCeiling && !this.#log.ceiling) {
			this.#reopenAfterCeiling = false;
			if (!this.#stored) {
				this.#closeStream();
				this.#log.syncedThrough = this.#log.lastTimestamp ?? this.#log.syncedThrough;
				this.#open();
			}
		}
		this.#options.onChange({liveEvents: 0, newestActivityAt: null, ...(first ? {urgent: true} : {})});
	}

	#open(): void {
		const generation = ++this.#generation;
		const current = () => !this.#closed && generation === this.#generation;
		const open = this.#options.openStream;
		if (!open) {
			this.#setStatus({health: {state: 'failed', attempt: 0, lastError: 'no stream is available for this dashboard'}});
			return;
		}

		try {
			this.#stream = open(
				this.#conversation,
				{
					events: (events) => {
						if (current()) this.#eventsArrived(events);
					},
					status: (status) => {
						if (current()) this.#setStatus(status);
					},
				},
				{appBaseUrl: this.#options.appBaseUrl, log: this.#log},
			);
		} catch (error) {
			// Typically: the sandbox is not running, so there is no agent server to stream from.
			const message = redact(error instanceof Error ? error.message : String(error), this.#options.secrets);
			this.#setStatus({health: {state: 'failed', attempt: 0, lastError: message}});
		}
	}

	#lastStoredStatus(): string | null {
		const events = this.#log.events;
		for (let index = events.length - 1; index >= 0; index--) {
			const status = executionStatusOf(events[index]!);
			if (status !== undefined) return status;
		}
		return null;
	}

	#eventsArrived(events: readonly LoggedEvent[]): void {
		if (events.length === 0) return;
		const live = this.#health.state === 'live';
		if (live) {
			const arrivedAt = this.#options.now();
			const {timestamp} = events.at(-1)!;
			this.#newestLive = {timestamp, arrivedAt};
			const clock = this.#options.dataClock;
			clock?.observeLiveEvent(timestamp, arrivedAt);
			const lagMs = clock?.deliveryLagMs(timestamp, arrivedAt) ?? null;
			if (lagMs !== null) this.#lag = {lagMs, behindSince: null};
		}
		this.#state = null;
		this.#trim();
		this.#options.onChange({liveEvents: live ? events.length : 0, newestActivityAt: live ? this.#options.now() : null});
	}

	/**
	 * Past the bound (with some slack, so a trim is one splice per thousand events, not one per
	 * event), drops events the view does not show: the oldest, unless the screen is among them
	 * (reading far back), then the newest. Only with a stored copy to read them back from:
	 * otherwise they would be gone for good.
	 */
	#trim(): void {
		if (!this.#pager) return;
		const overCount = this.#log.size > this.#maxEvents + trimSlack;
		// The running count drifts as events are validated (they grow); counted again before acting on it.
		const slack = this.#maxBytes * byteSlackShare;
		const overBytes = this.#log.bytes > this.#maxBytes + slack && this.#log.measure() > this.#maxBytes + slack;
		if (!overCount && !overBytes) return;
		const pin = this.#pin;
		const keepNewest = Math.min(this.#maxEvents, overBytes ? this.#log.newestWithin(this.#maxBytes) : this.#maxEvents);
		const excess = this.#log.size - keepNewest;
		let dropped: number;
		// The oldest go, unless that would take every event above the screen (a page just read back
		// while scrolled to the top): then the newest go instead.
		if (!pin || this.#log.indexOf(pin.oldest) > excess) {
			dropped = this.#log.trimOldest(keepNewest, pin?.oldest ?? null);
		} else {
			const keepOldest = Math.min(this.#maxEvents, overBytes ? this.#log.oldestWithin(this.#maxBytes) : this.#maxEvents);
			dropped = this.#log.trimNewest(keepOldest, pin.newest);
			// A stream open meanwhile has its events left out until the newest end is read back.
			if (dropped > 0 && !this.#stored) this.#reopenAfterCeiling = true;
		}
		if (dropped > 0) this.#state = null;
	}

	#setStatus(status: TimelineStreamStatus): void {
		const previous = this.#health;
		const health = shownHealth(status.health, this.#options.secrets);
		const healthChanged = !sameHealth(previous, health);
		const executionStatus = status.executionStatus === undefined ? this.#executionStatus : status.executionStatus;
		const gap = status.gap ?? this.#gap;
		if (!healthChanged && executionStatus === this.#executionStatus && gap === this.#gap) return;
		if (healthChanged) {
			this.#lag = lagAfter(this.#lag, previous, health, this.#options.now());
			this.#health = health;
		}
		this.#executionStatus = executionStatus;
		this.#gap = gap;
		this.#state = null;
		this.#options.onChange({liveEvents: 0, newestActivityAt: null});
	}
}

import type {AppConversation} from '../wire/schemas/app.js';
import type {LoggedEvent} from '../wire/schemas/events.js';
import type {StreamHealth} from './dashboard-types.js';
import type {DataClock} from './data-clock.js';
import type {EventLog} from './event-log.js';
import type {ReadHistoryPage} from './history-pager.js';

/**
 * What a timeline session (timeline-session.ts) is made with and says: how its stream is opened
 * and reports, what it tells the store when something changed, and its options.
 */

export type TimelineStreamStatus = {
	health: StreamHealth;
	/** From the stream's state updates (including the socket-only `full_state`). */
	executionStatus?: string | null;
	gap?: boolean;
};

export type TimelineStreamHandlers = {
	/** Events new to `context.log`, already added to it, in order. */
	events(events: readonly LoggedEvent[]): void;
	status(status: TimelineStreamStatus): void;
};

export type TimelineStream = {close(): void | Promise<void>};

export type OpenTimelineStream = (
	conversation: AppConversation,
	handlers: TimelineStreamHandlers,
	context: {appBaseUrl: string; log: EventLog},
) => TimelineStream;

export type TimelineChange = {
	/** Events that arrived while the stream was live (not history): they count as unseen. */
	liveEvents: number;
	/** Our clock when the newest live event arrived (event timestamps are the server's naive local time). */
	newestActivityAt: number | null;
	/** Publish now rather than with the next batch (the first screen of a stored history). */
	urgent?: boolean;
};

export type TimelineSessionOptions = {
	key: string;
	conversation: AppConversation;
	appBaseUrl: string;
	openStream: OpenTimelineStream | undefined;
	/** The stored copy of a conversation's events, a page at a time; none: only the live stream. */
	readHistory?: ReadHistoryPage | undefined;
	/** Events kept in memory while following (default 50,000); the rest are read back as needed. */
	maxEvents?: number;
	/**
	 * Bytes those events may take (events.ts heldBytes; default 48 MB): a real conversation's events
	 * are kilobytes each, so a window of 50,000 would be hundreds of megabytes. Whichever bound is
	 * reached first trims.
	 */
	maxBytes?: number;
	now: () => number;
	/**
	 * The clock that wrote the data: live events tell it when they arrive, and the stream's lag is
	 * read on it (none: no lag is shown, a naive event time alone does not say its zone).
	 */
	dataClock?: DataClock;
	secrets: readonly string[];
	onChange: (change: TimelineChange) => void;
};

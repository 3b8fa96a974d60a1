import type {AgentClient} from '../wire/agent-client.js';
import type {EventSocketOptions, SocketProblem} from '../wire/event-socket.js';
import type {LoggedEvent, WireEvent} from '../wire/schemas/events.js';
import type {EventLog} from './event-log.js';

/** The types a StreamSupervisor is driven and observed through (source/state/stream-supervisor.ts re-exports them). */

export type StreamState = 'backfilling' | 'live' | 'reconnecting' | 'failed' | 'closed';

export type StreamStatus = {
	state: StreamState;
	/** Reconnect attempts since a connection last stayed up for `healthyAfterMs`. */
	attempt: number;
	/**
	 * Every event received so far has been announced and the log is complete up to the newest of
	 * them: live with no gap and nothing held back or being checked, or (while no socket holds) a
	 * REST read reached the end and nothing received before it is held back.
	 */
	settled: boolean;
	/** When reconnecting: the wait before the next attempt. */
	nextRetryInMs?: number;
	/** Why the last connection or resync failed; never contains a key. */
	lastError?: string;
	/** Our clock (ms) when the newest new event arrived. */
	lastEventAt?: number;
	/** The newest event's own timestamp (server time). */
	lastEventTimestamp?: string;
	/** From ConversationStateUpdateEvents (`execution_status`, or `full_state.execution_status`). */
	executionStatus?: string;
	/** A resync failed: events may be missing until the next successful one. */
	gap: boolean;
	/**
	 * No connection holds and the history is read on over REST instead (a read is under way, or
	 * the last one worked and the next is due in `catchUpIntervalMs`): events still arrive, only
	 * not live. False once a connection holds, and while those reads fail too.
	 */
	overRest: boolean;
	/** While `overRest`: our clock when a REST read last reached the end (the log was complete then). */
	restReadAt?: number;
	/** Events in the log. */
	events: number;
};

export type StreamProblem = {
	kind: SocketProblem['kind'] | 'invalid-item' | 'oversized-frame' | 'invalid-utf8' | 'server-error' | 'resync-failed';
	message: string;
	/** For an event that does not match the API: the kind it claims (so a reader can report each kind once), and its id. */
	eventKind?: string;
	eventId?: string;
};

/** What the supervisor needs of an EventSocket (tests may pass a scripted one). */
export type StreamSocket = {close(): Promise<void>; terminate(): Promise<void>; readonly closed: Promise<void>};

/** What the supervisor needs of an AgentClient (tests may pass a stand-in). */
export type StreamClient = Pick<AgentClient, 'allEvents' | 'socketUrl' | 'sessionApiKey'> & Partial<Pick<AgentClient, 'allEventsLater'>>;

export type StreamSupervisorOptions = {
	client: StreamClient;
	/** Defaults to a new, empty log. */
	log?: EventLog;
	/** New events only (deduplicated), in order, one call per page or per burst of frames. */
	onEvents?: (events: readonly LoggedEvent[]) => void;
	onStatus?: (status: StreamStatus) => void;
	/** A bad frame, item or resync; reported once each. The stream carries on. */
	onProblem?: (problem: StreamProblem) => void;
	/** Socket-only events that are never stored: full_state, streaming deltas, server errors. */
	onTransient?: (event: WireEvent) => void;
	/** 'server': announce strictly in server order; 'arrival' (default): see the class comment. */
	order?: 'server' | 'arrival';
	/** Opens the event socket. Default: a real EventSocket. */
	openSocket?: (options: EventSocketOptions) => StreamSocket;
	/** When the socket's events are validated (EventSocketOptions.validate). Default 'on-arrival'. */
	validate?: 'on-arrival' | 'on-read';
	backoff?: {baseMs?: number; capMs?: number};
	/**
	 * Ask the socket to replay events since the watermark (default true). The REST resync alone
	 * also closes every gap; turn this off for servers without `resend_mode`.
	 */
	replay?: boolean;
	/** A connection up this long resets the attempt counter. Default 30 s. */
	healthyAfterMs?: number;
	/**
	 * While no connection holds, the history is read onward over REST every `catchUpIntervalMs`
	 * (default 2 s); at once after this many connections in a row ended before their resync did
	 * (default 2).
	 */
	catchUpAfterFailures?: number;
	catchUpIntervalMs?: number;
	/** How far before the watermark a resync search starts (server timestamps may be stamped out of order). Default 1 s. */
	resyncOverlapMs?: number;
	handshakeTimeoutMs?: number;
	firstFrameTimeoutMs?: number;
	heartbeatIntervalMs?: number;
	heartbeatGraceMs?: number;
	maxPayloadBytes?: number;
	now?: () => number;
	random?: () => number;
};

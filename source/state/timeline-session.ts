import type {AppConversation} from '../wire/schemas/app.js';
import type {LoggedEvent} from '../wire/schemas/events.js';
import type {StreamHealth, TimelineState} from './dashboard-types.js';
import {EventLog} from './event-log.js';
import {redact} from './redact.js';

/**
 * The open conversation's timeline: one stream (history backfill, then live) writing into an
 * EventLog, published as an immutable events array with a version, the stream's health, the
 * execution status it reports and whether a gap may exist. The store owns at most one session.
 * If the conversation's agent server changes (its sandbox was resumed: new URL or session key),
 * the stream is reopened on the same log, so nothing already shown is lost or duplicated.
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
};

export type TimelineSessionOptions = {
	key: string;
	conversation: AppConversation;
	appBaseUrl: string;
	openStream: OpenTimelineStream | undefined;
	now: () => number;
	secrets: readonly string[];
	onChange: (change: TimelineChange) => void;
};

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
	#state: TimelineState | null = null;
	#conversation: AppConversation;
	#stream: TimelineStream | null = null;
	#generation = 0;
	#closed = false;

	constructor(options: TimelineSessionOptions) {
		this.key = options.key;
		this.#options = options;
		this.#conversation = options.conversation;
		this.#open();
	}

	/** The log's own array, for a read right now (attention); never stored or published. */
	get currentEvents(): readonly LoggedEvent[] {
		return this.#log.events;
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

	/** The current TimelineState; the same object until something changes. */
	state(): TimelineState {
		this.#state ??= {
			conversationKey: this.key,
			events: this.events,
			version: this.#log.version,
			stream: this.#health,
			executionStatus: this.#executionStatus,
			gap: this.#gap,
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
		const stream = this.#stream;
		this.#stream = null;
		await stream?.close();
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

	#eventsArrived(events: readonly LoggedEvent[]): void {
		if (events.length === 0) return;
		const live = this.#health.state === 'live';
		this.#state = null;
		this.#options.onChange({liveEvents: live ? events.length : 0, newestActivityAt: live ? this.#options.now() : null});
	}

	#setStatus(status: TimelineStreamStatus): void {
		const previous = this.#health;
		const incoming = status.health;
		const health: StreamHealth = {state: incoming.state, attempt: incoming.attempt};
		if (incoming.nextRetryInMs !== undefined) health.nextRetryInMs = incoming.nextRetryInMs;
		if (incoming.lastError !== undefined) health.lastError = redact(incoming.lastError, this.#options.secrets);
		const healthChanged =
			previous.state !== health.state ||
			previous.attempt !== health.attempt ||
			previous.nextRetryInMs !== health.nextRetryInMs ||
			previous.lastError !== health.lastError;
		const executionStatus = status.executionStatus === undefined ? this.#executionStatus : status.executionStatus;
		const gap = status.gap ?? this.#gap;
		if (!healthChanged && executionStatus === this.#executionStatus && gap === this.#gap) return;
		if (healthChanged) this.#health = health;
		this.#executionStatus = executionStatus;
		this.#gap = gap;
		this.#state = null;
		this.#options.onChange({liveEvents: 0, newestActivityAt: null});
	}
}

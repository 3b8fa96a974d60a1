import {KeyRejectedError, NotFoundError} from '../wire/errors.js';
import {EventSocket, type EventSocketOptions, type ResendMode} from '../wire/event-socket.js';
import type {StreamSocket, StreamSupervisorOptions} from './stream-types.js';

/** One connection cycle's state (a StreamSupervisor owns the current one). */
export type Connection = {
	generation: number;
	abort: AbortController;
	socket: StreamSocket | null;
	/** Socket frames are held (not yet in the log) until the resync has merged (order 'server': and no check is outstanding). */
	holding: boolean;
	/** The connection's first resync has ended (well or not): repairs may run. */
	resyncDone: boolean;
	/** The connection brought events the log did not have: the backoff starts again from its minimum. */
	delivered: boolean;
	/** A resync of this connection succeeded: the log is complete while it stays up (repairs aside). */
	complete: boolean;
	readyAt: number | null;
	/**
	 * Where a follow-up REST check must start (a failed resync, or a frame we could not read, which
	 * is an event we lost). undefined: none wanted; null: from the very beginning.
	 */
	repairFrom: string | null | undefined;
	/** The start of the repair in flight, if any. */
	repairing: string | null | undefined;
	repairTimer: NodeJS.Timeout | undefined;
	repairAttempt: number;
	ready: Promise<void>;
	markReady: () => void;
	markEnded: (error: Error) => void;
};

/** A new connection, holding its frames until its resync has merged; `ready` settles when the server subscribes us or the socket ends. */
export function newConnection(generation: number): Connection {
	let markReady!: () => void;
	let markEnded!: (error: Error) => void;
	const ready = new Promise<void>((resolve, reject) => {
		markReady = resolve;
		markEnded = reject;
	});
	// Nobody may be awaiting yet when the socket ends; that is not an unhandled rejection.
	ready.catch(() => {});
	return {
		generation,
		abort: new AbortController(),
		socket: null,
		holding: true,
		resyncDone: false,
		delivered: false,
		complete: false,
		readyAt: null,
		repairFrom: undefined,
		repairing: undefined,
		repairTimer: undefined,
		repairAttempt: 0,
		ready,
		markReady,
		markEnded,
	};
}

/** The earlier of two resync starts; undefined is "none", null is "the very beginning". */
export function earliest(a: string | null | undefined, b: string | null | undefined): string | null | undefined {
	if (a === undefined) return b;
	if (b === undefined) return a;
	if (a === null || b === null) return null;
	return a < b ? a : b;
}

/** Retrying cannot fix a refused key or a conversation that is not there. */
export function isFatal(error: unknown): boolean {
	return error instanceof KeyRejectedError || error instanceof NotFoundError;
}

/** Opens a connection's event socket (options.openSocket, or a real EventSocket) with the supervisor's settings. */
export function openStreamSocket(options: StreamSupervisorOptions, resend: ResendMode, handlers: EventSocketOptions['handlers']): StreamSocket {
	const open = options.openSocket ?? ((socketOptions: EventSocketOptions) => new EventSocket(socketOptions));
	return open({
		url: options.client.socketUrl(),
		sessionApiKey: options.client.sessionApiKey,
		resend,
		handshakeTimeoutMs: options.handshakeTimeoutMs,
		firstFrameTimeoutMs: options.firstFrameTimeoutMs,
		heartbeatIntervalMs: options.heartbeatIntervalMs,
		heartbeatGraceMs: options.heartbeatGraceMs,
		maxPayloadBytes: options.maxPayloadBytes,
		validate: options.validate,
		handlers,
	});
}

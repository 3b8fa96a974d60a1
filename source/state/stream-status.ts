import {claimedKind} from '../wire/event-kinds.js';
import type {InvalidItem} from '../wire/schemas/common.js';
import {compareEvents, type LoggedEvent} from '../wire/schemas/events.js';
import type {Connection} from './stream-connection.js';
import {executionStatusOf} from './stream-events.js';
import type {StreamProblem, StreamStatus} from './stream-types.js';
import {sameFields} from './same-fields.js';

/** What a status patch is derived with: the supervisor's state at the time. */
export type StatusContext = {
	/** Events in the log. */
	events: number;
	connection: Connection | null;
	/** Frames received and not yet in the log. */
	pending: number;
	/** While no connection holds: a REST read reached the end and merged what was held before it. */
	caughtUp: boolean;
	/** Reading on over REST while no connection holds. */
	overRest: boolean;
};

/**
 * The status after `patch`, its derived fields (settled, overRest, the count) recomputed; null when
 * it is the same, or may not change (failed is final; closed changes only in its details).
 */
export function nextStatus(current: StreamStatus, patch: Partial<StreamStatus>, context: StatusContext): StreamStatus | null {
	if (current.state === 'failed' || (current.state === 'closed' && patch.state !== undefined)) return null;
	const next: StreamStatus = {...current, ...patch, events: context.events};
	const {connection} = context;
	const holds = next.state === 'live' && connection !== null && !connection.holding && connection.repairFrom === undefined && connection.repairing === undefined;
	const caughtUp = next.state !== 'live' && context.caughtUp;
	next.settled = !next.gap && context.pending === 0 && (holds || caughtUp);
	next.overRest = next.state !== 'live' && context.overRest;
	if (!next.overRest || next.restReadAt === undefined) delete next.restReadAt;
	if (next.state !== 'reconnecting') delete next.nextRetryInMs;
	if (next.lastError === undefined) delete next.lastError;
	return sameStatus(current, next) ? null : next;
}

/**
 * The newest state update (by event order, not arrival) decides the execution status. One
 * report per batch: a backfill replays every past status, and reporting each would make a
 * conversation waiting for an hour look as if it had just started waiting.
 */
export class ExecutionStatusTracker {
	#from: {timestamp: string; id: string} | null = null;

	/** The execution status of the newest state update among `events` newer than every one seen; undefined when none is. */
	newest(events: readonly LoggedEvent[]): string | undefined {
		let newest: string | undefined;
		for (const event of events) {
			const status = executionStatusOf(event);
			if (status === undefined) continue;
			if (this.#from && compareEvents(event, this.#from) < 0) continue;
			this.#from = {timestamp: event.timestamp, id: event.id};
			newest = status;
		}
		return newest;
	}
}

/** One problem per history item that does not match the API (it is kept as unknown). */
export function invalidItemProblems(items: readonly InvalidItem[]): StreamProblem[] {
	return items.map((item) => ({kind: 'invalid-item', message: `an event in a history page is invalid (kept as unknown): ${item.message}`, eventKind: claimedKind(item.raw), ...idOf(item.raw)}));
}

const statusFields: ReadonlyArray<keyof StreamStatus> = ['state', 'attempt', 'nextRetryInMs', 'lastError', 'lastEventAt', 'lastEventTimestamp', 'executionStatus', 'gap', 'settled', 'overRest', 'restReadAt', 'events'];

function sameStatus(a: StreamStatus, b: StreamStatus): boolean {
	return sameFields(a, b, statusFields);
}

function idOf(raw: unknown): {eventId?: string} {
	const id = raw !== null && typeof raw === 'object' ? (raw as {id?: unknown}).id : undefined;
	return typeof id === 'string' ? {eventId: id} : {};
}

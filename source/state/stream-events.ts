import {type LoggedEvent, settleIf, type WireEvent} from '../wire/schemas/events.js';

/**
 * What the stream does with particular events (docs/service-behaviour.md §2, §4).
 *
 * Some socket frames are never persisted by the server, so `events/search` will never return
 * them: the `full_state` snapshot sent on subscribe and after pause, streaming deltas and
 * ServerErrorEvent replies. Storing them would make the log differ from the server's history
 * (and a fresh `full_state` arrives on every reconnect), so they are handled apart. Returns the
 * validated event when it is one of them; validates nothing else.
 */
export function transientEvent(event: LoggedEvent): WireEvent | undefined {
	return settleIf(event, 'StreamingDeltaEvent') ?? settleIf(event, 'ServerErrorEvent') ?? fullState(event);
}

function fullState(event: LoggedEvent): WireEvent | undefined {
	if (!mayBeState(event, 'full_state')) return undefined;
	const update = settleIf(event, 'ConversationStateUpdateEvent');
	return update?.key === 'full_state' ? update : undefined;
}

/**
 * The execution status an event announces: key `execution_status`, or `full_state.execution_status`.
 * Validates state updates only: every event of the stream passes through here.
 */
export function executionStatusOf(logged: LoggedEvent): string | undefined {
	if (!mayBeState(logged, 'execution_status') && !mayBeState(logged, 'full_state')) return undefined;
	const event = settleIf(logged, 'ConversationStateUpdateEvent');
	if (event === undefined) return undefined;
	if (event.key === 'execution_status') return typeof event.value === 'string' ? event.value : undefined;
	if (event.key === 'full_state' && event.value !== null && typeof event.value === 'object') {
		const status = (event.value as Record<string, unknown>).execution_status;
		return typeof status === 'string' ? status : undefined;
	}
	return undefined;
}

/**
 * False when `event` is certainly not a state update with this key: a pending one whose key, as
 * received, is another (validating would not change that: the schema keeps a string key as it is).
 */
function mayBeState(event: LoggedEvent, key: string): boolean {
	if (event.kind !== 'PendingEvent') return event.kind === 'ConversationStateUpdateEvent';
	return event.pendingKind === 'ConversationStateUpdateEvent' && event.stateKey === key;
}

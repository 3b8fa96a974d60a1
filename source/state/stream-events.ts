import type {WireEvent} from '../wire/schemas/events.js';

/**
 * What the stream does with particular events (openhands-wire.md §2, §4).
 *
 * Some socket frames are never persisted by the server, so `events/search` will never return
 * them: the `full_state` snapshot sent on subscribe and after pause, streaming deltas and
 * ServerErrorEvent replies. Storing them would make the log differ from the server's history
 * (and a fresh `full_state` arrives on every reconnect), so they are handled apart.
 */
export function isTransientEvent(event: WireEvent): boolean {
	if (event.kind === 'StreamingDeltaEvent' || event.kind === 'ServerErrorEvent') return true;
	return event.kind === 'ConversationStateUpdateEvent' && event.key === 'full_state';
}

/** The execution status an event announces: key `execution_status`, or `full_state.execution_status`. */
export function executionStatusOf(event: WireEvent): string | undefined {
	if (event.kind !== 'ConversationStateUpdateEvent') return undefined;
	if (event.key === 'execution_status') return typeof event.value === 'string' ? event.value : undefined;
	if (event.key === 'full_state' && event.value !== null && typeof event.value === 'object') {
		const status = (event.value as Record<string, unknown>).execution_status;
		return typeof status === 'string' ? status : undefined;
	}
	return undefined;
}

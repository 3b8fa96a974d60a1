import {useMemo, useRef} from 'react';
import type {DetailContext} from '../../format/event-details.js';
import type {LoggedEvent, WireEvent} from '../../wire/schemas/events.js';
import {detailContext} from './detail-context.js';

/**
 * The details' cross-event lookups, redone only while they can still change. Once an action's
 * answer (or an answer's action) has been found it is final, so new events streaming into a long
 * log do not cost a fresh index of the whole log per batch while someone reads one event.
 */
export function useDetailContext(events: readonly LoggedEvent[], event: WireEvent, showForgotten: boolean): DetailContext {
	const last = useRef<{event: WireEvent; context: DetailContext} | null>(null);
	return useMemo(() => {
		const previous = last.current;
		const settled = previous?.event === event && (previous.context.outcome || previous.context.action);
		const context = settled ? previous.context : detailContext(events, event, showForgotten);
		last.current = {event, context};
		return context;
	}, [events, event, showForgotten]);
}

import type {DetailContext} from '../../format/event-details.js';
import {findEvent, findObservationFor, forgottenEvents, indexOfEvent} from '../../state/timeline-query.js';
import {type EventOf, type LoggedEvent, settleEvent, settleIf, type WireEvent} from '../../wire/schemas/events.js';

type ActionEvent = EventOf<'ActionEvent'>;

/**
 * The action an observation, rejection or agent error answers. Observations and rejections name
 * it (`action_id`); an agent error carries only the tool call id, so the log is searched
 * backwards from the error, where the call almost always is a few events earlier.
 */
export function findActionFor(events: readonly LoggedEvent[], event: WireEvent): ActionEvent | null {
	if (event.kind === 'ObservationEvent' || event.kind === 'UserRejectObservation') {
		const action = findEvent(events, event.action_id);
		if (action?.kind === 'ActionEvent') return action;
	}

	if (event.kind !== 'ObservationEvent' && event.kind !== 'UserRejectObservation' && event.kind !== 'AgentErrorEvent') return null;
	const start = indexOfEvent(events, event.id);
	for (let index = (start === -1 ? events.length : start) - 1; index >= 0; index--) {
		const logged = events[index];
		const candidate = logged && settleIf(logged, 'ActionEvent');
		if (candidate?.tool_call_id === event.tool_call_id) return candidate;
	}

	return null;
}

/** The cross-event facts the details of `event` need, looked up with the state layer's selectors. */
export function detailContext(events: readonly LoggedEvent[], event: WireEvent, showForgotten: boolean): DetailContext {
	switch (event.kind) {
		case 'ActionEvent': {
			return {outcome: findObservationFor(events, event) ?? null};
		}

		case 'ObservationEvent':
		case 'UserRejectObservation':
		case 'AgentErrorEvent': {
			return {action: findActionFor(events, event)};
		}

		case 'Condensation': {
			return {forgotten: forgottenEvents(events, event).map(settleEvent), showForgotten};
		}

		default: {
			return {};
		}
	}
}

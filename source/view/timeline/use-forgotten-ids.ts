import {useMemo} from 'react';
import {type LoggedEvent, settleIf} from '../../wire/schemas/events.js';

const empty: ReadonlySet<string> = new Set();

/**
 * Ids of every event some condensation dropped from the agent's view, so their rows can be
 * dimmed: what the agent no longer remembers is what it may redo. One pass per events array.
 */
export function forgottenIds(events: readonly LoggedEvent[]): ReadonlySet<string> {
	let ids: Set<string> | null = null;
	for (const logged of events) {
		// Validates condensations only.
		const event = settleIf(logged, 'Condensation');
		if (event === undefined || event.forgotten_event_ids.length === 0) continue;
		ids ??= new Set();
		for (const id of event.forgotten_event_ids) ids.add(id);
	}

	return ids ?? empty;
}

export function useForgottenIds(events: readonly LoggedEvent[]): ReadonlySet<string> {
	return useMemo(() => forgottenIds(events), [events]);
}

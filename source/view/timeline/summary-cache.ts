import {type EventSummary, eventSummary} from '../../format/event-summary.js';
import {type LoggedEvent, peekEvent} from '../../wire/schemas/events.js';

/**
 * Summaries per event object. Events are immutable and the log keeps the same objects across
 * versions, so each event is summarised once, when its row first becomes visible; rows that
 * never scroll into view are never summarised (nor, for a live stream's events, validated) at all.
 * The validated event is not kept (`peekEvent`): a followed stream passes every event through its
 * newest rows, and keeping each one validated held three times its text for as long as the log
 * held the event; the summary is a few short strings.
 */
const cache = new WeakMap<LoggedEvent, {summary: EventSummary; condensation: boolean}>();

function entry(event: LoggedEvent): {summary: EventSummary; condensation: boolean} {
	let found = cache.get(event);
	if (!found) {
		const validated = peekEvent(event);
		found = {summary: eventSummary(validated), condensation: validated.kind === 'Condensation'};
		cache.set(event, found);
	}

	return found;
}

export function summaryOf(event: LoggedEvent): EventSummary {
	return entry(event).summary;
}

/** Whether the row is a condensation's (marked in the gutter), from the same one look. */
export function isCondensationRow(event: LoggedEvent): boolean {
	return entry(event).condensation;
}

import {type EventSummary, eventSummary} from '../../format/event-summary.js';
import {type LoggedEvent, settleEvent} from '../../wire/schemas/events.js';

/**
 * Summaries per event object. Events are immutable and the log keeps the same objects across
 * versions, so each event is summarised once, when its row first becomes visible; rows that
 * never scroll into view are never summarised (nor, for a live stream's events, validated) at all.
 */
const cache = new WeakMap<LoggedEvent, EventSummary>();

export function summaryOf(event: LoggedEvent): EventSummary {
	let summary = cache.get(event);
	if (!summary) {
		summary = eventSummary(settleEvent(event));
		cache.set(event, summary);
	}

	return summary;
}

import {eventKindMatches} from '../wire/event-kinds.js';
import {naiveQueryTimestamp} from './clock.js';
import type {SimEvent} from './event-factory.js';
import {enumQuery, intQuery, validationError} from './http-util.js';

/**
 * `events/search` and `events/count` filtering (docs/service-behaviour.md §3). The real server
 * only matches the fully-qualified kind; the simulator accepts that and the short name, so both
 * a spec-following and a reality-following client get answers.
 */

export type EventFilter = {kind: string | null; source: string | null; body: string | null; gte: string | null; lt: string | null};

function timestampParam(query: URLSearchParams, name: string): string | null {
	const raw = query.get(name);
	if (raw === null || raw === '') return null;
	const value = naiveQueryTimestamp(raw);
	if (value === null) throw validationError([{type: 'datetime_parsing', loc: ['query', name], msg: 'Input should be a valid datetime', input: raw}]);
	return value;
}

export function parseEventFilter(query: URLSearchParams): EventFilter {
	return {
		kind: query.get('kind') || null,
		source: query.get('source') || null,
		body: query.get('body')?.toLowerCase() || null,
		gte: timestampParam(query, 'timestamp__gte'),
		lt: timestampParam(query, 'timestamp__lt'),
	};
}

/** The text of a MessageEvent, the only kind `body=` searches. */
function messageBody(event: SimEvent): string {
	const message = event.llm_message as {content?: Array<{text?: unknown}>} | undefined;
	return (message?.content ?? []).map((part) => (typeof part?.text === 'string' ? part.text : '')).join('\n');
}

export function eventMatches(event: SimEvent, filter: EventFilter): boolean {
	if (filter.kind !== null && !eventKindMatches(filter.kind, event.kind)) return false;
	if (filter.source !== null && event.source !== filter.source) return false;
	if (filter.gte !== null && event.timestamp < filter.gte) return false;
	if (filter.lt !== null && event.timestamp >= filter.lt) return false;
	if (filter.body !== null && (event.kind !== 'MessageEvent' || !messageBody(event).toLowerCase().includes(filter.body))) return false;
	return true;
}

export function countEvents(events: readonly SimEvent[], query: URLSearchParams): number {
	const filter = parseEventFilter(query);
	let count = 0;
	for (const event of events) if (eventMatches(event, filter)) count++;
	return count;
}

/**
 * A page: `page_id` is the id of the event that starts it (an unknown id starts over, as the
 * real server does), `next_page_id` the id of the first event of the next page.
 */
export function searchEvents(events: readonly SimEvent[], query: URLSearchParams): {items: SimEvent[]; next_page_id: string | null} {
	const limit = intQuery(query, 'limit', {fallback: 100, exclusiveMin: 0, max: 100});
	const descending = enumQuery(query, 'sort_order', ['TIMESTAMP', 'TIMESTAMP_DESC'] as const, 'TIMESTAMP') === 'TIMESTAMP_DESC';
	const filter = parseEventFilter(query);
	const pageId = query.get('page_id');
	// One walk in the order asked for, from the page's first event, stopping one past the page: a
	// newest-first page of a 100,000-event history reads about a hundred events, not all of them.
	const page = (from: string | null): SimEvent[] => {
		const rows: SimEvent[] = [];
		let started = from === null;
		for (let step = 0; step < events.length && rows.length <= limit; step++) {
			const event = events[descending ? events.length - 1 - step : step]!;
			if (!started) {
				if (event.id !== from) continue;
				started = true;
			}
			if (eventMatches(event, filter)) rows.push(event);
		}
		return rows;
	};
	let rows = page(pageId);
	// An unknown page id starts over, as the real server does.
	if (pageId && rows.length === 0) rows = page(null);
	return {items: rows.slice(0, limit), next_page_id: rows[limit]?.id ?? null};
}

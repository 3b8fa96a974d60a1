import {contentText, eventKindName} from '../wire/event-fields.js';
import {eventKindMatches} from '../wire/event-kinds.js';
import {type WireEvent} from '../wire/schemas/events.js';

/**
 * The agent server's event filters (`kind`, `source`, `body`), applied on our side with its
 * meaning: for the live part of `events --follow` (the WebSocket has no filters), again on its
 * history (a server that ignores one, e.g. a kind spelling it does not match, costs nothing), and
 * for the app server's stored copy, whose search has no `source` or `body` filter at all
 * (stored-history.ts).
 *   kind   short or qualified class name, case-insensitive
 *   source exact (agent, user, environment, hook)
 *   body   case-insensitive substring of a MessageEvent's text, as the server defines it
 */
export type EventFilter = {kind?: string | undefined; source?: string | undefined; body?: string | undefined};

export function eventMatches(event: WireEvent, filter: EventFilter): boolean {
	if (filter.kind && !eventKindMatches(filter.kind, eventKindName(event))) return false;
	if (filter.source && event.source !== filter.source) return false;
	if (filter.body) {
		if (event.kind !== 'MessageEvent') return false;
		if (!contentText(event.llm_message.content).toLowerCase().includes(filter.body.toLowerCase())) return false;
	}
	return true;
}

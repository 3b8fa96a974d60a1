import {eventKindMatches} from '../wire/event-kinds.js';
import {contentText} from '../wire/schemas/content.js';
import {eventKindName, type WireEvent} from '../wire/schemas/events.js';

/**
 * The `events` filters, applied locally as well as sent to the server: the live part of
 * `--follow` comes over the WebSocket, which has no filters, and applying them again to the
 * history costs nothing and guards against a server that ignores one (the agent server matches
 * only fully-qualified kinds).
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

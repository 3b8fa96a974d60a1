import {isUuidLike} from '../wire/ids.js';
import {countEvents, searchEvents} from './event-query.js';
import {notFound, validationError} from './http-util.js';
import type {RouteContext, Router} from './router.js';
import type {SimEvent} from './event-factory.js';
import {storedForm} from './stored-form.js';
import type {SimConversation} from './world-types.js';

/**
 * The app server's own copy of the events (docs/service-behaviour.md §1.2, last row): `kind__eq` takes
 * the short class name, and it answers while the sandbox is paused or gone, which is how a
 * client can still show the history of a stopped conversation. Unlike the agent server, the stored
 * copy keeps every null field (stored-form.ts).
 */

function storedPage(page: {items: SimEvent[]; next_page_id: string | null}): {items: SimEvent[]; next_page_id: string | null} {
	return {...page, items: page.items.map(storedForm)};
}

function conversationFor(context: RouteContext, id: string | null): SimConversation {
	if (!id || !isUuidLike(id)) {
		throw validationError([{type: 'uuid_parsing', loc: ['query', 'conversation_id__eq'], msg: 'Input should be a valid UUID', input: id}]);
	}
	const conversation = context.world.findConversation(id);
	if (!conversation) throw notFound();
	return conversation;
}

/** The agent-server filter names, so one implementation serves both APIs. */
function asAgentQuery(query: URLSearchParams): URLSearchParams {
	const out = new URLSearchParams(query);
	const kind = out.get('kind__eq');
	if (kind) out.set('kind', kind);
	return out;
}

export function registerAppEventRoutes(router: Router): void {
	router.add('GET', '/api/v1/conversation/:id/events/search', 'bearer', (context) =>
		storedPage(searchEvents(context.world.storedEvents(conversationFor(context, context.params.id!)), asAgentQuery(context.query))),
	);
	router.add('GET', '/api/v1/conversation/:id/events/count', 'bearer', (context) =>
		countEvents(context.world.storedEvents(conversationFor(context, context.params.id!)), asAgentQuery(context.query)),
	);
	router.add('GET', '/api/v1/events/search', 'bearer', (context) =>
		storedPage(searchEvents(context.world.storedEvents(conversationFor(context, context.query.get('conversation_id__eq'))), asAgentQuery(context.query))),
	);
}

import {isUuidLike} from '../wire/ids.js';
import {intQuery} from './http-util.js';
import type {Router} from './router.js';
import {v0ConversationJson} from './serialize.js';

/**
 * What is left of the V0 API (docs/service-behaviour.md §1.5): the list, paging with a base64
 * cursor, and the look-up that answers 200 `null` for an unknown id. The V0 start,
 * `POST /api/conversations`, was removed from the service on 2026-04-19: here, as there, it is
 * not routed (the path answers 405, as FastAPI does where another method matches).
 */

function decodeCursor(pageId: string | null): number {
	if (!pageId) return 0;
	try {
		const parsed = JSON.parse(Buffer.from(pageId, 'base64').toString('utf8')) as {v1?: unknown};
		const offset = Number(parsed.v1);
		return Number.isInteger(offset) && offset >= 0 ? offset : 0;
	} catch {
		return 0;
	}
}

function encodeCursor(offset: number): string {
	return Buffer.from(JSON.stringify({v0: null, v1: String(offset)})).toString('base64');
}

export function registerV0Routes(router: Router): void {
	router.add('GET', '/api/conversations', 'bearer', ({world, query}) => {
		const limit = intQuery(query, 'limit', {fallback: 20, min: 1, max: 100});
		const offset = decodeCursor(query.get('page_id'));
		const rows = world.conversationList();
		return {
			results: rows.slice(offset, offset + limit).map((row) => v0ConversationJson(world, row)),
			next_page_id: offset + limit < rows.length ? encodeCursor(offset + limit) : null,
		};
	});

	// The real route answers 200 `null` for an unknown id.
	router.add('GET', '/api/conversations/:id', 'bearer', ({world, params}) => {
		const conversation = isUuidLike(params.id!) ? world.findConversation(params.id!) : undefined;
		return conversation ? v0ConversationJson(world, conversation) : null;
	});
}

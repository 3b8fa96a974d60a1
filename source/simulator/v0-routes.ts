import {isUuidLike} from '../wire/ids.js';
import {intQuery, readJson, requireObjectBody, validationError} from './http-util.js';
import type {Router} from './router.js';
import {enforceCap} from './sandbox-lifecycle.js';
import {v0ConversationJson} from './serialize.js';
import {createConversation} from './start-tasks.js';

/**
 * The deprecated V0 API (docs/service-behaviour.md §1.5): start returns the
 * conversation id at once; the list pages with a base64 cursor.
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
	router.add('POST', '/api/conversations', 'bearer', async ({world, request}) => {
		const body = requireObjectBody(await readJson(request));
		if (body.initial_user_msg !== undefined && body.initial_user_msg !== null && typeof body.initial_user_msg !== 'string') {
			throw validationError([{type: 'string_type', loc: ['body', 'initial_user_msg'], msg: 'Input should be a valid string', input: body.initial_user_msg}]);
		}
		enforceCap(world, null);
		const sandbox = world.addSandbox({specId: world.specs[0]!.id, status: 'RUNNING', createdAt: world.now()});
		const text = typeof body.initial_user_msg === 'string' && body.initial_user_msg !== '' ? body.initial_user_msg : null;
		const conversation = createConversation(
			world,
			{
				initial_message: text ? {role: 'user', content: [{type: 'text', text}]} : undefined,
				selected_repository: typeof body.repository === 'string' ? body.repository : undefined,
				trigger: 'gui',
			},
			sandbox,
		);
		return {status: 'ok', conversation_id: conversation.id, conversation_status: 'RUNNING'};
	});

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

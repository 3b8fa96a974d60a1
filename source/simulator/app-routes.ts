import {isUuidLike} from '../wire/ids.js';
import {sendUserMessage} from './agent-runtime.js';
import {parseUtcQuery} from './clock.js';
import {HttpError, intQuery, isRecord, notFound, offsetPage, offsetPageId, readJson, requireObjectBody, validationError, type ValidationIssue} from './http-util.js';
import type {RouteContext, Router} from './router.js';
import {deleteSandbox} from './sandbox-lifecycle.js';
import {appConversationJson} from './serialize.js';
import type {SimConversation} from './world-types.js';
import type {World} from './world.js';
import {maybeUnreadable} from './unreadable-rows.js';

/** V1 app conversations (docs/service-behaviour.md §1.2): search, count, batch get, update, delete, send-message. */

const base = '/api/v1/app-conversations';

function timeFilter(query: URLSearchParams, name: string): number | null {
	const raw = query.get(name);
	if (raw === null || raw === '') return null;
	const parsed = parseUtcQuery(raw);
	if (parsed === null) {
		throw validationError([{type: 'datetime_from_date_parsing', loc: ['query', name], msg: 'Input should be a valid datetime or date, invalid character in year', input: raw}]);
	}
	return parsed;
}

/** FastAPI's reading of a bool query parameter. */
function boolQuery(query: URLSearchParams, name: string): boolean {
	const raw = query.get(name);
	if (raw === null || raw === '') return false;
	if (/^(true|1|yes|on|t|y)$/i.test(raw)) return true;
	if (/^(false|0|no|off|f|n)$/i.test(raw)) return false;
	throw validationError([{type: 'bool_parsing', loc: ['query', name], msg: 'Input should be a valid boolean, unable to interpret input', input: raw}]);
}

/**
 * The rows matching the search filters, newest first. Without filters it is the list itself (no
 * copy). Sub-conversations are left out unless `include_sub_conversations` is true, as the
 * service does (app_conversation_router.py, default false).
 */
function filtered(world: World, query: URLSearchParams, forSearch = false): readonly SimConversation[] {
	const withoutChildren = forSearch && world.hasSubConversations() && !boolQuery(query, 'include_sub_conversations');
	const title = query.get('title__contains')?.toLowerCase() || null;
	const createdGte = timeFilter(query, 'created_at__gte');
	const createdLt = timeFilter(query, 'created_at__lt');
	const updatedGte = timeFilter(query, 'updated_at__gte');
	const updatedLt = timeFilter(query, 'updated_at__lt');
	const sandboxId = query.get('sandbox_id__eq') || null;
	const all = world.conversationList();
	if (!withoutChildren && title === null && createdGte === null && createdLt === null && updatedGte === null && updatedLt === null && sandboxId === null) return all;
	return all.filter(
		(row) =>
			(!withoutChildren || row.parentId === null) &&
			(title === null || row.title.toLowerCase().includes(title)) &&
			(createdGte === null || row.createdAt >= createdGte) &&
			(createdLt === null || row.createdAt < createdLt) &&
			(updatedGte === null || row.updatedAt >= updatedGte) &&
			(updatedLt === null || row.updatedAt < updatedLt) &&
			(sandboxId === null || row.sandboxId === sandboxId),
	);
}

function conversationParam(context: RouteContext): SimConversation | undefined {
	const id = context.params.id!;
	if (!isUuidLike(id)) {
		throw validationError([{type: 'uuid_parsing', loc: ['path', 'conversation_id'], msg: 'Input should be a valid UUID, invalid length', input: id}]);
	}
	return context.world.findConversation(id);
}

/** `content[]` of a message body: at least one part, text parts joined. */
export function messageText(body: Record<string, unknown>): string {
	const content = body.content;
	const issues: ValidationIssue[] = [];
	if (!Array.isArray(content)) issues.push({type: content === undefined ? 'missing' : 'list_type', loc: ['body', 'content'], msg: content === undefined ? 'Field required' : 'Input should be a valid list', input: content ?? null});
	else if (content.length === 0) issues.push({type: 'too_short', loc: ['body', 'content'], msg: 'List should have at least 1 item after validation, not 0', input: content});
	if (body.role !== undefined && body.role !== 'user') issues.push({type: 'literal_error', loc: ['body', 'role'], msg: "Input should be 'user'", input: body.role});
	if (issues.length > 0) throw validationError(issues);
	return (content as unknown[])
		.map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : isRecord(part) && part.type === 'image' ? '[image]' : ''))
		.filter(Boolean)
		.join('\n');
}

export function registerAppRoutes(router: Router): void {
	router.add('GET', `${base}/search`, 'bearer', ({world, query}) => {
		const limit = intQuery(query, 'limit', {fallback: 100, min: 1, max: 100});
		return offsetPage(filtered(world, query, true), offsetPageId(query), limit, (row) => maybeUnreadable(world, row.id, appConversationJson(world, row)));
	});

	router.add('GET', `${base}/count`, 'bearer', ({world, query}) => filtered(world, query).length);

	router.add('GET', base, 'bearer', ({world, query}) => {
		const ids = query.getAll('ids');
		if (ids.length === 0) throw validationError([{type: 'missing', loc: ['query', 'ids'], msg: 'Field required', input: null}]);
		if (ids.length > 99) throw new HttpError(400, {detail: 'Too many ids requested. Maximum is 99.'});
		const bad = ids.find((id) => !isUuidLike(id));
		if (bad !== undefined) throw new HttpError(400, {detail: `Invalid UUID: ${bad}`});
		return ids.map((id) => {
			const row = world.findConversation(id);
			return row ? maybeUnreadable(world, row.id, appConversationJson(world, row)) : null;
		});
	});

	router.add('PATCH', `${base}/:id`, 'bearer', async (context) => {
		const conversation = conversationParam(context);
		const body = requireObjectBody(await readJson(context.request));
		if (!conversation) throw new HttpError(404, {detail: 'unknown_app_conversation'});
		if (body.title !== undefined) {
			if (typeof body.title !== 'string' || body.title.length === 0 || body.title.length > 200) {
				throw validationError([{type: 'string_type', loc: ['body', 'title'], msg: 'Title must be a string of 1 to 200 characters', input: body.title}]);
			}
			conversation.title = body.title;
		}
		if (typeof body.public === 'boolean') conversation.publicShare = body.public;
		if (typeof body.selected_repository === 'string' || body.selected_repository === null) conversation.repository = body.selected_repository;
		if (typeof body.selected_branch === 'string' || body.selected_branch === null) conversation.branch = body.selected_branch;
		if (typeof body.git_provider === 'string' || body.git_provider === null) conversation.gitProvider = body.git_provider;
		conversation.updatedAt = context.world.now();
		return appConversationJson(context.world, conversation);
	});

	// As app_conversation_router.py `delete_app_conversation` answers (2026, docs/service-behaviour.md §8.2).
	router.add('DELETE', `${base}/:id`, 'bearer', (context) => {
		if (!isUuidLike(context.params.id!)) throw new HttpError(400, {detail: 'Invalid conversation ID format'});
		const conversation = context.world.findConversation(context.params.id!);
		if (!conversation) throw new HttpError(404, {detail: 'Conversation not found'});
		const sandbox = context.world.findSandbox(conversation.sandboxId);
		context.world.removeConversation(conversation);
		// The sandbox goes too unless another conversation still uses it.
		if (sandbox && sandbox.conversationIds.length === 0 && sandbox.status !== 'MISSING') deleteSandbox(context.world, sandbox);
		return {success: true};
	});

	router.add('POST', `${base}/:id/send-message`, 'bearer', async (context) => {
		const conversation = conversationParam(context);
		const body = requireObjectBody(await readJson(context.request));
		const text = messageText(body);
		if (!conversation) throw notFound();
		const status = context.world.findSandbox(conversation.sandboxId)?.status ?? 'MISSING';
		if (status === 'MISSING') throw new HttpError(410, {detail: 'The sandbox of this conversation no longer exists.'});
		if (status === 'ERROR') throw new HttpError(503, {detail: 'The sandbox of this conversation is in an error state.'});
		if (status !== 'RUNNING') throw new HttpError(409, {detail: `The sandbox is not running (${status}); resume it first.`});
		sendUserMessage(context.world, conversation, text, body.run !== false);
		return {success: true, sandbox_status: status, message: body.run === false ? 'Message queued.' : 'Message sent; the agent is running.'};
	});
}

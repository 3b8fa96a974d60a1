import type {z} from 'zod';
import {AppCalls, type CallOptions, conversationsPath, expectCount, expectOne, Listing, streamHeadersTimeoutMs, success} from './app-calls.js';
import {ApiError, NotApiError, NotFoundError} from './errors.js';
import {type ChangeList, parseChanges, parseDiff} from './git-client.js';
import type {QueryValue} from './http.js';
import {normalizeId} from './ids.js';
import {appConversationSchema, sendMessageResultSchema, type AppConversation} from './schemas/app.js';
import type {GitDiff} from './schemas/git.js';

/**
 * The conversations of the app server (app-client.ts): their search, count and look-up, a
 * message sent, a conversation deleted, and what its sandbox holds through the app server (the
 * repository's changes, a file's diff, the stored trajectory as a zip).
 */

export type ConversationSearchParams = CallOptions & {
	titleContains?: string;
	createdAtGte?: string;
	createdAtLt?: string;
	updatedAtGte?: string;
	updatedAtLt?: string;
	sandboxId?: string;
	/**
	 * Sub-conversations too (planning agents, `task`/`delegate` sub-agents), default true. The
	 * service leaves them out unless asked (`include_sub_conversations`, default false), and a
	 * child waiting for approval is exactly what a person must not miss; false asks as the web UI does.
	 */
	includeSubConversations?: boolean;
	/** Page size, 1..100 (the real server refuses more). */
	limit?: number;
};

export type SendMessageResult = z.infer<typeof sendMessageResultSchema>;

/** The real server answers 400 above 99 conversation ids. */
const maxConversationIds = 99;

/**
 * Look-ups aligned with the ids (either id spelling): null where the server does not know the id.
 * Split into requests of at most 99 ids; an id that is not a uuid is null without asking. Searches
 * follow next_page_id to the end; every conversation once each (page ids are offsets that shift as
 * rows arrive).
 */
export function conversationListing(calls: AppCalls): Listing<AppConversation> {
	return new Listing(calls, appConversationSchema, conversationsPath, {param: 'ids', chunkSize: maxConversationIds, keyedBy: 'uuid'});
}

export function conversationQuery(params: ConversationSearchParams): Record<string, QueryValue> {
	return {
		title__contains: params.titleContains,
		created_at__gte: params.createdAtGte,
		created_at__lt: params.createdAtLt,
		updated_at__gte: params.updatedAtGte,
		updated_at__lt: params.updatedAtLt,
		sandbox_id__eq: params.sandboxId,
		include_sub_conversations: params.includeSubConversations ?? true,
		limit: params.limit,
	};
}

/**
 * The same filters as the search; the answer is a bare integer. The count route takes no
 * `include_sub_conversations` (the service's router), so none is sent.
 */
export async function countConversations(calls: AppCalls, params: ConversationSearchParams = {}): Promise<number> {
	const {limit: _limit, include_sub_conversations: _children, ...filters} = conversationQuery(params);
	const path = `${conversationsPath}/count`;
	return expectCount(await calls.json({path, query: filters, signal: params.signal}), `GET ${path}`);
}

/** A user message to a conversation whose sandbox is RUNNING (409/410/503 otherwise); `run` starts the agent. */
export async function sendMessage(calls: AppCalls, conversationId: string, text: string, options: CallOptions & {run?: boolean} = {}): Promise<SendMessageResult> {
	const path = `${conversationPath(conversationId)}/send-message`;
	const raw = await calls.json({
		method: 'POST',
		path,
		body: {role: 'user', content: [{type: 'text', text}], run: options.run ?? true},
		signal: options.signal,
	});
	return expectOne(sendMessageResultSchema, raw, `POST ${path}`);
}

/**
 * The files changed in the repository at `path` in the conversation's sandbox, through the app
 * server's proxy (`GET /app-conversations/{id}/git/changes?path=&ref=`, bearer key; app_server
 * app_conversation_router.py, 2026-06). Its sandbox must be RUNNING: 409 while PAUSED, 404
 * "not reachable" otherwise. An older app server has no such route (a bare 404).
 */
export async function gitChanges(calls: AppCalls, conversationId: string, path: string, call: CallOptions & {ref?: string} = {}): Promise<ChangeList> {
	const where = `${conversationsPath}/{id}/git/changes`;
	return parseChanges(await calls.json({path: `${conversationPath(conversationId)}/git/changes`, query: {path, ref: call.ref}, signal: call.signal}), where, 'the app server');
}

/** One file's original and modified text, through the same proxy (`…/git/diff?path=&ref=`). */
export async function gitDiff(calls: AppCalls, conversationId: string, path: string, call: CallOptions & {ref?: string} = {}): Promise<GitDiff> {
	const where = `${conversationsPath}/{id}/git/diff`;
	return parseDiff(await calls.json({path: `${conversationPath(conversationId)}/git/diff`, query: {path, ref: call.ref}, signal: call.signal}), where, 'the app server');
}

/**
 * The conversation's trajectory as a zip, from the app server's stored copy
 * (`GET /app-conversations/{id}/download`): works whatever its sandbox's status, PAUSED
 * included, and never wakes it. The bytes as they arrive; null where this server has no such
 * route (an older one: 404 or 405, or the hosted web page for a path it does not know).
 */
export async function downloadConversation(calls: AppCalls, conversationId: string, call: CallOptions = {}): Promise<AsyncIterable<Uint8Array> | null> {
	if (calls.scope.closed) throw new ApiError('the client is closed');
	try {
		return await calls.http.stream({method: 'GET', path: `${conversationPath(conversationId)}/download`, signal: call.signal, headersTimeoutMs: streamHeadersTimeoutMs});
	} catch (error) {
		if ((error instanceof NotFoundError && error.bare) || error instanceof NotApiError || (error instanceof ApiError && error.status === 405)) return null;
		throw error;
	}
}

/**
 * DELETE /app-conversations/{id}: `{"success": true}`; 404 for an unknown id, 400 for one that
 * is not a UUID. The service deletes its sandbox too, in the background, unless another
 * conversation shares it (docs/service-behaviour.md §1.2).
 */
export async function deleteConversation(calls: AppCalls, id: string, call: CallOptions = {}): Promise<{success: boolean}> {
	const path = `${conversationsPath}/${encodeURIComponent(id)}`;
	return success(await calls.json({method: 'DELETE', path, signal: call.signal}), `DELETE ${path}`);
}

function conversationPath(conversationId: string): string {
	return `${conversationsPath}/${encodeURIComponent(normalizeId(conversationId))}`;
}

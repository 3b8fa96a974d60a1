import {AppCalls, type CallOptions, conversationsPath, expectCount, expectOne, Listing, streamHeadersTimeoutMs, streamIdleTimeoutMs} from './app-calls.js';
import {sleep} from './abortable-sleep.js';
import {checkCreateRequest} from './create-check.js';
import {ApiError, NotFoundError, ProtocolError} from './errors.js';
import type {QueryValue} from './http.js';
import {normalizeId} from './ids.js';
import {startTaskSchema, type StartTask} from './schemas/app.js';
import type {CreateRequest} from './schemas/create-request.js';
import {startTaskSnapshots} from './start-snapshots.js';

/**
 * Starting conversations on the app server (app-client.ts): the create call, the stream of its
 * start task's phases (or polling where the server cannot stream them), and the start tasks'
 * look-ups, searches and counts.
 */

export type StartTaskSearchParams = CallOptions & {conversationId?: string; limit?: number};

const startTasksPath = `${conversationsPath}/start-tasks`;
/** The real server answers 400 above 99 ids. */
const maxStartTaskIds = 99;
/** How often a start task is read where the server cannot stream its phases. */
const startPollMs = 1000;

export function startTaskListing(calls: AppCalls): Listing<StartTask> {
	return new Listing(calls, startTaskSchema, startTasksPath, {param: 'ids', chunkSize: maxStartTaskIds, keyedBy: 'uuid'});
}

export function startTaskQuery(params: StartTaskSearchParams): Record<string, QueryValue> {
	return {
		conversation_id__eq: params.conversationId === undefined ? undefined : normalizeId(params.conversationId),
		limit: params.limit,
	};
}

/** POST /app-conversations: the first start task (WORKING); the start goes on in the background. */
export async function createConversation(calls: AppCalls, request: CreateRequest, call: CallOptions = {}): Promise<StartTask> {
	const body = checkCreateRequest(request);
	const raw = await calls.json({method: 'POST', path: conversationsPath, body, signal: call.signal});
	return expectOne(startTaskSchema, raw, `POST ${conversationsPath}`);
}

/**
 * POST /app-conversations/stream-start: every start-task snapshot as the server writes it,
 * ending with READY or ERROR. A truncated stream is a ProtocolError that says how far it got;
 * the task may still be starting (poll it with getStartTasks).
 *
 * A V1 server older than stream-start (its route missing: a bare 404, or 405 where another
 * method matches the path) had nothing sent to it that could start anything: the plain
 * `POST /app-conversations` starts the conversation then, and its task is polled every second
 * until READY or ERROR, each change yielded as a snapshot. (The V0 `POST /api/conversations`
 * is not a fallback: the service removed it on 2026-04-19.)
 */
export async function* streamStart(calls: AppCalls, request: CreateRequest, call: CallOptions = {}): AsyncGenerator<StartTask> {
	const body = checkCreateRequest(request);
	const path = `${conversationsPath}/stream-start`;
	const {signal, release} = calls.scope.enter(call.signal);
	try {
		let chunks: AsyncIterable<Uint8Array>;
		try {
			chunks = await calls.http.stream({
				method: 'POST',
				path,
				body,
				signal,
				headersTimeoutMs: streamHeadersTimeoutMs,
				bodyTimeoutMs: streamIdleTimeoutMs,
			});
		} catch (error) {
			if (!((error instanceof NotFoundError && error.bare) || (error instanceof ApiError && error.status === 405))) throw error;
			calls.options.onWarning?.(`this server has no ${path}; starting with POST ${conversationsPath} and polling the task`);
			yield* createAndPoll(calls, request, signal);
			return;
		}
		yield* startTaskSnapshots(chunks, {signal, where: `POST ${path}`, idleTimeoutMs: streamIdleTimeoutMs});
	} finally {
		release();
	}
}

/** POST /app-conversations, then its task every second (each change once) until READY or ERROR. */
async function* createAndPoll(calls: AppCalls, request: CreateRequest, signal: AbortSignal): AsyncGenerator<StartTask> {
	let task = await createConversation(calls, request, {signal});
	yield task;
	const tasks = startTaskListing(calls);
	const deadline = Date.now() + streamIdleTimeoutMs;
	while (task.status !== 'READY' && task.status !== 'ERROR') {
		await sleep(startPollMs, signal);
		const [latest] = await tasks.get([task.id], {signal});
		if (!latest) throw new ProtocolError(`start task ${task.id} disappeared before it was READY`);
		if (latest.status !== task.status || latest.updated_at !== task.updated_at) yield latest;
		task = latest;
		if (Date.now() > deadline) throw new ProtocolError(`start task ${task.id} was still ${task.status} after ${streamIdleTimeoutMs / 60_000} minutes`);
	}
}

export async function countStartTasks(calls: AppCalls, params: StartTaskSearchParams = {}): Promise<number> {
	const {limit: _limit, ...filters} = startTaskQuery(params);
	const path = `${startTasksPath}/count`;
	return expectCount(await calls.json({path, query: filters, signal: params.signal}), `GET ${path}`);
}

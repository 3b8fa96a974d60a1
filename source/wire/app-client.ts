import type {Dispatcher} from 'undici';
import type {z} from 'zod';
import {lookupAligned} from './batch-lookup.js';
import {CallScope} from './call-scope.js';
import {checkCreateRequest} from './create-check.js';
import {ApiError, NotApiError, NotFoundError, ProtocolError} from './errors.js';
import {HttpClient, type QueryValue, type RequestOptions, type RetryInfo} from './http.js';
import {isUuidLike, normalizeId} from './ids.js';
import {sleep} from './abortable-sleep.js';
import {collect, uniqueById, walkPages} from './paging.js';
import {
	appConversationSchema,
	sandboxSchema,
	sandboxSpecSchema,
	sendMessageResultSchema,
	startTaskSchema,
	successSchema,
	type AppConversation,
	type Sandbox,
	type SandboxSpec,
	type StartTask,
} from './schemas/app.js';
import {describeIssues, parsePage, type InvalidItem, type Page} from './schemas/common.js';
import {type ChangeList, parseChanges, parseDiff} from './git-client.js';
import type {GitDiff} from './schemas/git.js';
import type {CreateRequest} from './schemas/create-request.js';
import {Secret} from './secret.js';
import type {Transport} from './transport.js';
import {startTaskSnapshots} from './start-snapshots.js';
import {StoredEventClient} from './stored-events.js';

/**
 * The service's V1 REST API (`/api/v1`, bearer key) as the real server behaves
 * (docs/service-behaviour.md §1), and as the seed documents it where the two differ: batch look-ups
 * capped at 99 ids and answered with null (or, per the seed, left out) for unknown ids; page ids
 * that are shifting offsets, so items are deduplicated; `id` (singular) for sandboxes and specs.
 *
 * Everything the server sends is validated here, item by item: one bad item is reported through
 * `onInvalid` and the rest still returned. Failures are the typed errors of errors.ts. POSTs are
 * never retried (http.ts): a create that went through must not happen twice.
 */

export type AppClientOptions = {
	/** The service root, e.g. `https://app.all-hands.dev`; a path prefix is kept. */
	baseUrl: string;
	/** Sent as `Authorization: Bearer …`; read only where the header is built. */
	apiKey: Secret | string | null;
	/** Retries of a failing GET (default 4). */
	maxRetries?: number;
	onRetry?: (info: RetryInfo) => void;
	/** An item that failed validation; the rest of its page or batch is still returned. */
	onInvalid?: (item: InvalidItem, where: string) => void;
	/** Something the user should know that is not an error (a deprecated call, a looping server). */
	onWarning?: (message: string) => void;
	/** The server's connection pool, clock estimate and pacing (transport.ts); default: the process's. */
	transport?: Transport;
	/** A dispatcher of its own instead of the transport's pool (tests). */
	dispatcher?: Dispatcher;
	/** Largest JSON answer read (default 32 MiB). */
	maxResponseBytes?: number;
};

export type CallOptions = {signal?: AbortSignal};

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

export type StartTaskSearchParams = CallOptions & {conversationId?: string; limit?: number};

export type PageParams = CallOptions & {limit?: number};

export type SendMessageResult = z.infer<typeof sendMessageResultSchema>;

const api = '/api/v1';
const conversationsPath = `${api}/app-conversations`;
const startTasksPath = `${conversationsPath}/start-tasks`;
const sandboxesPath = `${api}/sandboxes`;
const specsPath = `${api}/sandbox-specs`;

/** The real server answers 400 above 99 conversation ids and above 100 sandbox or spec ids. */
const maxConversationIds = 99;
const maxStartTaskIds = 99;
const maxSandboxIds = 100;

/** Start phases can take minutes (a sandbox to boot, a repository to clone) between updates. */
const streamIdleTimeoutMs = 10 * 60_000;
/** The server may hold the headers until the task exists. */
const streamHeadersTimeoutMs = 60_000;
/** How often a start task is read where the server cannot stream its phases. */
const startPollMs = 1000;

export class AppClient {
	readonly baseUrl: string;
	readonly #http: HttpClient;
	/** Only what later calls need; the key itself is held by the header function alone. */
	readonly #options: Pick<AppClientOptions, 'onInvalid' | 'onWarning' | 'maxResponseBytes'>;
	readonly #scope = new CallScope();
	/**
	 * The app server's stored copy of each conversation's events (stored-events.ts): readable
	 * whatever the sandbox's status, through this client's HTTP layer, key and call scope.
	 */
	readonly storedEvents: StoredEventClient;

	constructor(options: AppClientOptions) {
		this.#options = {onInvalid: options.onInvalid, onWarning: options.onWarning, maxResponseBytes: options.maxResponseBytes};
		const key = typeof options.apiKey === 'string' ? new Secret(options.apiKey) : options.apiKey;
		this.#http = new HttpClient({
			baseUrl: options.baseUrl,
			// A function, so the key is revealed per request and never copied into options or errors.
			headers: (): Record<string, string> => (key && !key.isEmpty ? {authorization: `Bearer ${key.reveal()}`} : {}),
			...(options.maxRetries === undefined ? {} : {maxRetries: options.maxRetries}),
			...(options.onRetry ? {onRetry: options.onRetry} : {}),
			...(options.transport ? {transport: options.transport} : {}),
			...(options.dispatcher ? {dispatcher: options.dispatcher} : {}),
		});
		this.baseUrl = this.#http.baseUrl;
		this.storedEvents = new StoredEventClient((path, query, signal) => this.#json({path, query, signal}));
	}

	// ---- starting conversations ----------------------------------------------------------

	/** POST /app-conversations: the first start task (WORKING); the start goes on in the background. */
	async createConversation(request: CreateRequest, call: CallOptions = {}): Promise<StartTask> {
		const body = checkCreateRequest(request);
		const raw = await this.#json({method: 'POST', path: conversationsPath, body, signal: call.signal});
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
	async *streamStart(request: CreateRequest, call: CallOptions = {}): AsyncGenerator<StartTask> {
		const body = checkCreateRequest(request);
		const path = `${conversationsPath}/stream-start`;
		const {signal, release} = this.#scope.enter(call.signal);
		try {
			let chunks: AsyncIterable<Uint8Array>;
			try {
				chunks = await this.#http.stream({
					method: 'POST',
					path,
					body,
					signal,
					headersTimeoutMs: streamHeadersTimeoutMs,
					bodyTimeoutMs: streamIdleTimeoutMs,
				});
			} catch (error) {
				if (!((error instanceof NotFoundError && error.bare) || (error instanceof ApiError && error.status === 405))) throw error;
				this.#options.onWarning?.(`this server has no ${path}; starting with POST ${conversationsPath} and polling the task`);
				yield* this.#createAndPoll(request, signal);
				return;
			}
			yield* startTaskSnapshots(chunks, {signal, where: `POST ${path}`, idleTimeoutMs: streamIdleTimeoutMs});
		} finally {
			release();
		}
	}

	/** POST /app-conversations, then its task every second (each change once) until READY or ERROR. */
	async *#createAndPoll(request: CreateRequest, signal: AbortSignal): AsyncGenerator<StartTask> {
		let task = await this.createConversation(request, {signal});
		yield task;
		const deadline = Date.now() + streamIdleTimeoutMs;
		while (task.status !== 'READY' && task.status !== 'ERROR') {
			await sleep(startPollMs, signal);
			const [latest] = await this.getStartTasks([task.id], {signal});
			if (!latest) throw new ProtocolError(`start task ${task.id} disappeared before it was READY`);
			if (latest.status !== task.status || latest.updated_at !== task.updated_at) yield latest;
			task = latest;
			if (Date.now() > deadline) throw new ProtocolError(`start task ${task.id} was still ${task.status} after ${streamIdleTimeoutMs / 60_000} minutes`);
		}
	}

	/** Aligned with `ids`: null for a task the server does not know. */
	async getStartTasks(ids: readonly string[], call: CallOptions = {}): Promise<Array<StartTask | null>> {
		return this.#lookup(startTaskSchema, startTasksPath, 'ids', ids, maxStartTaskIds, call, 'uuid');
	}

	async *searchStartTaskPages(params: StartTaskSearchParams = {}): AsyncGenerator<Page<StartTask>> {
		yield* this.#pages(startTaskSchema, `${startTasksPath}/search`, startTaskQuery(params), params);
	}

	/** Every start task (newest first), once each. */
	async *searchStartTasks(params: StartTaskSearchParams = {}): AsyncGenerator<StartTask> {
		yield* uniqueById(this.searchStartTaskPages(params));
	}

	async countStartTasks(params: StartTaskSearchParams = {}): Promise<number> {
		const {limit: _limit, ...filters} = startTaskQuery(params);
		const path = `${startTasksPath}/count`;
		return expectCount(await this.#json({path, query: filters, signal: params.signal}), `GET ${path}`);
	}

	// ---- conversations -------------------------------------------------------------------

	/**
	 * Aligned with `ids` (either id spelling): null where the server does not know the id.
	 * Split into requests of at most 99 ids; an id that is not a uuid is null without asking.
	 */
	async getConversations(ids: readonly string[], call: CallOptions = {}): Promise<Array<AppConversation | null>> {
		return this.#lookup(appConversationSchema, conversationsPath, 'ids', ids, maxConversationIds, call, 'uuid');
	}

	/** The search pages as the server sends them (newest first), following next_page_id to the end. */
	async *searchConversationPages(params: ConversationSearchParams = {}): AsyncGenerator<Page<AppConversation>> {
		yield* this.#pages(appConversationSchema, `${conversationsPath}/search`, conversationQuery(params), params);
	}

	/** Every conversation of every page, once each (page ids are offsets that shift as rows arrive). */
	async *searchConversations(params: ConversationSearchParams = {}): AsyncGenerator<AppConversation> {
		yield* uniqueById(this.searchConversationPages(params));
	}

	async listConversations(params: ConversationSearchParams = {}): Promise<AppConversation[]> {
		return collect(this.searchConversations(params));
	}

	/**
	 * The same filters as the search; the answer is a bare integer. The count route takes no
	 * `include_sub_conversations` (the service's router), so none is sent.
	 */
	async countConversations(params: ConversationSearchParams = {}): Promise<number> {
		const {limit: _limit, include_sub_conversations: _children, ...filters} = conversationQuery(params);
		const path = `${conversationsPath}/count`;
		return expectCount(await this.#json({path, query: filters, signal: params.signal}), `GET ${path}`);
	}

	/** A user message to a conversation whose sandbox is RUNNING (409/410/503 otherwise); `run` starts the agent. */
	async sendMessage(conversationId: string, text: string, options: CallOptions & {run?: boolean} = {}): Promise<SendMessageResult> {
		const path = `${conversationsPath}/${encodeURIComponent(normalizeId(conversationId))}/send-message`;
		const raw = await this.#json({
			method: 'POST',
			path,
			body: {role: 'user', content: [{type: 'text', text}], run: options.run ?? true},
			signal: options.signal,
		});
		return expectOne(sendMessageResultSchema, raw, `POST ${path}`);
	}

	// ---- a conversation's sandbox, through the app server ------------------------------------

	/**
	 * The files changed in the repository at `path` in the conversation's sandbox, through the app
	 * server's proxy (`GET /app-conversations/{id}/git/changes?path=&ref=`, bearer key; app_server
	 * app_conversation_router.py, 2026-06). Its sandbox must be RUNNING: 409 while PAUSED, 404
	 * "not reachable" otherwise. An older app server has no such route (a bare 404).
	 */
	async gitChanges(conversationId: string, path: string, call: CallOptions & {ref?: string} = {}): Promise<ChangeList> {
		const where = `${conversationsPath}/{id}/git/changes`;
		return parseChanges(await this.#json({path: `${this.#conversationPath(conversationId)}/git/changes`, query: {path, ref: call.ref}, signal: call.signal}), where, 'the app server');
	}

	/** One file's original and modified text, through the same proxy (`…/git/diff?path=&ref=`). */
	async gitDiff(conversationId: string, path: string, call: CallOptions & {ref?: string} = {}): Promise<GitDiff> {
		const where = `${conversationsPath}/{id}/git/diff`;
		return parseDiff(await this.#json({path: `${this.#conversationPath(conversationId)}/git/diff`, query: {path, ref: call.ref}, signal: call.signal}), where, 'the app server');
	}

	/**
	 * The conversation's trajectory as a zip, from the app server's stored copy
	 * (`GET /app-conversations/{id}/download`): works whatever its sandbox's status, PAUSED
	 * included, and never wakes it. The bytes as they arrive; null where this server has no such
	 * route (an older one: 404 or 405, or the hosted web page for a path it does not know).
	 */
	async downloadConversation(conversationId: string, call: CallOptions = {}): Promise<AsyncIterable<Uint8Array> | null> {
		if (this.#scope.closed) throw new ApiError('the client is closed');
		try {
			return await this.#http.stream({method: 'GET', path: `${this.#conversationPath(conversationId)}/download`, signal: call.signal, headersTimeoutMs: streamHeadersTimeoutMs});
		} catch (error) {
			if ((error instanceof NotFoundError && error.bare) || error instanceof NotApiError || (error instanceof ApiError && error.status === 405)) return null;
			throw error;
		}
	}

	#conversationPath(conversationId: string): string {
		return `${conversationsPath}/${encodeURIComponent(normalizeId(conversationId))}`;
	}

	/**
	 * DELETE /app-conversations/{id}: `{"success": true}`; 404 for an unknown id, 400 for one that
	 * is not a UUID. The service deletes its sandbox too, in the background, unless another
	 * conversation shares it (docs/service-behaviour.md §1.2).
	 */
	async deleteConversation(id: string, call: CallOptions = {}): Promise<{success: boolean}> {
		const path = `${conversationsPath}/${encodeURIComponent(id)}`;
		return success(await this.#json({method: 'DELETE', path, signal: call.signal}), `DELETE ${path}`);
	}

	// ---- sandboxes -----------------------------------------------------------------------

	async *searchSandboxPages(params: PageParams = {}): AsyncGenerator<Page<Sandbox>> {
		yield* this.#pages(sandboxSchema, `${sandboxesPath}/search`, {limit: params.limit}, params);
	}

	/** Every sandbox of every page, once each. */
	async *searchSandboxes(params: PageParams = {}): AsyncGenerator<Sandbox> {
		yield* uniqueById(this.searchSandboxPages(params));
	}

	async listSandboxes(params: PageParams = {}): Promise<Sandbox[]> {
		return collect(this.searchSandboxes(params));
	}

	/** Aligned with `ids`, null for unknown ones. The query parameter is `id`, singular and repeated. */
	async getSandboxes(ids: readonly string[], call: CallOptions = {}): Promise<Array<Sandbox | null>> {
		return this.#lookup(sandboxSchema, sandboxesPath, 'id', ids, maxSandboxIds, call, 'opaque');
	}

	/** POST /sandboxes?sandbox_spec_id=…: the spec id is a query parameter, not a body. */
	async startSandbox(specId?: string, call: CallOptions = {}): Promise<Sandbox> {
		const raw = await this.#json({method: 'POST', path: sandboxesPath, query: {sandbox_spec_id: specId}, signal: call.signal});
		return expectOne(sandboxSchema, raw, `POST ${sandboxesPath}`);
	}

	/** Returns as soon as the service accepts; the status changes later (poll getSandboxes). */
	async pauseSandbox(id: string, call: CallOptions = {}): Promise<{success: boolean}> {
		return this.#sandboxAction(id, 'pause', call);
	}

	/** Can pause the oldest other running sandbox, when the account is at its cap. */
	async resumeSandbox(id: string, call: CallOptions = {}): Promise<{success: boolean}> {
		return this.#sandboxAction(id, 'resume', call);
	}

	/**
	 * DELETE /sandboxes/{id}?sandbox_id={id}. The service's route is declared with `{id}` in the
	 * path but its handler reads a `sandbox_id` argument, which FastAPI takes from the query
	 * (OpenHands app_server/sandbox/sandbox_router.py, 2026): without `?sandbox_id=` it answers 422.
	 * Sending both forms at once works there and on a server that reads the path.
	 */
	async deleteSandbox(id: string, call: CallOptions = {}): Promise<{success: boolean}> {
		const path = `${sandboxesPath}/${encodeURIComponent(id)}`;
		return success(await this.#json({method: 'DELETE', path, query: {sandbox_id: id}, signal: call.signal}), `DELETE ${path}`);
	}

	// ---- sandbox specs -------------------------------------------------------------------

	async *searchSandboxSpecPages(params: PageParams = {}): AsyncGenerator<Page<SandboxSpec>> {
		yield* this.#pages(sandboxSpecSchema, `${specsPath}/search`, {limit: params.limit}, params);
	}

	async *searchSandboxSpecs(params: PageParams = {}): AsyncGenerator<SandboxSpec> {
		yield* uniqueById(this.searchSandboxSpecPages(params));
	}

	async listSandboxSpecs(params: PageParams = {}): Promise<SandboxSpec[]> {
		return collect(this.searchSandboxSpecs(params));
	}

	async getSandboxSpecs(ids: readonly string[], call: CallOptions = {}): Promise<Array<SandboxSpec | null>> {
		return this.#lookup(sandboxSpecSchema, specsPath, 'id', ids, maxSandboxIds, call, 'opaque');
	}

	/**
	 * Aborts every call still in flight and refuses new ones. The connection pool belongs to the
	 * server's transport, which its owner closes (the agent servers' clients share it).
	 */
	async close(): Promise<void> {
		this.#scope.close();
	}

	// ---- shared mechanics ----------------------------------------------------------------

	async #json(options: RequestOptions): Promise<unknown> {
		const {signal, release} = this.#scope.enter(options.signal);
		try {
			return await this.#http.json({...options, signal, maxBytes: options.maxBytes ?? this.#options.maxResponseBytes});
		} finally {
			release();
		}
	}

	async #sandboxAction(id: string, action: 'pause' | 'resume', call: CallOptions): Promise<{success: boolean}> {
		const path = `${sandboxesPath}/${encodeURIComponent(id)}/${action}`;
		return success(await this.#json({method: 'POST', path, signal: call.signal}), `POST ${path}`);
	}

	async #lookup<T extends {id: string}>(
		schema: z.ZodType<T>,
		path: string,
		param: 'ids' | 'id',
		ids: readonly string[],
		chunkSize: number,
		call: CallOptions,
		keyedBy: 'uuid' | 'opaque',
	): Promise<Array<T | null>> {
		const where = `GET ${path}`;
		return lookupAligned(ids, {
			schema,
			chunkSize,
			where,
			// App-server uuids go in the hex form, and a malformed one (a 400 for the whole batch) is not sent.
			...(keyedBy === 'uuid' ? {canExist: isUuidLike, sendNormalized: true} : {}),
			fetchChunk: (chunk) => this.#json({path, query: {[param]: chunk}, signal: call.signal}),
			onInvalid: (item) => this.#options.onInvalid?.(item, where),
		});
	}

	async *#pages<T>(schema: z.ZodType<T>, path: string, query: Record<string, QueryValue>, call: CallOptions): AsyncGenerator<Page<T>> {
		const where = `GET ${path}`;
		const fetchPage = async (pageId: string | null): Promise<Page<T>> => {
			const raw = await this.#json({path, query: {...query, page_id: pageId}, signal: call.signal});
			let page: Page<T>;
			try {
				page = parsePage(schema, raw);
			} catch {
				throw new ProtocolError(`${where}: the answer is not a page ({items, next_page_id})`);
			}
			for (const item of page.invalid) this.#options.onInvalid?.(item, where);
			return page;
		};
		yield* walkPages(fetchPage, {
			onRepeatedPageId: (pageId) =>
				this.#options.onWarning?.(`${where}: the server sent page id ${JSON.stringify(pageId)} twice; stopped paging to avoid a loop`),
		});
	}
}

function conversationQuery(params: ConversationSearchParams): Record<string, QueryValue> {
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

function startTaskQuery(params: StartTaskSearchParams): Record<string, QueryValue> {
	return {
		conversation_id__eq: params.conversationId === undefined ? undefined : normalizeId(params.conversationId),
		limit: params.limit,
	};
}

function expectOne<T>(schema: z.ZodType<T>, raw: unknown, where: string): T {
	const result = schema.safeParse(raw);
	if (!result.success) throw new ProtocolError(`${where}: unexpected answer from the server (${describeIssues(result.error)})`);
	return result.data;
}

/** `{"success": true}`; an empty 200 is taken as success too (the action was accepted). */
function success(raw: unknown, where: string): {success: boolean} {
	if (raw === undefined) return {success: true};
	return {success: expectOne(successSchema, raw, where).success};
}

function expectCount(raw: unknown, where: string): number {
	if (typeof raw === 'number' && Number.isInteger(raw) && raw >= 0) return raw;
	throw new ProtocolError(`${where}: expected a count (a bare integer), got ${JSON.stringify(raw)?.slice(0, 40)}`);
}

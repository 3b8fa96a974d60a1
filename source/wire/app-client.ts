import type {Dispatcher} from 'undici';
import {HttpClient, type QueryValue, type RetryInfo} from './http.js';
import {ProtocolError, ValidationError} from './errors.js';
import {normalizeId} from './ids.js';
import {Secret} from './secret.js';
import {parseJsonArrayStream} from './stream-start.js';
import {
	appConversationSchema,
	sandboxSchema,
	sandboxSpecSchema,
	sendMessageResultSchema,
	startTaskSchema,
	successSchema,
	v0StartResponseSchema,
	type AppConversation,
	type Sandbox,
	type SandboxSpec,
	type StartTask,
	type V0StartResponse,
} from './schemas/app.js';
import {describeIssues, parseAligned, parsePage, type InvalidItem, type Page} from './schemas/common.js';
import {createRequestSchema, type CreateRequest} from './schemas/create-request.js';
import type {z} from 'zod';

/**
 * The service's V1 REST API (`/api/v1`, bearer key), as the real server behaves
 * (openhands-wire.md §1): batch look-ups capped at 99 ids with null for unknown ids, pages whose
 * ids are shifting offsets (so items are deduplicated), `id` (singular) for sandboxes.
 */

export type AppClientOptions = {
	baseUrl: string;
	apiKey: Secret | string | null;
	maxRetries?: number;
	onRetry?: (info: RetryInfo) => void;
	/** An item that failed validation; the rest of its page is still returned. */
	onInvalid?: (item: InvalidItem, where: string) => void;
	onWarning?: (message: string) => void;
	dispatcher?: Dispatcher;
};

export type ConversationSearchParams = {
	titleContains?: string;
	createdAtGte?: string;
	createdAtLt?: string;
	updatedAtGte?: string;
	updatedAtLt?: string;
	sandboxId?: string;
	limit?: number;
	signal?: AbortSignal;
};

type Call = {signal?: AbortSignal};

const maxIdsPerLookup = 99;
const maxSandboxIdsPerLookup = 100;

export class AppClient {
	readonly baseUrl: string;
	readonly #http: HttpClient;
	readonly #options: AppClientOptions;

	constructor(options: AppClientOptions) {
		this.#options = options;
		const key = typeof options.apiKey === 'string' ? new Secret(options.apiKey) : options.apiKey;
		this.#http = new HttpClient({
			baseUrl: options.baseUrl,
			headers: (): Record<string, string> => (key && !key.isEmpty ? {authorization: `Bearer ${key.reveal()}`} : {}),
			...(options.maxRetries === undefined ? {} : {maxRetries: options.maxRetries}),
			...(options.onRetry ? {onRetry: options.onRetry} : {}),
			...(options.dispatcher ? {dispatcher: options.dispatcher} : {}),
		});
		this.baseUrl = this.#http.baseUrl;
	}

	// ---- conversations -------------------------------------------------------------------

	/** Checked locally first, so a bad request is a clear message and never reaches the server. */
	async createConversation(request: CreateRequest, call: Call = {}): Promise<StartTask> {
		const body = validateCreate(request);
		const raw = await this.#http.json({method: 'POST', path: '/api/v1/app-conversations', body, signal: call.signal});
		return this.#one(startTaskSchema, raw, 'create conversation');
	}

	/** Each start-task snapshot as the server streams it, until READY or ERROR. */
	async *streamStart(request: CreateRequest, call: Call = {}): AsyncGenerator<StartTask> {
		const body = validateCreate(request);
		const chunks = await this.#http.stream({
			method: 'POST',
			path: '/api/v1/app-conversations/stream-start',
			body,
			signal: call.signal,
			bodyTimeoutMs: 10 * 60_000,
		});
		for await (const element of parseJsonArrayStream(chunks)) {
			const result = startTaskSchema.safeParse(element);
			if (!result.success) throw new ProtocolError(`a start-task update is malformed: ${describeIssues(result.error)}`);
			yield result.data;
		}
	}

	async getStartTasks(ids: readonly string[], call: Call = {}): Promise<Array<StartTask | null>> {
		return this.#aligned(startTaskSchema, '/api/v1/app-conversations/start-tasks', 'ids', ids, 100, call);
	}

	async *searchStartTasks(params: {conversationId?: string; limit?: number} & Call = {}): AsyncGenerator<StartTask> {
		yield* this.#items(startTaskSchema, '/api/v1/app-conversations/start-tasks/search', {
			conversation_id__eq: params.conversationId,
			limit: params.limit,
		}, params.signal);
	}

	async countStartTasks(params: {conversationId?: string} & Call = {}): Promise<number> {
		return count(await this.#http.json({
			path: '/api/v1/app-conversations/start-tasks/count',
			query: {conversation_id__eq: params.conversationId},
			signal: params.signal,
		}));
	}

	/** Aligned with `ids`: null where the server does not know the id. Chunks of at most 99. */
	async getConversations(ids: readonly string[], call: Call = {}): Promise<Array<AppConversation | null>> {
		return this.#aligned(appConversationSchema, '/api/v1/app-conversations', 'ids', ids, maxIdsPerLookup, call);
	}

	async *searchConversationPages(params: ConversationSearchParams = {}): AsyncGenerator<Page<AppConversation>> {
		yield* this.#pages(appConversationSchema, '/api/v1/app-conversations/search', conversationQuery(params), params.signal);
	}

	/** Every conversation across every page, once each (page ids are offsets that shift). */
	async *searchConversations(params: ConversationSearchParams = {}): AsyncGenerator<AppConversation> {
		yield* this.#items(appConversationSchema, '/api/v1/app-conversations/search', conversationQuery(params), params.signal);
	}

	async listConversations(params: ConversationSearchParams = {}): Promise<AppConversation[]> {
		return collect(this.searchConversations(params));
	}

	async countConversations(params: ConversationSearchParams = {}): Promise<number> {
		const {limit: _limit, ...filters} = conversationQuery(params);
		return count(await this.#http.json({path: '/api/v1/app-conversations/count', query: filters, signal: params.signal}));
	}

	async sendMessage(conversationId: string, text: string, options: {run?: boolean} & Call = {}) {
		const raw = await this.#http.json({
			method: 'POST',
			path: `/api/v1/app-conversations/${encodeURIComponent(conversationId)}/send-message`,
			body: {role: 'user', content: [{type: 'text', text}], run: options.run ?? true},
			signal: options.signal,
		});
		return this.#one(sendMessageResultSchema, raw, 'send message');
	}

	// ---- sandboxes -----------------------------------------------------------------------

	async *searchSandboxes(call: Call & {limit?: number} = {}): AsyncGenerator<Sandbox> {
		yield* this.#items(sandboxSchema, '/api/v1/sandboxes/search', {limit: call.limit}, call.signal);
	}

	async listSandboxes(call: Call = {}): Promise<Sandbox[]> {
		return collect(this.searchSandboxes(call));
	}

	/** The query parameter is `id`, singular and repeated (unlike conversations' `ids`). */
	async getSandboxes(ids: readonly string[], call: Call = {}): Promise<Array<Sandbox | null>> {
		return this.#aligned(sandboxSchema, '/api/v1/sandboxes', 'id', ids, maxSandboxIdsPerLookup, call);
	}

	/** The spec id is a query parameter, not a body. */
	async startSandbox(specId?: string, call: Call = {}): Promise<Sandbox> {
		const raw = await this.#http.json({method: 'POST', path: '/api/v1/sandboxes', query: {sandbox_spec_id: specId}, signal: call.signal});
		return this.#one(sandboxSchema, raw, 'start sandbox');
	}

	async pauseSandbox(id: string, call: Call = {}): Promise<{success: boolean}> {
		return this.#sandboxAction(id, 'pause', call);
	}

	async resumeSandbox(id: string, call: Call = {}): Promise<{success: boolean}> {
		return this.#sandboxAction(id, 'resume', call);
	}

	async deleteSandbox(id: string, call: Call = {}): Promise<{success: boolean}> {
		const path = `/api/v1/sandboxes/${encodeURIComponent(id)}`;
		try {
			return this.#one(successSchema, await this.#http.json({method: 'DELETE', path, signal: call.signal}), 'delete sandbox');
		} catch (error) {
			// Older servers declared the route with a path id but read `?sandbox_id=` (422 without it).
			if (!(error instanceof ValidationError)) throw error;
			const raw = await this.#http.json({method: 'DELETE', path, query: {sandbox_id: id}, signal: call.signal});
			return this.#one(successSchema, raw, 'delete sandbox');
		}
	}

	async *searchSandboxSpecs(call: Call = {}): AsyncGenerator<SandboxSpec> {
		yield* this.#items(sandboxSpecSchema, '/api/v1/sandbox-specs/search', {}, call.signal);
	}

	async listSandboxSpecs(call: Call = {}): Promise<SandboxSpec[]> {
		return collect(this.searchSandboxSpecs(call));
	}

	async getSandboxSpecs(ids: readonly string[], call: Call = {}): Promise<Array<SandboxSpec | null>> {
		return this.#aligned(sandboxSpecSchema, '/api/v1/sandbox-specs', 'id', ids, maxSandboxIdsPerLookup, call);
	}

	// ---- V0 ------------------------------------------------------------------------------

	/** The deprecated V0 start call, for older self-hosted servers without the V1 API. */
	async startV0(request: {message: string; repository?: string}, call: Call = {}): Promise<V0StartResponse> {
		this.#options.onWarning?.('the V0 start call is deprecated (removal scheduled 2026-04-01); prefer V1');
		const raw = await this.#http.json({
			method: 'POST',
			path: '/api/conversations',
			body: {initial_user_msg: request.message, ...(request.repository ? {repository: request.repository} : {})},
			signal: call.signal,
		});
		return this.#one(v0StartResponseSchema, raw, 'start (V0)');
	}

	async close(): Promise<void> {
		// The keep-alive pools are process-wide (http.ts closeHttpAgent); nothing per client.
	}

	// ---- shared mechanics ----------------------------------------------------------------

	async #sandboxAction(id: string, action: 'pause' | 'resume', call: Call) {
		const raw = await this.#http.json({
			method: 'POST',
			path: `/api/v1/sandboxes/${encodeURIComponent(id)}/${action}`,
			signal: call.signal,
		});
		return raw === undefined ? {success: true} : this.#one(successSchema, raw, `${action} sandbox`);
	}

	#one<T>(schema: z.ZodType<T>, raw: unknown, what: string): T {
		const result = schema.safeParse(raw);
		if (!result.success) throw new ProtocolError(`${what}: unexpected answer from the server (${describeIssues(result.error)})`);
		return result.data;
	}

	async #aligned<T extends {id: string}>(
		schema: z.ZodType<T>,
		path: string,
		param: string,
		ids: readonly string[],
		chunkSize: number,
		call: Call,
	): Promise<Array<T | null>> {
		const out: Array<T | null> = [];
		for (let start = 0; start < ids.length; start += chunkSize) {
			const chunk = ids.slice(start, start + chunkSize);
			const raw = await this.#http.json({path, query: {[param]: chunk}, signal: call.signal});
			const {items, invalid} = parseAligned(schema, raw);
			for (const item of invalid) this.#options.onInvalid?.(item, path);
			if (items.length === chunk.length) {
				out.push(...items);
				continue;
			}
			// The seed's server answers only the ids it knows (an empty array for none): map by id.
			const byId = new Map(items.flatMap((item) => (item ? [[normalizeId(item.id), item] as const] : [])));
			for (const id of chunk) out.push(byId.get(normalizeId(id)) ?? null);
		}
		return out;
	}

	async *#pages<T>(schema: z.ZodType<T>, path: string, query: Record<string, QueryValue>, signal?: AbortSignal): AsyncGenerator<Page<T>> {
		let pageId: string | null = null;
		const seen = new Set<string>();
		for (;;) {
			const raw = await this.#http.json({path, query: {...query, page_id: pageId}, signal});
			let page: Page<T>;
			try {
				page = parsePage(schema, raw);
			} catch {
				throw new ProtocolError(`GET ${path}: the answer is not a page ({items, next_page_id})`);
			}
			for (const item of page.invalid) this.#options.onInvalid?.(item, path);
			yield page;
			if (!page.nextPageId) return;
			// A server that hands back a cursor it already gave would loop forever.
			if (seen.has(page.nextPageId)) throw new ProtocolError(`GET ${path}: the server repeated page id ${page.nextPageId}`);
			seen.add(page.nextPageId);
			pageId = page.nextPageId;
		}
	}

	async *#items<T>(schema: z.ZodType<T>, path: string, query: Record<string, QueryValue>, signal?: AbortSignal): AsyncGenerator<T> {
		const seen = new Set<string>();
		for await (const page of this.#pages(schema, path, query, signal)) {
			for (const item of page.items) {
				const id = normalizeId(String((item as {id?: unknown}).id ?? ''));
				if (seen.has(id)) continue;
				seen.add(id);
				yield item;
			}
		}
	}
}

function validateCreate(request: CreateRequest): CreateRequest {
	const result = createRequestSchema.safeParse(request);
	if (!result.success) {
		const detail = result.error.issues.map((issue) => ({loc: ['body', ...issue.path.map((part) => (typeof part === 'symbol' ? String(part) : part))], msg: issue.message, type: issue.code}));
		throw new ValidationError(`the create request is not valid: ${describeIssues(result.error)}`, detail);
	}
	return result.data;
}

function conversationQuery(params: ConversationSearchParams): Record<string, QueryValue> {
	return {
		title__contains: params.titleContains,
		created_at__gte: params.createdAtGte,
		created_at__lt: params.createdAtLt,
		updated_at__gte: params.updatedAtGte,
		updated_at__lt: params.updatedAtLt,
		sandbox_id__eq: params.sandboxId,
		limit: params.limit,
	};
}

function count(raw: unknown): number {
	if (typeof raw === 'number' && Number.isFinite(raw)) return raw;
	throw new ProtocolError('the count endpoint did not answer with a number');
}

async function collect<T>(iterator: AsyncIterable<T>): Promise<T[]> {
	const out: T[] = [];
	for await (const item of iterator) out.push(item);
	return out;
}


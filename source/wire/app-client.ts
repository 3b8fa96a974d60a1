import {AppCalls, type AppClientOptions, type CallOptions, type Listing, type PageParams} from './app-calls.js';
import {
	conversationListing,
	conversationQuery,
	countConversations,
	deleteConversation,
	downloadConversation,
	gitChanges,
	gitDiff,
	sendMessage,
	type ConversationSearchParams,
	type SendMessageResult,
} from './app-conversations.js';
import {deleteSandbox, sandboxAction, sandboxListing, sandboxSpecListing, startSandbox} from './app-sandboxes.js';
import {countStartTasks, createConversation, startTaskListing, startTaskQuery, streamStart, type StartTaskSearchParams} from './app-start.js';
import type {ChangeList} from './git-client.js';
import type {AppConversation, Sandbox, SandboxSpec, StartTask} from './schemas/app.js';
import type {Page} from './schemas/common.js';
import type {CreateRequest} from './schemas/create-request.js';
import type {GitDiff} from './schemas/git.js';
import {StoredEventClient} from './stored-events.js';

export type {AppClientOptions, CallOptions, PageParams} from './app-calls.js';
export type {ConversationSearchParams, SendMessageResult} from './app-conversations.js';
export type {StartTaskSearchParams} from './app-start.js';

/**
 * The service's V1 REST API (`/api/v1`, bearer key) as the real server behaves
 * (docs/service-behaviour.md §1), and as the seed documents it where the two differ: batch look-ups
 * capped at 99 ids and answered with null (or, per the seed, left out) for unknown ids; page ids
 * that are shifting offsets, so items are deduplicated; `id` (singular) for sandboxes and specs.
 *
 * Everything the server sends is validated, item by item: one bad item is reported through
 * `onInvalid` and the rest still returned. Failures are the typed errors of errors.ts. POSTs are
 * never retried (http.ts): a create that went through must not happen twice.
 *
 * Each call is made, and documented, by the module of what it is about: starting conversations
 * and their start tasks (app-start.ts), conversations (app-conversations.ts), sandboxes and specs
 * (app-sandboxes.ts); what they all go through (the key, the call scope, look-ups, pages) is
 * app-calls.ts.
 */
export class AppClient {
	readonly baseUrl: string;
	/**
	 * The app server's stored copy of each conversation's events (stored-events.ts): readable
	 * whatever the sandbox's status, through this client's HTTP layer, key and call scope.
	 */
	readonly storedEvents: StoredEventClient;
	readonly #calls: AppCalls;
	readonly #startTasks: Listing<StartTask>;
	readonly #conversations: Listing<AppConversation>;
	readonly #sandboxes: Listing<Sandbox>;
	readonly #specs: Listing<SandboxSpec>;

	constructor(options: AppClientOptions) {
		const calls = new AppCalls(options);
		this.#calls = calls;
		this.baseUrl = calls.baseUrl;
		this.storedEvents = new StoredEventClient((path, query, signal) => calls.json({path, query, signal}));
		this.#startTasks = startTaskListing(calls);
		this.#conversations = conversationListing(calls);
		this.#sandboxes = sandboxListing(calls);
		this.#specs = sandboxSpecListing(calls);
	}

	// ---- starting conversations (app-start.ts) ---------------------------------------------

	async createConversation(request: CreateRequest, call: CallOptions = {}): Promise<StartTask> {
		return createConversation(this.#calls, request, call);
	}

	async *streamStart(request: CreateRequest, call: CallOptions = {}): AsyncGenerator<StartTask> {
		yield* streamStart(this.#calls, request, call);
	}

	/** Aligned with `ids`: null for a task the server does not know. */
	async getStartTasks(ids: readonly string[], call: CallOptions = {}): Promise<Array<StartTask | null>> {
		return this.#startTasks.get(ids, call);
	}

	async *searchStartTaskPages(params: StartTaskSearchParams = {}): AsyncGenerator<Page<StartTask>> {
		yield* this.#startTasks.pages(startTaskQuery(params), params);
	}

	/** Every start task (newest first), once each. */
	async *searchStartTasks(params: StartTaskSearchParams = {}): AsyncGenerator<StartTask> {
		yield* this.#startTasks.each(startTaskQuery(params), params);
	}

	async countStartTasks(params: StartTaskSearchParams = {}): Promise<number> {
		return countStartTasks(this.#calls, params);
	}

	// ---- conversations (app-conversations.ts) ----------------------------------------------

	/** Aligned with `ids` (either id spelling): null where the server does not know the id. */
	async getConversations(ids: readonly string[], call: CallOptions = {}): Promise<Array<AppConversation | null>> {
		return this.#conversations.get(ids, call);
	}

	/** The search pages as the server sends them (newest first), following next_page_id to the end. */
	async *searchConversationPages(params: ConversationSearchParams = {}): AsyncGenerator<Page<AppConversation>> {
		yield* this.#conversations.pages(conversationQuery(params), params);
	}

	/** Every conversation of every page, once each (page ids are offsets that shift as rows arrive). */
	async *searchConversations(params: ConversationSearchParams = {}): AsyncGenerator<AppConversation> {
		yield* this.#conversations.each(conversationQuery(params), params);
	}

	async listConversations(params: ConversationSearchParams = {}): Promise<AppConversation[]> {
		return this.#conversations.all(conversationQuery(params), params);
	}

	async countConversations(params: ConversationSearchParams = {}): Promise<number> {
		return countConversations(this.#calls, params);
	}

	async sendMessage(conversationId: string, text: string, options: CallOptions & {run?: boolean} = {}): Promise<SendMessageResult> {
		return sendMessage(this.#calls, conversationId, text, options);
	}

	async gitChanges(conversationId: string, path: string, call: CallOptions & {ref?: string} = {}): Promise<ChangeList> {
		return gitChanges(this.#calls, conversationId, path, call);
	}

	async gitDiff(conversationId: string, path: string, call: CallOptions & {ref?: string} = {}): Promise<GitDiff> {
		return gitDiff(this.#calls, conversationId, path, call);
	}

	async downloadConversation(conversationId: string, call: CallOptions = {}): Promise<AsyncIterable<Uint8Array> | null> {
		return downloadConversation(this.#calls, conversationId, call);
	}

	async deleteConversation(id: string, call: CallOptions = {}): Promise<{success: boolean}> {
		return deleteConversation(this.#calls, id, call);
	}

	// ---- sandboxes and sandbox specs (app-sandboxes.ts) --------------------------------------

	async *searchSandboxPages(params: PageParams = {}): AsyncGenerator<Page<Sandbox>> {
		yield* this.#sandboxes.pages({limit: params.limit}, params);
	}

	/** Every sandbox of every page, once each. */
	async *searchSandboxes(params: PageParams = {}): AsyncGenerator<Sandbox> {
		yield* this.#sandboxes.each({limit: params.limit}, params);
	}

	async listSandboxes(params: PageParams = {}): Promise<Sandbox[]> {
		return this.#sandboxes.all({limit: params.limit}, params);
	}

	/** Aligned with `ids`, null for unknown ones. The query parameter is `id`, singular and repeated. */
	async getSandboxes(ids: readonly string[], call: CallOptions = {}): Promise<Array<Sandbox | null>> {
		return this.#sandboxes.get(ids, call);
	}

	async startSandbox(specId?: string, call: CallOptions = {}): Promise<Sandbox> {
		return startSandbox(this.#calls, specId, call);
	}

	/** Returns as soon as the service accepts; the status changes later (poll getSandboxes). */
	async pauseSandbox(id: string, call: CallOptions = {}): Promise<{success: boolean}> {
		return sandboxAction(this.#calls, id, 'pause', call);
	}

	/** Can pause the oldest other running sandbox, when the account is at its cap. */
	async resumeSandbox(id: string, call: CallOptions = {}): Promise<{success: boolean}> {
		return sandboxAction(this.#calls, id, 'resume', call);
	}

	async deleteSandbox(id: string, call: CallOptions = {}): Promise<{success: boolean}> {
		return deleteSandbox(this.#calls, id, call);
	}

	async *searchSandboxSpecPages(params: PageParams = {}): AsyncGenerator<Page<SandboxSpec>> {
		yield* this.#specs.pages({limit: params.limit}, params);
	}

	async *searchSandboxSpecs(params: PageParams = {}): AsyncGenerator<SandboxSpec> {
		yield* this.#specs.each({limit: params.limit}, params);
	}

	async listSandboxSpecs(params: PageParams = {}): Promise<SandboxSpec[]> {
		return this.#specs.all({limit: params.limit}, params);
	}

	async getSandboxSpecs(ids: readonly string[], call: CallOptions = {}): Promise<Array<SandboxSpec | null>> {
		return this.#specs.get(ids, call);
	}

	/**
	 * Aborts every call still in flight and refuses new ones. The connection pool belongs to the
	 * server's transport, which its owner closes (the agent servers' clients share it).
	 */
	async close(): Promise<void> {
		this.#calls.scope.close();
	}
}

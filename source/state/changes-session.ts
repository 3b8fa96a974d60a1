import {computeFileDiff, type FileDiff} from '../format/file-diff.js';
import {agentBaseUrl, hasAgentServer} from '../wire/agent-base-url.js';
import {GitClient} from '../wire/git-client.js';
import {diffPathFor, repoDirFor, workspaceRoot} from '../wire/git-paths.js';
import type {AppConversation} from '../wire/schemas/app.js';
import type {GitChangeStatus} from '../wire/schemas/git.js';
import {publicMessage} from './redact.js';

/**
 * The Changes view's data for one conversation: the list of files its agent changed (one request
 * when opened) and, for each file the user opens, its two texts (one request per file, never one
 * per file up front) turned into display rows by format/file-diff.ts. A file's diff is computed
 * once and kept until `refresh()`. A conversation whose sandbox is not RUNNING gets no request at
 * all: the view says so and offers the resume key; nothing here resumes anything.
 */

export type FileDiffState =
	| {state: 'idle'}
	| {state: 'loading'}
	| {state: 'ready'; diff: FileDiff}
	| {state: 'error'; error: string};

export type ChangedFile = {status: GitChangeStatus; path: string; diff: FileDiffState};

export type ChangesState = 'loading' | 'ready' | 'no-repository' | 'not-running' | 'error';

export type ChangesSnapshot = {
	conversationKey: string;
	repoDir: string;
	state: ChangesState;
	/** The sandbox status while `not-running`. */
	sandboxStatus: string | null;
	files: readonly ChangedFile[];
	error: string | null;
	/** Entries of the server's list that could not be read (left out). */
	invalid: number;
	/** Requests sent so far: the list, then one per file opened. */
	requests: number;
};

export type GitSource = Pick<GitClient, 'changes' | 'diff'>;

export type ChangesSessionOptions = {
	conversationKey: string;
	/** The newest polled row: its agent server URL and session key change when the sandbox resumes. */
	conversation(): AppConversation | undefined;
	appBaseUrl: string;
	secrets: readonly string[];
	/** Tests and the bench may pass their own client. */
	client?: (conversation: AppConversation, appBaseUrl: string) => GitSource;
};

function defaultClient(conversation: AppConversation, appBaseUrl: string): GitSource {
	return new GitClient({baseUrl: agentBaseUrl(conversation.conversation_url!, appBaseUrl), sessionApiKey: conversation.session_api_key ?? null, maxRetries: 1});
}

export class ChangesSession {
	readonly #options: ChangesSessionOptions;
	readonly #listeners = new Set<() => void>();
	#snapshot: ChangesSnapshot;
	#client: GitSource | null = null;
	#abort = new AbortController();
	#closed = false;

	constructor(options: ChangesSessionOptions) {
		this.#options = options;
		const conversation = options.conversation();
		this.#snapshot = {
			conversationKey: options.conversationKey,
			repoDir: repoDirFor(conversation?.selected_repository),
			state: 'loading',
			sandboxStatus: null,
			files: [],
			error: null,
			invalid: 0,
			requests: 0,
		};
	}

	subscribe = (listener: () => void): (() => void) => {
		this.#listeners.add(listener);
		return () => this.#listeners.delete(listener);
	};

	getSnapshot = (): ChangesSnapshot => this.#snapshot;

	/** Reads the list (again): every cached diff is dropped. */
	refresh(): Promise<void> {
		this.#abort.abort();
		this.#abort = new AbortController();
		this.#client = null;
		return this.#load(this.#abort.signal);
	}

	/** Fetches and diffs one file unless it is cached (or on its way). */
	async openFile(index: number): Promise<void> {
		const file = this.#snapshot.files[index];
		const client = this.#client;
		if (!file || !client || file.diff.state === 'ready' || file.diff.state === 'loading') return;
		const signal = this.#abort.signal;
		this.#setFile(index, {state: 'loading'});
		this.#update({requests: this.#snapshot.requests + 1});
		try {
			const texts = await client.diff(diffPathFor(this.#snapshot.repoDir, file.path), {signal});
			if (signal.aborted || this.#closed) return;
			this.#setFile(index, {state: 'ready', diff: computeFileDiff(texts.original, texts.modified)});
		} catch (error) {
			if (signal.aborted || this.#closed) return;
			this.#setFile(index, {state: 'error', error: publicMessage(error, this.#options.secrets)});
		}
	}

	close(): void {
		this.#closed = true;
		this.#abort.abort();
		this.#listeners.clear();
	}

	async #load(signal: AbortSignal): Promise<void> {
		const conversation = this.#options.conversation();
		const repoDir = repoDirFor(conversation?.selected_repository);
		if (!conversation) {
			this.#update({state: 'error', repoDir, files: [], error: 'that conversation is not in the list (yet)'});
			return;
		}
		const sandboxStatus = conversation.sandbox_status ?? 'MISSING';
		if (!hasAgentServer(conversation)) {
			this.#update({state: 'not-running', repoDir, sandboxStatus, files: [], error: null});
			return;
		}
		this.#update({state: 'loading', repoDir, sandboxStatus: null, error: null});
		const client = (this.#options.client ?? defaultClient)(conversation, this.#options.appBaseUrl);
		this.#update({requests: this.#snapshot.requests + 1});
		try {
			const list = await client.changes(repoDir, {signal});
			if (signal.aborted || this.#closed) return;
			this.#client = client;
			const files = list.changes.map((change): ChangedFile => ({status: change.status, path: change.path, diff: {state: 'idle'}}));
			const state: ChangesState = files.length === 0 && repoDir === workspaceRoot ? 'no-repository' : 'ready';
			this.#update({state, files, invalid: list.invalid.length});
		} catch (error) {
			if (signal.aborted || this.#closed) return;
			this.#update({state: 'error', files: [], error: publicMessage(error, this.#options.secrets)});
		}
	}

	#setFile(index: number, diff: FileDiffState): void {
		const files = this.#snapshot.files.slice();
		const file = files[index];
		if (!file) return;
		files[index] = {...file, diff};
		this.#update({files});
	}

	#update(patch: Partial<ChangesSnapshot>): void {
		if (this.#closed) return;
		this.#snapshot = {...this.#snapshot, ...patch};
		for (const listener of this.#listeners) listener();
	}
}

/** The controller's `openChanges`: a session for one conversation, loading its list at once. */
export function createChangesOpener(options: Omit<ChangesSessionOptions, 'conversationKey' | 'conversation'> & {conversation(key: string): AppConversation | undefined}) {
	return {
		openChanges(conversationKey: string): ChangesSession {
			const session = new ChangesSession({...options, conversationKey, conversation: () => options.conversation(conversationKey)});
			void session.refresh();
			return session;
		},
	};
}

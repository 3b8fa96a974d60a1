import {computeFileDiff, type FileDiff} from '../format/file-diff.js';
import {gitPatch, type PatchFile} from '../format/git-patch.js';
import {agentBaseUrl, hasAgentServer} from '../wire/agent-base-url.js';
import {AgentClient} from '../wire/agent-client.js';
import {agentWorkingDir} from '../wire/agent-workspace.js';
import {ConversationGit, findRepository, type GitProxy, type GitRoute} from '../wire/conversation-git.js';
import {GitClient} from '../wire/git-client.js';
import {diffPathFor, repoDirCandidates, type WorkspaceFacts} from '../wire/git-paths.js';
import type {AppConversation} from '../wire/schemas/app.js';
import type {GitChangeStatus} from '../wire/schemas/git.js';
import {publicMessage} from './redact.js';

/**
 * The Changes view's data for one conversation: the list of files its agent changed and, for each
 * file the user opens, its two texts (one request per file, never one per file up front) turned
 * into display rows by format/file-diff.ts. A file's diff is computed once and kept until
 * `refresh()`. The repository is found where the agent server says the conversation works, then as
 * the web UI finds it (git-paths.ts: the sandbox's or its spec's working directory, grouped or
 * not, then the repository's name; a request per place tried until one has changes, a git error
 * about one folder moving on to the next), read through the app server's proxy and, where it has none, the agent
 * server (conversation-git.ts). A conversation whose sandbox is not RUNNING gets no request at
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
	/** Requests sent so far: the list (one per place looked), then one per file opened. */
	requests: number;
	/** Which server answered: the app server's proxy or the agent server (null until one has). */
	route?: GitRoute | null;
	/** The directories looked in before `repoDir` (each answered no changes). */
	looked?: readonly string[];
};

export type GitSource = Pick<GitClient, 'changes' | 'diff'>;

export type ChangesSessionOptions = {
	conversationKey: string;
	/** The newest polled row: its agent server URL and session key change when the sandbox resumes. */
	conversation(): AppConversation | undefined;
	appBaseUrl: string;
	secrets: readonly string[];
	/** The app server's git proxy (AppClient): read with the bearer key; without it, the agent server alone. */
	app?: GitProxy | null;
	/** Where its workspace is: the sandbox's and its spec's working_dir, whether the sandbox is shared. */
	workspace?: (conversation: AppConversation) => Omit<WorkspaceFacts, 'conversationId' | 'selectedRepository'>;
	/** Its agent server's git routes (null when it has none reachable); default: a GitClient with the session key. */
	agentGit?: (conversation: AppConversation, appBaseUrl: string) => GitClient | null;
	/** Tests and the bench may pass their own client. */
	client?: (conversation: AppConversation, appBaseUrl: string) => GitSource;
	/** Where its agent server says it works (one request); default: `GET /api/conversations/{id}` with the session key, unless `client` is given. */
	agentWorkingDir?: (conversation: AppConversation, appBaseUrl: string, signal: AbortSignal) => Promise<string | null>;
};

function askAgentWorkingDir(conversation: AppConversation, appBaseUrl: string, signal: AbortSignal): Promise<string | null> {
	return agentWorkingDir(AgentClient.fromConversation(conversation, appBaseUrl, {maxRetries: 1}), signal);
}

export function agentGit(conversation: AppConversation, appBaseUrl: string): GitClient | null {
	if (!conversation.conversation_url) return null;
	return new GitClient({baseUrl: agentBaseUrl(conversation.conversation_url, appBaseUrl), sessionApiKey: conversation.session_api_key ?? null, maxRetries: 1});
}

function defaultClient(options: ChangesSessionOptions) {
	return (conversation: AppConversation, appBaseUrl: string): GitSource & {route?: GitRoute | null} =>
		new ConversationGit({conversationId: String(conversation.id), app: options.app ?? null, agent: () => (options.agentGit ?? agentGit)(conversation, appBaseUrl)});
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
			repoDir: this.#candidates(conversation)[0] ?? '',
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

	/**
	 * The patch of the files at `indices` (every file when none given), in git's format
	 * (format/git-patch.ts: `git apply` on the originals gives the modified files): their two texts
	 * read again, one request each, for `y` (copy) and the pager. Throws what the first failed read did.
	 */
	async patch(indices?: readonly number[]): Promise<string> {
		const client = this.#client;
		if (!client) throw new Error(this.#snapshot.state === 'not-running' ? 'the sandbox is not running' : 'the changed files are not read yet');
		const files = (indices ?? this.#snapshot.files.map((_, index) => index)).map((index) => this.#snapshot.files[index]).filter((file) => file !== undefined);
		const signal = this.#abort.signal;
		const patched: PatchFile[] = [];
		for (const file of files) {
			this.#update({requests: this.#snapshot.requests + 1});
			const texts = await client.diff(diffPathFor(this.#snapshot.repoDir, file.path), {signal});
			patched.push({status: file.status, path: file.path, original: texts.original, modified: texts.modified});
		}
		return gitPatch(patched);
	}

	close(): void {
		this.#closed = true;
		this.#abort.abort();
		this.#listeners.clear();
	}

	/** The repository directories to try for this conversation, most likely first. */
	#candidates(conversation: AppConversation | undefined, agentDir: string | null = null): string[] {
		if (!conversation) return [];
		return repoDirCandidates({conversationId: String(conversation.id), selectedRepository: conversation.selected_repository, ...this.#options.workspace?.(conversation), agentWorkingDir: agentDir});
	}

	async #load(signal: AbortSignal): Promise<void> {
		const conversation = this.#options.conversation();
		const repoDir = this.#candidates(conversation)[0] ?? '';
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
		const client = (this.#options.client ?? defaultClient(this.#options))(conversation, this.#options.appBaseUrl);
		try {
			const lookup = this.#options.agentWorkingDir ?? (this.#options.client ? null : askAgentWorkingDir);
			const agentDir = lookup ? await lookup(conversation, this.#options.appBaseUrl, signal) : null;
			if (lookup) this.#update({requests: this.#snapshot.requests + 1});
			if (signal.aborted || this.#closed) return;
			const found = await findRepository(client, this.#candidates(conversation, agentDir), {signal});
			this.#update({requests: this.#snapshot.requests + found.tried.length});
			if (signal.aborted || this.#closed) return;
			this.#client = client;
			const files = found.list.changes.map((change): ChangedFile => ({status: change.status, path: change.path, diff: {state: 'idle'}}));
			// No folder answered with a list (each a git error), or none with a repository's changes and none was chosen.
			const state: ChangesState = !found.answered || (files.length === 0 && !conversation.selected_repository) ? 'no-repository' : 'ready';
			const route = (client as {route?: GitRoute | null}).route ?? null;
			this.#update({state, repoDir: found.repoDir, files, invalid: found.list.invalid.length, route, looked: found.tried.filter((dir) => dir !== found.repoDir)});
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

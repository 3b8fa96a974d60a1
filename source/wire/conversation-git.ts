import {ApiError, NotApiError, NotFoundError, RequestRefusedError, ServerError, wrapsRefusal} from './errors.js';
import type {ChangeList, GitClient} from './git-client.js';
import type {GitDiff} from './schemas/git.js';

/**
 * A conversation's git changes, read the way that needs the least: through the app server's proxy
 * (`/api/v1/app-conversations/{id}/git/…`, the bearer key alone; app_server
 * app_conversation_router.py, 2026-06), and from the conversation's agent server with its session
 * key where the app server has no proxy (an older one: a bare 404, a 405, or the hosted web page)
 * or the proxy could not reach the agent server (502 without the agent server's status). What the
 * proxy refuses in words stays refused: 409 while the sandbox is paused, 404 "not reachable" when
 * it is not running, and a 502 that carries the agent server's own answer (`Agent server error:
 * 400`): the agent server answered, and asking it directly would get the same. Once the
 * proxy is known to be missing, the agent server is asked directly for the rest of this reader's life.
 */

export type GitReader = {
	changes(repoDir: string, options?: {signal?: AbortSignal}): Promise<ChangeList>;
	diff(filePath: string, options?: {signal?: AbortSignal}): Promise<GitDiff>;
};

export type GitProxy = {
	gitChanges(conversationId: string, path: string, call?: {signal?: AbortSignal}): Promise<ChangeList>;
	gitDiff(conversationId: string, path: string, call?: {signal?: AbortSignal}): Promise<GitDiff>;
};

export type GitRoute = 'app-server' | 'agent-server';

export class ConversationGit implements GitReader {
	readonly #conversationId: string;
	readonly #app: GitProxy | null;
	readonly #agent: () => GitReader | null;
	#route: GitRoute | null = null;
	#proxyMissing = false;
	#agentReader: GitReader | null = null;

	constructor(options: {conversationId: string; app: GitProxy | null; agent: () => GitClient | GitReader | null}) {
		this.#conversationId = options.conversationId;
		this.#app = options.app;
		this.#agent = options.agent;
	}

	/** Which server answered last (null until one has). */
	get route(): GitRoute | null {
		return this.#route;
	}

	changes(repoDir: string, options: {signal?: AbortSignal} = {}): Promise<ChangeList> {
		return this.#read(
			(app) => app.gitChanges(this.#conversationId, repoDir, options),
			(agent) => agent.changes(repoDir, options),
		);
	}

	diff(filePath: string, options: {signal?: AbortSignal} = {}): Promise<GitDiff> {
		return this.#read(
			(app) => app.gitDiff(this.#conversationId, filePath, options),
			(agent) => agent.diff(filePath, options),
		);
	}

	async #read<T>(viaApp: (app: GitProxy) => Promise<T>, viaAgent: (agent: GitReader) => Promise<T>): Promise<T> {
		let proxyError: unknown = null;
		if (this.#app && !this.#proxyMissing) {
			try {
				const result = await viaApp(this.#app);
				this.#route = 'app-server';
				return result;
			} catch (error) {
				if (proxyMissing(error)) this.#proxyMissing = true;
				else if (!agentUnreachableByProxy(error)) throw error;
				proxyError = error;
			}
		}
		// One client for the reader's life: it learns the agent server's route form once.
		this.#agentReader ??= this.#agent();
		const agent = this.#agentReader;
		if (!agent) {
			if (proxyError) throw proxyError;
			throw new ApiError('its agent server cannot be reached (its sandbox is not running), and there is no other way to read its files');
		}
		const result = await viaAgent(agent);
		this.#route = 'agent-server';
		return result;
	}
}

/** An app server without the proxy: FastAPI's bare 404, a 405, or the hosted web page for a path it does not know. */
function proxyMissing(error: unknown): boolean {
	return (error instanceof NotFoundError && error.bare) || error instanceof NotApiError || (error instanceof ApiError && error.status === 405);
}

/** The proxy could not reach the agent server (a 502 without the agent server's status): the client may, directly. */
function agentUnreachableByProxy(error: unknown): boolean {
	return error instanceof ServerError && error.status === 502 && error.upstreamStatus === undefined;
}

/**
 * An answer about that one folder, not about the conversation: a git error (400, e.g. `fatal:
 * cannot change to '<dir>': No such file or directory`; SDK git_router.py turns every GitError
 * but "not a repository" into a 400), or the proxy's 502 carrying such a 4xx. The next folder
 * may well answer; anything else (paused, not reachable, a key refused, a failing server, the
 * network) would answer every folder the same, and ends the search with its words.
 */
export function folderError(error: unknown): boolean {
	return (error instanceof RequestRefusedError && error.status === 400) || wrapsRefusal(error);
}

export type FoundRepository = {
	repoDir: string;
	list: ChangeList;
	/** Every folder asked, in order. */
	tried: readonly string[];
	/** Whether any folder answered with a list (false: every one was a git error, so there is no repository to read). */
	answered: boolean;
	/** The folders that answered with a git error, and its words. */
	failed: ReadonlyArray<{repoDir: string; error: string}>;
};

/**
 * The repository among `candidates` (git-paths.ts repoDirCandidates): the first directory whose
 * changes list is not empty, since a wrong path answers `[]` or a git error rather than "not
 * here". An error about one folder moves on to the next. With no changes anywhere, the first
 * folder that answered, empty. One request per directory tried.
 */
export async function findRepository(git: GitReader, candidates: readonly string[], options: {signal?: AbortSignal} = {}): Promise<FoundRepository> {
	const tried: string[] = [];
	const failed: Array<{repoDir: string; error: string}> = [];
	let first: {repoDir: string; list: ChangeList} | null = null;
	for (const repoDir of candidates) {
		tried.push(repoDir);
		let list: ChangeList;
		try {
			list = await git.changes(repoDir, options);
		} catch (error) {
			if (options.signal?.aborted || !folderError(error)) throw error;
			failed.push({repoDir, error: (error as Error).message});
			continue;
		}
		first ??= {repoDir, list};
		if (list.changes.length > 0 || list.invalid.length > 0) return {repoDir, list, tried, answered: true, failed};
	}
	return {repoDir: first?.repoDir ?? candidates[0] ?? '', list: first?.list ?? {changes: [], invalid: []}, tried, answered: first !== null, failed};
}

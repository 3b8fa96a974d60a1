import {NotFoundError, ProtocolError, RequestRefusedError} from './errors.js';
import type {HttpClient} from './http.js';
import {describeIssues, type InvalidItem, parseEach} from './schemas/common.js';
import {type GitChange, gitChangeSchema, type GitDiff, gitDiffSchema} from './schemas/git.js';
import type {Secret} from './secret.js';
import {type SessionHttpOptions, sessionHttpClient} from './session-http.js';

/**
 * A sandbox's git endpoints on its agent server (docs/service-behaviour.md §3.1), with the session key:
 * the files changed under a directory, and the original and modified text of one file. Newer
 * servers take the path as a query (`/api/git/changes?path=`), older ones in the URL
 * (`/api/git/changes/<url-encoded path>`); the query form is tried first and a 404 or 405 falls
 * back to the path form, which is then used for the rest of this client's life.
 */

export type GitRouteForm = 'query' | 'path';

export type GitClientOptions = SessionHttpOptions & {
	baseUrl: string;
	sessionApiKey: Secret | null;
	/** Start with this form (a caller that already learnt it); default: query, then path. */
	routeForm?: GitRouteForm;
};

export type ChangeList = {changes: GitChange[]; invalid: InvalidItem[]};

export class GitClient {
	readonly baseUrl: string;
	readonly #http: HttpClient;
	#form: GitRouteForm | null;

	constructor(options: GitClientOptions) {
		this.baseUrl = options.baseUrl.replace(/\/+$/, '');
		this.#form = options.routeForm ?? null;
		this.#http = sessionHttpClient(this.baseUrl, options.sessionApiKey, options);
	}

	/** The route form that answered last (null until one has). */
	get routeForm(): GitRouteForm | null {
		return this.#form;
	}

	/** The files changed in the git repository at `repoDir`; `[]` when it is not a repository. */
	async changes(repoDir: string, options: {signal?: AbortSignal} = {}): Promise<ChangeList> {
		return parseChanges(await this.#get('changes', repoDir, options.signal), '/api/git/changes', 'the agent server');
	}

	/** The whole original and modified text of one file (`<repo dir>/<relative path>`). */
	async diff(filePath: string, options: {signal?: AbortSignal} = {}): Promise<GitDiff> {
		return parseDiff(await this.#get('diff', filePath, options.signal), '/api/git/diff', 'the agent server');
	}

	async #get(what: 'changes' | 'diff', path: string, signal: AbortSignal | undefined): Promise<unknown> {
		const query = () => this.#http.json({path: `/api/git/${what}`, query: {path}, signal});
		const inPath = () => this.#http.json({path: `/api/git/${what}/${encodeURIComponent(path)}`, signal});
		if (this.#form === 'path') return inPath();
		try {
			const raw = await query();
			this.#form = 'query';
			return raw;
		} catch (error) {
			if (this.#form === 'query' || !routeMissing(error)) throw error;
		}
		const raw = await inPath();
		this.#form = 'path';
		return raw;
	}

}

/** A changes answer, item by item: `[{status, path}]`; anything but an array is a ProtocolError. */
export function parseChanges(raw: unknown, where: string, from: string): ChangeList {
	const {items, invalid} = parseEach(gitChangeSchema, raw);
	if (invalid.some((item) => item.index === -1)) throw new ProtocolError(`${where}: unexpected answer from ${from}: expected a JSON array`, 200, where);
	return {changes: items.map((item) => ({status: item.status, path: item.path})), invalid};
}

/** A diff answer: `{original, modified}`, each text or null. */
export function parseDiff(raw: unknown, where: string, from: string): GitDiff {
	const result = gitDiffSchema.safeParse(raw ?? {});
	if (!result.success) throw new ProtocolError(`${where}: unexpected answer from ${from}: ${describeIssues(result.error)}`, 200, where);
	return {original: result.data.original, modified: result.data.modified};
}

/** An older server has no query route: FastAPI answers 404, or 405 when another method matches. */
function routeMissing(error: unknown): boolean {
	return error instanceof NotFoundError || (error instanceof RequestRefusedError && error.status === 405);
}

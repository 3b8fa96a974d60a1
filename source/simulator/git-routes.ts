import {HttpError, notFound} from './http-util.js';
import type {RouteContext, Router} from './router.js';
import {type Workspace, workspaceFor} from './git-workspace.js';
import {folderExists, repoDirOf} from './workspace-layout.js';
import type {SimSandbox} from './world-types.js';
import type {World} from './world.js';

/**
 * The agent server's git endpoints (docs/service-behaviour.md §3.1) for the repositories of one sandbox's
 * conversations: the query form of newer servers (`/api/git/changes?path=`) and the path form of
 * older ones (`/api/git/changes/<url-encoded path>`). The `gitQueryRoutes` fault switch turns the
 * query form off (it then answers 404, like an older server) so a client's fallback can be tested.
 */

const prefix = '/runtime/:n/api/git';

/**
 * The workspaces of the conversations this sandbox serves (a sandbox may hold several), each where
 * the service lays it out: `{working_dir}[/{conversation hex}]/{repo}` (workspace-layout.ts).
 */
export function sandboxWorkspaces(world: World, sandbox: SimSandbox | null): Workspace[] {
	const found: Workspace[] = [];
	for (const id of sandbox?.conversationIds ?? []) {
		const conversation = world.findConversation(id);
		const base = conversation && workspaceFor(conversation.repository)?.files;
		if (!conversation || !base) continue;
		const written = world.writtenFiles(conversation.id);
		const files = written.length === 0 ? base : [...base.filter((file) => !written.some((other) => other.path === file.path)), ...written];
		const repoDir = repoDirOf(world, conversation);
		if (!found.some((known) => known.repoDir === repoDir)) found.push({repoDir, files});
	}
	return found;
}

function checkedPath(path: string | null | undefined): string {
	if (!path) throw new HttpError(422, {detail: [{type: 'missing', loc: ['query', 'path'], msg: 'Field required', input: null}]});
	// What `git -C <path>` refuses, in the server's words: a 400 with a detail.
	if (!path.startsWith('/') || path.split('/').includes('..')) throw new HttpError(400, {detail: `git error: cannot use path ${JSON.stringify(path)}: not an absolute path inside the sandbox`});
	return path.replace(/\/+$/, '') || '/';
}

/**
 * The files changed in the repository at `path` of a sandbox; `[]` for a folder that is not a
 * git repository (SDK openhands-agent-server git_router.py `_get_git_changes` answers `[]` for
 * GitRepositoryError). A folder that does not exist is a GitRepositoryError too in the SDK
 * (openhands-sdk git/utils.py `validate_git_repository`: `Directory does not exist`), so `[]`;
 * with `gitMissingFolder: 'error'` it is the git error the hosted service was seen to answer:
 * 400 `fatal: cannot change to '<dir>': No such file or directory` (git_router.py: any other
 * GitError is a 400 with its words).
 */
export function gitChanges(world: World, sandbox: SimSandbox | null, path: string | null | undefined) {
	const dir = checkedPath(path);
	const workspace = sandboxWorkspaces(world, sandbox).find((candidate) => candidate.repoDir === dir);
	if (workspace) return workspace.files.map((file) => ({status: file.status, path: file.path}));
	if (world.gitMissingFolder === 'error' && !folderExists(world, sandbox, dir)) throw new HttpError(400, {detail: `fatal: cannot change to '${dir}': No such file or directory`});
	return [];
}

/** One file's original and modified text; both null for a file no repository of the sandbox changed. */
export function gitDiff(world: World, sandbox: SimSandbox | null, path: string | null | undefined) {
	const filePath = checkedPath(path);
	for (const workspace of sandboxWorkspaces(world, sandbox)) {
		if (!filePath.startsWith(`${workspace.repoDir}/`)) continue;
		const relative = filePath.slice(workspace.repoDir.length + 1);
		const file = workspace.files.find((candidate) => candidate.path === relative);
		if (file) return {original: file.original, modified: file.modified};
	}
	return {original: null, modified: null};
}

const changes = (context: RouteContext, path: string | null | undefined) => gitChanges(context.world, context.sandbox, path);
const diff = (context: RouteContext, path: string | null | undefined) => gitDiff(context.world, context.sandbox, path);

export function registerGitRoutes(router: Router): void {
	const queryForm = (handler: (context: RouteContext, path: string | null) => unknown) => (context: RouteContext) => {
		if (!context.world.gitQueryRoutes) throw notFound();
		return handler(context, context.query.get('path'));
	};
	router.add('GET', `${prefix}/changes`, 'session', queryForm(changes));
	router.add('GET', `${prefix}/diff`, 'session', queryForm(diff));
	// The router has already decoded the one segment (`%2F` and all).
	router.add('GET', `${prefix}/changes/:path`, 'session', (context) => changes(context, context.params.path));
	router.add('GET', `${prefix}/diff/:path`, 'session', (context) => diff(context, context.params.path));
}

/**
 * Where a conversation's repository is in its sandbox. First where its agent server says the
 * conversation works (`GET /api/conversations/{id}` -> `workspace.working_dir`: the app server
 * starts it in `get_project_dir(working_dir, selected_repository)`, the repository folder itself,
 * live_status_app_conversation_service.py), then the layouts the web UI tries
 * (OpenHands frontend/src/utils/get-git-path.ts, 2026: the working directory, then
 * `/{conversation id}` when sandboxes group conversations, then the repository's name, the last
 * segment of `owner/name` or `group/sub/name`) and the app server lays it out (app_server
 * `get_project_dir` and `grouped_workspace_dir`, settings_models.py: `{working_dir}/{repo}`, or
 * `{working_dir}/{conversation hex}/{repo}` under any grouping strategy).
 *
 * The working directory is the sandbox's own (`SandboxInfo.working_dir`, hosted) or its spec's
 * (`SandboxSpecInfo.working_dir`, `/workspace/project` by default). Whether the account groups
 * conversations is a user setting the client cannot read, and a spec may name a folder the agent
 * does not use (`/home/openhands/workspace` while it works in `/workspace/project/<repo>`). A
 * wrong path answers `[]` (not a git repository, or a folder that does not exist: SDK
 * git_router.py, utils.py `validate_git_repository`) or, on some servers, a git error (400, or 502
 * `Agent server error: 400` through the app server's proxy): `repoDirCandidates` gives the places
 * in the order to try, and the first one with changes is the repository.
 */

export const workspaceRoot = '/workspace/project';

export type WorkspaceFacts = {
	/** The conversation's id (either spelling; the layout uses the 32-hex form). */
	conversationId: string;
	selectedRepository?: string | null;
	/** The sandbox's own `working_dir` (hosted service). */
	sandboxWorkingDir?: string | null;
	/** The sandbox spec's `working_dir`. */
	specWorkingDir?: string | null;
	/** Other conversations use the same sandbox: it groups them, so the grouped layout comes first. */
	sharedSandbox?: boolean;
	/** Where the agent server says the conversation works (`workspace.working_dir`): asked first. */
	agentWorkingDir?: string | null;
};

/** The repository's folder name: the last segment of `owner/name` (or `org/project/name`). */
export function repoName(selectedRepository: string | null | undefined): string | null {
	return selectedRepository?.trim().split('/').filter(Boolean).at(-1) ?? null;
}

/** The repository directory under the default working directory: `/workspace/project/<repo name>`, else `/workspace/project`. */
export function repoDirFor(selectedRepository: string | null | undefined): string {
	const name = repoName(selectedRepository);
	return name ? `${workspaceRoot}/${name}` : workspaceRoot;
}

/**
 * The repository directories to try, most likely first: the agent server's own working directory
 * (and the repository under it, should it be the parent), then `{working_dir}/{repo}` and
 * `{working_dir}/{hex}/{repo}` (the grouped one first on a shared sandbox), then the web UI's rule
 * (`/workspace/project/{repo}`, `/workspace/project`). Without a repository, the working
 * directory itself (a conversation started without one: `[]` unless it made one).
 */
export function repoDirCandidates(facts: WorkspaceFacts): string[] {
	const base = trimSlash(facts.sandboxWorkingDir?.trim() || facts.specWorkingDir?.trim() || workspaceRoot);
	const hex = facts.conversationId.trim().toLowerCase().replaceAll('-', '');
	const name = repoName(facts.selectedRepository);
	const under = (dir: string) => (name ? `${dir}/${name}` : dir);
	const agentDir = facts.agentWorkingDir?.trim().startsWith('/') ? trimSlash(facts.agentWorkingDir.trim()) : null;
	const agent = agentDir ? [agentDir, ...(name && !agentDir.endsWith(`/${name}`) ? [`${agentDir}/${name}`] : [])] : [];
	const plain = under(base);
	const grouped = under(`${base}/${hex}`);
	const order = facts.sharedSandbox ? [grouped, plain] : [plain, grouped];
	return [...new Set([...agent, ...order, repoDirFor(facts.selectedRepository), workspaceRoot])];
}

/** The path the diff endpoint takes for a file the changes list named (relative to the repo dir). */
export function diffPathFor(repoDir: string, relativePath: string): string {
	return `${trimSlash(repoDir)}/${relativePath.replace(/^\/+/, '')}`;
}

function trimSlash(path: string): string {
	return path.replace(/\/+$/, '') || '/';
}

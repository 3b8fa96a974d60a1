/**
 * Where a conversation's repository is in its sandbox, found the way the web UI finds it
 * (OpenHands frontend/src/utils/get-git-path.ts, 2026: the working directory, then
 * `/{conversation id}` when sandboxes group conversations, then the repository's name, the last
 * segment of `owner/name` or `group/sub/name`) and the app server lays it out (app_server
 * `get_project_dir` and `grouped_workspace_dir`, settings_models.py: `{working_dir}/{repo}`, or
 * `{working_dir}/{conversation hex}/{repo}` under any grouping strategy).
 *
 * The working directory is the sandbox's own (`SandboxInfo.working_dir`, hosted) or its spec's
 * (`SandboxSpecInfo.working_dir`, `/workspace/project` by default). Whether the account groups
 * conversations is a user setting the client cannot read, and a wrong path answers `[]`, not an
 * error: `repoDirCandidates` gives the layouts in the order to try (grouped first when other
 * conversations share the sandbox), and the first one with changes is the repository.
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
 * The repository directories to try, most likely first: `{working_dir}/{repo}` and
 * `{working_dir}/{hex}/{repo}` (the grouped one first on a shared sandbox), then the default
 * `/workspace/project/{repo}` when the working directory is another one. Without a repository,
 * the working directory itself (a conversation started without one: `[]` unless it made one).
 */
export function repoDirCandidates(facts: WorkspaceFacts): string[] {
	const base = trimSlash(facts.sandboxWorkingDir?.trim() || facts.specWorkingDir?.trim() || workspaceRoot);
	const hex = facts.conversationId.trim().toLowerCase().replaceAll('-', '');
	const name = repoName(facts.selectedRepository);
	const under = (dir: string) => (name ? `${dir}/${name}` : dir);
	const plain = under(base);
	const grouped = under(`${base}/${hex}`);
	const order = facts.sharedSandbox ? [grouped, plain] : [plain, grouped];
	return [...new Set([...order, repoDirFor(facts.selectedRepository)])];
}

/** The path the diff endpoint takes for a file the changes list named (relative to the repo dir). */
export function diffPathFor(repoDir: string, relativePath: string): string {
	return `${trimSlash(repoDir)}/${relativePath.replace(/^\/+/, '')}`;
}

function trimSlash(path: string): string {
	return path.replace(/\/+$/, '') || '/';
}

/**
 * Where a conversation's repository sits in its sandbox (docs/service-behaviour.md §3.1, the web UI's
 * get-git-path.ts): `/workspace/project/<repo name>` for a selected repository `owner/name`,
 * else `/workspace/project` itself.
 */

export const workspaceRoot = '/workspace/project';

export function repoDirFor(selectedRepository: string | null | undefined): string {
	const name = selectedRepository?.trim().split('/').filter(Boolean).at(-1);
	return name ? `${workspaceRoot}/${name}` : workspaceRoot;
}

/** The path the diff endpoint takes for a file the changes list named (relative to the repo dir). */
export function diffPathFor(repoDir: string, relativePath: string): string {
	return `${repoDir.replace(/\/+$/, '')}/${relativePath.replace(/^\/+/, '')}`;
}

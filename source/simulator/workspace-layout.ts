import type {SimConversation, SimSandbox} from './world-types.js';
import type {WorldAccess} from './world-access.js';

/**
 * Where each conversation works in its sandbox, as the service lays it out, and which folders
 * exist there (for the git routes' answers):
 * - the workspace is the sandbox's `working_dir` (hosted), else its spec's, then
 *   `/{conversation hex}` when the sandbox groups conversations (app_server settings_models.py
 *   `grouped_workspace_dir`);
 * - the agent may really work elsewhere than the folder the sandbox or spec names
 *   (`SimSandbox.agentWorkingDir`: a spec saying `/home/openhands/workspace` while the agent is
 *   in `/workspace/project`);
 * - the repository is `{workspace}/{repo name}`, and the conversation is started there
 *   (app_server `get_project_dir`, `LocalWorkspace(working_dir=project_dir)` in
 *   live_status_app_conversation_service.py): that folder is what the agent server's
 *   `GET /api/conversations/{id}` answers as `workspace.working_dir`.
 */

/** The folder the conversation's workspace is in (its repository's parent). */
export function workspaceDirOf(world: WorldAccess, conversation: SimConversation): string {
	const sandbox = world.findSandbox(conversation.sandboxId);
	const named = sandbox?.workingDir ?? (sandbox ? world.findSpec(sandbox.specId)?.workingDir : undefined);
	const base = (sandbox?.agentWorkingDir ?? named ?? '/workspace/project').replace(/\/+$/, '');
	return sandbox?.grouped ? `${base}/${conversation.id}` : base;
}

/** The conversation's repository folder, or its workspace without one: where its agent works. */
export function repoDirOf(world: WorldAccess, conversation: SimConversation): string {
	const name = conversation.repository?.split('/').filter(Boolean).at(-1);
	const dir = workspaceDirOf(world, conversation);
	return name ? `${dir}/${name}` : dir;
}

/** Whether a folder exists in the sandbox: one of its conversations' workspaces or repositories, or a folder above one. */
export function folderExists(world: WorldAccess, sandbox: SimSandbox | null, dir: string): boolean {
	if (dir === '/') return true;
	for (const id of sandbox?.conversationIds ?? []) {
		const conversation = world.findConversation(id);
		if (!conversation) continue;
		const repoDir = repoDirOf(world, conversation);
		if (repoDir === dir || repoDir.startsWith(`${dir}/`)) return true;
	}
	return false;
}

/**
 * A spec that names a folder its agents do not work in: the spec's `working_dir` says `named`
 * (the SDK's default `/home/openhands/workspace`) while every sandbox of it has its agent in
 * `real` (`/workspace/project`), as the service can be found.
 */
export function specNamesAnotherFolder(world: WorldAccess, specId: string, named: string, real: string): void {
	const spec = world.findSpec(specId);
	if (!spec) return;
	spec.workingDir = named;
	for (const sandbox of world.sandboxList()) if (sandbox.specId === specId) sandbox.agentWorkingDir = real;
}

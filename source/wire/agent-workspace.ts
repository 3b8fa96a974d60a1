import type {ConversationInfo} from './schemas/app.js';

/**
 * Where a conversation's agent works, in its agent server's own words: `GET
 * /api/conversations/{id}` -> `workspace.working_dir` (SDK openhands-agent-server models.py
 * `_ConversationInfoBase.workspace`, a BaseWorkspace). The app server starts the conversation in
 * the repository's folder (`get_project_dir`), so this is the first place to look for it, before
 * any layout the sandbox or its spec suggest. Null when the server cannot say (an error, no
 * such field): the other layouts are then all there is.
 */
export async function agentWorkingDir(client: {getInfo(options?: {signal?: AbortSignal}): Promise<ConversationInfo>}, signal?: AbortSignal): Promise<string | null> {
	try {
		const dir = (await client.getInfo({signal})).workspace?.working_dir?.trim();
		return dir?.startsWith('/') ? dir : null;
	} catch (error) {
		if (signal?.aborted) throw error;
		return null;
	}
}

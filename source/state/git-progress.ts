import type {AppConversation} from '../wire/schemas/app.js';
import {ConversationGit, findRepository, type GitProxy, type GitReader} from '../wire/conversation-git.js';
import type {ChangeList} from '../wire/git-client.js';
import {repoDirCandidates, type WorkspaceFacts} from '../wire/git-paths.js';

/**
 * The repository's changed files as one comparable text, for spending without progress
 * (spend-progress.ts `gitState`): `STATUS path` lines, sorted. Read the way the Changes view reads
 * them (the app server's git proxy, else the agent server), the repository found once per
 * conversation and then asked alone: one request a probe.
 */
export type GitStateOptions = {
	app: GitProxy | null;
	/** Where the workspace is, as the sandbox and spec lists say (dashboard-store #workspaceOf). */
	workspace(conversation: AppConversation): Omit<WorkspaceFacts, 'conversationId' | 'selectedRepository'>;
	/** Its agent server's git routes, or null when it has none reachable. */
	agentGit(conversation: AppConversation): GitReader | null;
};

export function gitStateReader(options: GitStateOptions): {read(conversation: AppConversation, signal: AbortSignal): Promise<string | null>; forget(key: string): void} {
	/** The repository directory found per conversation (only once it had changes: before, every candidate is worth asking). */
	const found = new Map<string, string>();
	return {
		async read(conversation, signal) {
			const key = String(conversation.id);
			const git = new ConversationGit({conversationId: key, app: options.app, agent: () => options.agentGit(conversation)});
			const known = found.get(key);
			if (known !== undefined) return fingerprint(await git.changes(known, {signal}));
			const candidates = repoDirCandidates({conversationId: key, selectedRepository: conversation.selected_repository, ...options.workspace(conversation)});
			if (candidates.length === 0) return null;
			const repository = await findRepository(git, candidates, {signal});
			if (repository.list.changes.length > 0) found.set(key, repository.repoDir);
			return fingerprint(repository.list);
		},
		forget(key) {
			found.delete(key);
		},
	};
}

/** `STATUS path` per changed file, sorted, one per line: equal when the same files are changed the same way. */
export function fingerprint(list: ChangeList): string {
	return list.changes
		.map((change) => `${change.status} ${change.path}`)
		.sort()
		.join('\n');
}

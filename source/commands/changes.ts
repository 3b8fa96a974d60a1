import {computeFileDiff} from '../format/file-diff.js';
import {gitPatch, gitStat, type PatchFile} from '../format/git-patch.js';
import {redactSecrets, replaceKnownSecrets} from '../format/redact.js';
import {sanitizeLine, sanitizeText} from '../format/sanitize.js';
import {AgentClient} from '../wire/agent-client.js';
import {agentWorkingDir} from '../wire/agent-workspace.js';
import {ConversationGit, findRepository, type FoundRepository, type GitReader} from '../wire/conversation-git.js';
import {GitClient} from '../wire/git-client.js';
import {diffPathFor, repoDirCandidates} from '../wire/git-paths.js';
import type {AppConversation} from '../wire/schemas/app.js';
import {type GitChange, statusLetter} from '../wire/schemas/git.js';
import {agentFor, findConversation} from './conversation-lookup.js';
import {UnavailableError, UsageError} from './exit-codes.js';
import type {CommandFlags} from './flags.js';
import {note, printLine, printText, type Io} from './io.js';
import {toJson} from './json-output.js';
import type {Server} from './server.js';

/**
 * `agent-tui changes <conversation-id> [--json | --patch | --stat]`: what the conversation's agent
 * changed in its repository (docs/service-behaviour.md §3.1), read through the app server's git
 * proxy with the bearer key, or from the agent server where the app server has none. The
 * repository is found where the agent server says the conversation works, then as the web UI
 * finds it (wire/git-paths.ts): the sandbox's or its spec's working directory, grouped by
 * conversation or not, then the repository's name; each place is asked in turn until one has
 * changes, and a git error about one folder (it does not exist) moves on to the next. Where none
 * is a repository: "no git repository in …", exit 0.
 * Without a flag, one `status<TAB>path` line per file (git's --name-status); `--json` the list as
 * the server gave it; `--stat` and `--patch` fetch each file's two texts (one request per file)
 * and print git's --stat, or a patch `git apply` takes onto the original files. The patch goes out
 * byte for byte when stdout is a file or a pipe, and sanitized when it is a terminal. A sandbox
 * that is not RUNNING is reported, never resumed.
 */
export async function runChanges(server: Server, io: Io, id: string, flags: CommandFlags): Promise<number> {
	const modes = (['json', 'patch', 'stat'] as const).filter((mode) => flags[mode]);
	if (modes.length > 1) throw new UsageError(`--${modes.join(', --')}: choose one`);
	const conversation = await findConversation(server, io, id);
	const git = gitFor(server, conversation);
	const candidates = repoDirCandidates({conversationId: conversation.id, selectedRepository: conversation.selected_repository, ...(await workspaceOf(server, conversation))});
	const found = await findRepository(git, candidates);
	// What each folder that is not there answered (a git error): for AGENT_TUI_DEBUG=1.
	if (io.debug) for (const failed of found.failed) note(io, `${failed.repoDir}: ${failed.error}`);
	const {repoDir} = found;
	const {changes, invalid} = found.list;
	if (invalid.length > 0) note(io, `${invalid.length} entr${invalid.length === 1 ? 'y' : 'ies'} of the server's list could not be read and are left out`);
	const empty = () => note(io, emptyReason(conversation, found));

	if (flags.json) {
		printLine(io, toJson(changes, io.secrets));
		if (changes.length === 0) empty();
		return 0;
	}
	if (changes.length === 0) {
		empty();
		return 0;
	}
	if (!flags.patch && !flags.stat) {
		// A tab between, as git's --name-status has it (printText would turn it into spaces).
		for (const change of changes) io.stdout.write(`${statusLetter(change.status)}\t${sanitizeLine(redactSecrets(change.path, io.secrets))}\n`);
		return 0;
	}
	const files = await fetchTexts(git, repoDir, changes);
	if (flags.stat) {
		const entries = files.map((file) => {
			const diff = computeFileDiff(file.original, file.modified);
			return {path: file.path, added: diff.added, removed: diff.removed};
		});
		const text = gitStat(entries, io.stdout.isTTY ? Math.min(io.stdout.columns ?? 80, 120) : 80);
		for (const line of text.trimEnd().split('\n')) printText(io, line);
		return 0;
	}
	writePatch(io, gitPatch(files));
	return 0;
}

function gitFor(server: Server, conversation: AppConversation): ConversationGit {
	if (conversation.sandbox_status !== 'RUNNING') {
		throw new UnavailableError(
			`conversation ${conversation.id}: its sandbox is ${conversation.sandbox_status ?? 'MISSING'}, so its files cannot be read; nothing was resumed` +
				(conversation.sandbox_status === 'PAUSED' && conversation.sandbox_id ? ` (resume it first: agent-tui resume ${conversation.sandbox_id})` : ''),
		);
	}
	const agent = () => {
		if (!conversation.conversation_url) return null;
		const client = agentFor(server, conversation);
		return new GitClient({baseUrl: client.baseUrl, sessionApiKey: client.sessionApiKey, ...(server.transport ? {transport: server.transport} : {})});
	};
	return new ConversationGit({conversationId: conversation.id, app: server.app, agent});
}

/**
 * Where the agent server says the conversation works, then the sandbox's and its spec's working
 * directories (three look-ups; a failed one leaves that place out).
 */
async function workspaceOf(server: Server, conversation: AppConversation): Promise<{agentWorkingDir: string | null; sandboxWorkingDir: string | null; specWorkingDir: string | null}> {
	const agent = conversation.conversation_url ? AgentClient.fromConversation(conversation, server.baseUrl, {maxRetries: 1, ...(server.transport ? {transport: server.transport} : {})}) : null;
	const agentDir = agent ? await agentWorkingDir(agent) : null;
	const sandbox = conversation.sandbox_id ? ((await server.app.getSandboxes([conversation.sandbox_id]).catch(() => []))[0] ?? null) : null;
	const spec = sandbox?.sandbox_spec_id ? ((await server.app.getSandboxSpecs([sandbox.sandbox_spec_id]).catch(() => []))[0] ?? null) : null;
	return {agentWorkingDir: agentDir, sandboxWorkingDir: sandbox?.working_dir ?? null, specWorkingDir: spec?.working_dir ?? null};
}

/** Where it looked: the folder it reports, then the others asked. Every folder a git error, or none a repository: no repository. */
function emptyReason(conversation: AppConversation, found: FoundRepository): string {
	const others = found.tried.filter((dir) => dir !== found.repoDir);
	const where = `${found.repoDir}${others.length > 0 ? ` (nor in ${others.join(', ')})` : ''}`;
	return conversation.selected_repository && found.answered ? `no changes in ${where}` : `no git repository in ${where}`;
}

/** Each file's two texts, a few requests at a time, in the list's order. */
async function fetchTexts(git: GitReader, repoDir: string, changes: readonly GitChange[]): Promise<PatchFile[]> {
	const files: PatchFile[] = new Array(changes.length);
	let next = 0;
	const worker = async () => {
		for (let index = next++; index < changes.length; index = next++) {
			const change = changes[index]!;
			const texts = await git.diff(diffPathFor(repoDir, change.path));
			files[index] = {status: change.status, path: change.path, original: texts.original, modified: texts.modified};
		}
	};
	await Promise.all(Array.from({length: Math.min(4, changes.length)}, worker));
	return files;
}

/**
 * To a file or pipe the patch goes out as the texts are (that is what `git apply` needs), but
 * for a known key, which is never printed. To a terminal every line is sanitized: a file holding
 * `ESC ] 0 ;` shows it as text instead of retitling the window.
 */
function writePatch(io: Io, patch: string): void {
	if (io.stdout.isTTY) {
		io.stdout.write(sanitizeText(redactSecrets(patch, io.secrets)));
		return;
	}
	const out = replaceKnownSecrets(patch, io.secrets.filter((secret) => secret.length >= 4));
	if (out !== patch) note(io, 'a key this run holds appears in the changed files; it is printed as [redacted], so the patch will not apply there');
	io.stdout.write(out);
}

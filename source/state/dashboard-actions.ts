import type {AppConversation} from '../wire/schemas/app.js';
import {budgetedGitProxy} from './budgeted-git.js';
import type {AgentClient} from '../wire/agent-client.js';
import {GitClient} from '../wire/git-client.js';
import {agentBaseUrl} from '../wire/agent-base-url.js';
import type {Transport} from '../wire/transport.js';
import {createConversationActions} from './conversation-actions.js';
import {createSandboxActions} from './sandbox-actions.js';
import {createSearchAcross} from './event-search.js';
import {createChangesOpener} from './changes-session.js';
import type {NoticeLevel} from './dashboard-notices.js';
import type {DashboardClient} from './dashboard-options.js';
import type {SandboxFacts} from './dashboard-sandboxes.js';
import type {RequestBudget} from './request-budget.js';
import type {Pace} from './stored-history.js';

/**
 * What the controller does to servers: pause and resume (sandbox-actions.ts, with the cap
 * question), the agent's actions (conversation-actions.ts), search across conversations
 * (event-search.ts) and Changes (changes-session.ts). Each acts on the rows' conversations and
 * the sandbox facts it is given; what it learns comes back through the poller.
 */

export type DashboardActionsOptions = {
	appBaseUrl: string;
	client: DashboardClient;
	budget: RequestBudget;
	secrets: readonly string[];
	now: () => number;
	actionTimeoutMs: number;
	sandboxes: SandboxFacts;
	conversation: (key: string) => AppConversation | undefined;
	agentClient: (conversation: AppConversation, appBaseUrl: string) => AgentClient;
	transported: () => {transport?: Transport};
	refresh: () => void;
	refreshSandboxes: () => void;
	notice: (text: string, level: NoticeLevel) => void;
	closed: () => boolean;
};

export function createDashboardActions(options: DashboardActionsOptions) {
	const {client, budget, secrets, sandboxes} = options;
	/** How the conversation actions and the search reach a conversation's agent server. */
	const agentReach = {
		appBaseUrl: options.appBaseUrl,
		client: options.agentClient,
		secrets,
		conversation: (key: string) => options.conversation(key),
	};
	return {
		...createSandboxActions({
			client,
			budget,
			secrets,
			now: options.now,
			actionTimeoutMs: options.actionTimeoutMs,
			rows: () => sandboxes.rows,
			setPending: (key, pending) => sandboxes.setPending(key, pending),
			setCapWatch: (watch) => sandboxes.setCapWatch(watch),
			runningCap: () => sandboxes.runningCap,
			updateWatch: () => sandboxes.updateWatch(),
			refreshSandboxes: () => options.refreshSandboxes(),
			notice: (text, level) => options.notice(text, level),
			closed: () => options.closed(),
		}),
		...createConversationActions({...agentReach, onAccepted: () => options.refresh()}),
		...createSearchAcross({
			...agentReach,
			// Stopped conversations through the stored copy, one request at a time each, under the shared budget.
			...(client.storedEvents
				? {stored: {client: client.storedEvents, pace: (key: string): Pace => (task) => budget.schedule(`search-stored:${key}`, task, 'visible')}}
				: {}),
		}),
		...createChangesOpener({
			appBaseUrl: options.appBaseUrl,
			secrets,
			conversation: (key) => options.conversation(key),
			// Through the app server's git proxy (the bearer key), the agent server where it has none.
			app: client.gitChanges && client.gitDiff ? budgetedGitProxy(client as Required<Pick<DashboardClient, 'gitChanges' | 'gitDiff'>>, budget, 'visible') : null,
			workspace: (conversation) => sandboxes.workspaceOf(conversation),
			agentGit: (conversation, appBaseUrl) =>
				conversation.conversation_url
					? new GitClient({baseUrl: agentBaseUrl(conversation.conversation_url, appBaseUrl), sessionApiKey: conversation.session_api_key ?? null, maxRetries: 1, ...options.transported()})
					: null,
		}),
	};
}

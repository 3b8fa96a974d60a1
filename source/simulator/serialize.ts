import {dashedId} from '../wire/ids.js';
import {utcIso} from './clock.js';
import {fullMetrics, metricsSnapshot} from './metrics.js';
import {withHostile} from './corpus/hostile.js';
import {omitNulls} from './event-factory.js';
import type {SimConversation, SimSandbox, SimSpec, SimStartTask} from './world-types.js';
import type {World} from './world.js';
import {repoDirOf} from './workspace-layout.js';

/**
 * JSON shapes as the real servers send them (docs/service-behaviour.md §1.1, §3). The app server keeps
 * null fields; the agent server omits them.
 */

function runtimeUrl(world: World, sandbox: SimSandbox): string {
	return `${world.baseUrl}/runtime/${sandbox.number}`;
}

export function appConversationJson(world: World, conversation: SimConversation): Record<string, unknown> {
	const sandbox = world.findSandbox(conversation.sandboxId);
	const running = sandbox?.status === 'RUNNING';
	// Only a running conversation needs its agent (for its status); listings stay cheap.
	if (running) world.agent(conversation);
	let executionStatus: string | null = running ? conversation.executionStatus : null;
	if (running && world.hostile && conversation.scenario === 'quiet') executionStatus = 'archived';
	return {
		id: conversation.id,
		created_by_user_id: conversation.createdByUserId,
		sandbox_id: conversation.sandboxId,
		selected_repository: conversation.repository,
		selected_branch: conversation.branch,
		title: world.hostile ? withHostile(conversation.title, conversation.id.charCodeAt(0)) : conversation.title,
		git_provider: conversation.gitProvider,
		trigger: conversation.trigger,
		pr_number: conversation.prNumber,
		llm_model: conversation.llmModel,
		agent_kind: 'openhands',
		metrics: metricsSnapshot(world.usage(conversation).metrics),
		parent_conversation_id: conversation.parentId,
		sub_conversation_ids: [...world.childrenOf(conversation)],
		public: conversation.publicShare,
		tags: conversation.tags,
		created_at: utcIso(conversation.createdAt),
		updated_at: utcIso(conversation.updatedAt),
		sandbox_status: sandbox?.status ?? 'MISSING',
		execution_status: executionStatus,
		conversation_url: running ? `${runtimeUrl(world, sandbox)}/api/conversations/${conversation.id}` : null,
		session_api_key: running ? sandbox.sessionApiKey : null,
	};
}

export function sandboxJson(world: World, sandbox: SimSandbox): Record<string, unknown> {
	const running = sandbox.status === 'RUNNING';
	return {
		id: sandbox.id,
		created_by_user_id: sandbox.createdByUserId,
		sandbox_spec_id: sandbox.specId,
		status: sandbox.status,
		// Why it is ERROR or still STARTING (2026-07); the hosted service adds its own working_dir.
		status_detail: sandbox.statusDetail,
		working_dir: sandbox.workingDir,
		// The hosted service returns the key whenever the runtime exists, even while paused.
		session_api_key: sandbox.status === 'MISSING' ? null : sandbox.sessionApiKey,
		exposed_urls: running
			? [
					{name: 'AGENT_SERVER', url: runtimeUrl(world, sandbox), port: 8000},
					// As the real one: the editor's URL carries a token and the folder to open.
					{name: 'VSCODE', url: `${runtimeUrl(world, sandbox)}/vscode/?tkn=${sandbox.sessionApiKey}&folder=%2Fworkspace%2Fproject`, port: 8001},
					{name: 'WORKER_1', url: `${runtimeUrl(world, sandbox)}/app-12000/`, port: 12000},
				]
			: null,
		created_at: utcIso(sandbox.createdAt),
	};
}

export function specJson(spec: SimSpec): Record<string, unknown> {
	return {
		id: spec.id,
		command: spec.command,
		created_at: utcIso(spec.createdAt),
		initial_env: spec.initialEnv,
		working_dir: spec.workingDir,
	};
}

export function startTaskJson(task: SimStartTask): Record<string, unknown> {
	return {
		id: task.id,
		created_by_user_id: task.createdByUserId,
		status: task.status,
		detail: task.detail,
		app_conversation_id: task.appConversationId,
		sandbox_id: task.sandboxId,
		agent_server_url: task.agentServerUrl,
		dependency_repos_cloned: [],
		request: task.request,
		created_at: utcIso(task.createdAt),
		updated_at: utcIso(task.updatedAt),
	};
}

/** The agent server's ConversationInfo (dashed id, full Metrics under stats). */
export function conversationInfoJson(world: World, conversation: SimConversation): Record<string, unknown> {
	const agent = world.agent(conversation);
	return omitNulls({
		id: dashedId(conversation.id),
		title: conversation.title,
		execution_status: conversation.executionStatus,
		metrics: metricsSnapshot(world.usage(conversation).metrics),
		stats: {usage_to_metrics: {agent: fullMetrics(world.usage(conversation).metrics)}},
		created_at: utcIso(conversation.createdAt),
		updated_at: utcIso(conversation.updatedAt),
		confirmation_policy: conversation.confirmationPolicy,
		max_iterations: 500,
		stuck_detection: true,
		tags: conversation.tags,
		// Where the app server started it (get_project_dir): its repository's folder, wherever the sandbox lays that out.
		workspace: {kind: 'LocalWorkspace', working_dir: repoDirOf(world, conversation)},
		agent: {kind: 'Agent', llm: {model: conversation.llmModel, usage_id: 'agent', api_key: '**********'}},
		activated_knowledge_skills: [],
		leaf_event_id: agent.log.events.at(-1)?.id,
	});
}

/** V0 row (manage_conversations.py): PAUSED shows as STOPPED, MISSING as ARCHIVED. */
export function v0ConversationJson(world: World, conversation: SimConversation): Record<string, unknown> {
	const sandbox = world.findSandbox(conversation.sandboxId);
	const status = sandbox?.status ?? 'MISSING';
	const app = appConversationJson(world, conversation);
	return {
		conversation_id: conversation.id,
		title: conversation.title,
		status: status === 'PAUSED' ? 'STOPPED' : status === 'MISSING' ? 'ARCHIVED' : status,
		runtime_status: status === 'RUNNING' ? 'STATUS$READY' : null,
		url: app.conversation_url,
		session_api_key: app.session_api_key,
		conversation_version: 'V1',
		created_at: utcIso(conversation.createdAt),
		last_updated_at: utcIso(conversation.updatedAt),
		selected_repository: conversation.repository,
		selected_branch: conversation.branch,
		git_provider: conversation.gitProvider,
		trigger: conversation.trigger,
		pr_number: conversation.prNumber,
		sub_conversation_ids: [...world.childrenOf(conversation)],
	};
}

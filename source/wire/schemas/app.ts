import {z} from 'zod';
import {executionStatuses, sandboxStatuses, startTaskStatuses} from '../statuses.js';
import {SecretLink} from '../secret.js';
import {idString, openEnum, optionalString, secretString} from './common.js';

/**
 * App server (V1) resources, as the real server sends them (docs/service-behaviour.md §1.1). Objects are
 * loose: fields added by newer servers are kept, fields a server leaves out are optional.
 */

export const tokenUsageSchema = z.looseObject({
	model: optionalString,
	prompt_tokens: z.number().nullish(),
	completion_tokens: z.number().nullish(),
	cache_read_tokens: z.number().nullish(),
	cache_write_tokens: z.number().nullish(),
	reasoning_tokens: z.number().nullish(),
	context_window: z.number().nullish(),
	per_turn_token: z.number().nullish(),
	response_id: optionalString,
});

export const metricsSnapshotSchema = z.looseObject({
	model_name: optionalString,
	accumulated_cost: z.number().nullish(),
	max_budget_per_task: z.number().nullish(),
	accumulated_token_usage: tokenUsageSchema.nullish(),
});
export type MetricsSnapshot = z.infer<typeof metricsSnapshotSchema>;

export const appConversationSchema = z.looseObject({
	id: idString,
	created_by_user_id: optionalString,
	sandbox_id: optionalString,
	selected_repository: optionalString,
	selected_branch: optionalString,
	title: optionalString,
	git_provider: optionalString,
	trigger: optionalString,
	pr_number: z.array(z.number()).nullish(),
	llm_model: optionalString,
	agent_kind: optionalString,
	metrics: metricsSnapshotSchema.nullish(),
	/**
	 * Set on a sub-conversation (a planning agent, a `task` or `delegate` sub-agent). The search
	 * leaves these out unless asked with `include_sub_conversations=true`.
	 */
	parent_conversation_id: optionalString,
	/** A parent's children (hex ids). */
	sub_conversation_ids: z.array(z.string()).nullish(),
	public: z.boolean().nullish(),
	tags: z.record(z.string(), z.unknown()).nullish(),
	created_at: optionalString,
	updated_at: optionalString,
	// The real server defaults a missing sandbox to MISSING.
	sandbox_status: openEnum(sandboxStatuses).nullish().transform((value) => value ?? 'MISSING'),
	// Null unless the sandbox is RUNNING and its agent server answered.
	execution_status: openEnum(executionStatuses).nullish(),
	conversation_url: optionalString,
	session_api_key: secretString,
});
export type AppConversation = z.infer<typeof appConversationSchema>;

export const startTaskSchema = z.looseObject({
	id: idString,
	created_by_user_id: optionalString,
	status: openEnum(startTaskStatuses),
	// The seed names the failure text `error`; the real server calls it `detail`.
	detail: optionalString,
	error: optionalString,
	app_conversation_id: optionalString,
	sandbox_id: optionalString,
	agent_server_url: optionalString,
	dependency_repos_cloned: z.array(z.unknown()).nullish(),
	request: z.unknown().optional(),
	created_at: optionalString,
	updated_at: optionalString,
});
export type StartTask = z.infer<typeof startTaskSchema>;

export function startTaskError(task: StartTask): string | undefined {
	return task.detail ?? task.error ?? undefined;
}

export const exposedUrlSchema = z.looseObject({
	name: openEnum(['AGENT_SERVER', 'VSCODE', 'WORKER_1', 'WORKER_2'] as const),
	// Held as a credential: the VS Code link carries the session key as its token.
	url: z.string().transform((value) => new SecretLink(value)),
	port: z.number().nullish(),
});
export type ExposedUrl = z.infer<typeof exposedUrlSchema>;

export const sandboxSchema = z.looseObject({
	id: idString,
	created_by_user_id: optionalString,
	sandbox_spec_id: optionalString,
	status: openEnum(sandboxStatuses),
	/**
	 * Why the sandbox is ERROR or still STARTING, in the runtime's words (`ImagePullBackOff`,
	 * `insufficient kvm`); null otherwise and on servers older than 2026-07.
	 */
	status_detail: optionalString,
	/** Where its workspace is (hosted service); else the spec's `working_dir` says. */
	working_dir: optionalString,
	session_api_key: secretString,
	exposed_urls: z.array(exposedUrlSchema).nullish(),
	created_at: optionalString,
});
export type Sandbox = z.infer<typeof sandboxSchema>;

export const sandboxSpecSchema = z.looseObject({
	id: idString,
	command: z.array(z.string()).nullish(),
	created_at: optionalString,
	initial_env: z.record(z.string(), z.string()).nullish(),
	working_dir: optionalString,
});
export type SandboxSpec = z.infer<typeof sandboxSpecSchema>;

/** `{"success": true}` answers of pause, resume and delete. */
export const successSchema = z.looseObject({success: z.boolean()});

export const sendMessageResultSchema = z.looseObject({
	success: z.boolean(),
	sandbox_status: optionalString,
	message: optionalString,
});

/** V0 `GET /api/conversations` rows; kept for older servers, never used for paging (it skips rows). */
export const v0ConversationSchema = z.looseObject({
	conversation_id: idString,
	title: optionalString,
	status: optionalString,
	runtime_status: optionalString,
	url: optionalString,
	session_api_key: secretString,
	created_at: optionalString,
	last_updated_at: optionalString,
	selected_repository: optionalString,
});
export type V0Conversation = z.infer<typeof v0ConversationSchema>;

/** The agent server's own view of a conversation (ids are dashed here). */
export const conversationInfoSchema = z.looseObject({
	id: idString,
	execution_status: openEnum(executionStatuses).nullish(),
	title: optionalString,
	metrics: metricsSnapshotSchema.nullish(),
	stats: z.unknown().optional(),
	created_at: optionalString,
	updated_at: optionalString,
	confirmation_policy: z.unknown().optional(),
	/** Where the agent works (SDK BaseWorkspace `working_dir`); anything else is no answer. */
	workspace: z.looseObject({working_dir: optionalString}).nullish().catch(null),
});
export type ConversationInfo = z.infer<typeof conversationInfoSchema>;

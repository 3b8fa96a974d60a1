import type {StartTaskStatus} from '../wire/statuses.js';
import type {Rng} from './rng.js';
import type {EventDraft, EventFactory, SimEvent} from './event-factory.js';
import type {EventLog} from './event-log.js';
import type {MetricsState} from './metrics.js';
import type {PendingAction, Script, ScriptContext} from './scripts/types.js';

export const scenarioNames = [
	'coding',
	'confirmation',
	'agent-error',
	'crash',
	'stuck',
	'condensing',
	'hook-blocked',
	'quiet',
	'long-runner',
	'legacy',
	'rate-limit',
	'quota',
	'auth',
	'spender',
] as const;
export type ScenarioName = (typeof scenarioNames)[number];

/** The service's statuses; UNKNOWN is the hosted one's "provider unavailable". Tests may set any other word. */
export type SimSandboxStatus = 'STARTING' | 'RUNNING' | 'PAUSED' | 'ERROR' | 'MISSING' | 'UNKNOWN' | (string & {});

export type SimSandbox = {
	id: string;
	/** The `<n>` of `/runtime/<n>/...`, where this sandbox's agent server is served. */
	number: number;
	specId: string;
	status: SimSandboxStatus;
	/** Why it is ERROR or still STARTING, in the runtime's words (`status_detail`); null otherwise. */
	statusDetail: string | null;
	/** The hosted service's own `working_dir` for the sandbox; null: the spec's says. */
	workingDir: string | null;
	/**
	 * Sandbox grouping on: each conversation's workspace is `{working_dir}/{conversation hex}`
	 * (app_server settings `grouped_workspace_dir`), so several can share the sandbox.
	 */
	grouped: boolean;
	/**
	 * Where its agent server really works when that is not the folder the sandbox or its spec
	 * names (a spec saying `/home/openhands/workspace` while the agent works in
	 * `/workspace/project`); absent: the named one (workspace-layout.ts).
	 */
	agentWorkingDir?: string | null;
	sessionApiKey: string;
	createdByUserId: string;
	createdAt: number;
	conversationIds: string[];
	/** The pending asynchronous status change, so a newer request can cancel it. */
	transition?: NodeJS.Timeout | undefined;
};

export type SimSpec = {
	id: string;
	command: string[] | null;
	createdAt: number;
	initialEnv: Record<string, string>;
	workingDir: string;
};

/** How much of its script a seeded conversation has already run when the simulator starts. */
export type BuildPlan = {
	until: 'checkpoint' | 'complete';
	/** After the pre-history, the user paused it (PauseEvent, status paused). */
	thenPause?: boolean;
	/** After the pre-history, the user rejected the pending action with this reason. */
	thenReject?: string;
};

export type SimConversation = {
	/** 32 hex, the app server's spelling. */
	id: string;
	/** A sub-conversation's parent (a `task` sub-agent, a planning agent); null for a top-level one. */
	parentId: string | null;
	sandboxId: string;
	createdByUserId: string;
	title: string;
	repository: string | null;
	branch: string | null;
	gitProvider: string | null;
	trigger: string;
	prNumber: number[];
	llmModel: string;
	publicShare: boolean;
	tags: Record<string, string>;
	createdAt: number;
	updatedAt: number;
	scenario: ScenarioName;
	/** Index into the scenario's templates (repository, task text, files). */
	template: number;
	/** The first user message when the conversation came from a create request. */
	initialMessage: string | null;
	plan: BuildPlan | null;
	/** The agent server's view; meaningful once `agent` is built. */
	executionStatus: string;
	confirmationPolicy: Record<string, unknown>;
	/** Built on first use (10,000 seeded conversations must start in milliseconds). */
	agent: AgentState | null;
	/**
	 * LLM usage, kept apart from the event history so listing 10,000 conversations (which shows
	 * cost) never has to build their histories. Computed on first use.
	 */
	usage: Usage | null;
};

export type Usage = {metrics: MetricsState; rng: Rng};

export type AgentState = {
	rng: Rng;
	factory: EventFactory;
	context: ScriptContext;
	log: EventLog;
	script: Script | null;
	pending: PendingAction[];
	/** Model calls so far, pre-history included (stats are published every few calls). */
	llmCalls: number;
	/** Model calls of the pre-history (what the seeded usage accounts for). */
	priorCalls: number;
	liveSteps: number;
};

/** The start-task phases of the protocol (wire/statuses.ts), as the simulator walks them. */
export type {StartTaskStatus};

export type SimStartTask = {
	id: string;
	createdByUserId: string;
	status: StartTaskStatus;
	detail: string | null;
	appConversationId: string | null;
	sandboxId: string | null;
	agentServerUrl: string | null;
	/** The create request as echoed back (secrets masked). */
	request: Record<string, unknown>;
	createdAt: number;
	updatedAt: number;
	/** FAIL_START / TRUNCATE_START markers in the initial message steer the outcome. */
	outcome: 'ready' | 'fail' | 'truncate';
	listeners: Set<(task: SimStartTask) => void>;
};

export type EventListener = (event: SimEvent) => void;

export type {EventDraft, SimEvent};

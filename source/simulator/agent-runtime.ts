import {dashedId} from '../wire/ids.js';
import {scenarios} from './agent-scripts.js';
import {currentTools, repositoryContext, systemPromptText} from './corpus/tools.js';
import {EventFactory, omitNulls, type EventDraft, type ReasoningFlavor, type SimEvent} from './event-factory.js';
import {EventLog} from './event-log.js';
import {metricsSnapshot, recordLlmCall, scaledSnapshot} from './metrics.js';
import {followUpScript} from './scripts/follow-up.js';
import {quote} from './scripts/opening.js';
import type {Script, ScriptContext, Step} from './scripts/types.js';
import type {AgentState, SimConversation} from './world-types.js';
import type {WorldAccess} from './world-access.js';

/**
 * Runs the scripted agents: builds a conversation's history on first use, applies steps, and
 * reacts to what clients do (messages, pause, run, confirmation answers) the way the agent
 * server does (docs/service-behaviour.md §3, §5).
 */

const terminalStatuses = new Set(['finished', 'error', 'stuck']);
/** Publishing stats on every model call would bury the timeline; every third call looks like real telemetry. */
const statsEvery = 3;

function flavorOf(model: string): ReasoningFlavor {
	if (model.includes('gpt-5')) return 'responses';
	if (model.includes('claude')) return 'thinking';
	return 'none';
}

function workdirOf(repository: string | null): string {
	return `/workspace/project/${repository?.split('/')[1] ?? 'workspace'}`;
}

/**
 * Builds the agent: a fresh one for API conversations, with its pre-history for seeded ones.
 * A probe only counts the pre-history's model calls (see usage.ts).
 */
export function buildAgent(world: WorldAccess, conversation: SimConversation, probe = false): AgentState {
	const rng = world.rng.fork(`conversation:${conversation.id}`);
	const factory = new EventFactory(rng, flavorOf(conversation.llmModel));
	const log = new EventLog(() => world.now());
	const context: ScriptContext = {
		rng,
		ev: factory,
		model: conversation.llmModel,
		title: conversation.title,
		repository: conversation.repository,
		branch: conversation.branch,
		workdir: workdirOf(conversation.repository),
		template: conversation.template,
		initialMessage: conversation.initialMessage,
		hostile: () => world.hostile,
		logEvents: () => log.events,
	};
	const agent: AgentState = {
		rng,
		factory,
		context,
		log,
		script: scenarios[conversation.scenario].script(context),
		pending: [],
		llmCalls: 0,
		priorCalls: 0,
		liveSteps: 0,
	};
	conversation.agent = agent;
	if (conversation.plan) runPreHistory(world, conversation, agent, probe);
	return agent;
}

type StatsToFill = Array<{event: SimEvent; call: number}>;

function runPreHistory(world: WorldAccess, conversation: SimConversation, agent: AgentState, probe: boolean): void {
	const plan = conversation.plan!;
	const stats: StatsToFill = [];
	for (let guard = 0; guard < 800; guard++) {
		const step = pull(agent, true);
		if (!step) break;
		if (step.checkpoint && plan.until === 'checkpoint') break;
		apply(world, conversation, agent, step, true, stats);
		if (conversation.executionStatus !== 'running') break;
	}
	if (plan.thenReject && agent.pending.length > 0) {
		for (const pending of agent.pending) append(world, conversation, agent.factory.reject(pending.action, plan.thenReject, 'user'), true);
		agent.pending = [];
		agent.script = null;
		setStatus(world, conversation, 'idle', true);
	}
	if (plan.thenPause && (conversation.executionStatus === 'running' || conversation.executionStatus === 'idle')) {
		append(world, conversation, agent.factory.pause(), true);
		setStatus(world, conversation, 'paused', true);
	}
	agent.priorCalls = agent.llmCalls;
	if (probe) return;
	// The usage may have been computed (for a listing) before this build; the stats follow it.
	const usage = world.usage(conversation);
	for (const {event, call} of stats) {
		event.value = omitNulls({usage_to_metrics: {agent: scaledSnapshot(usage.metrics, call / Math.max(1, agent.priorCalls))}});
	}
	agent.log.spreadOver(conversation.createdAt, conversation.updatedAt, agent.rng.fork('timestamps'));
}

function pull(agent: AgentState, building: boolean): Step | null {
	for (let guard = 0; agent.script && guard < 4; guard++) {
		const next = agent.script.next();
		if (next.done) {
			agent.script = null;
			return null;
		}
		// Live, a bare checkpoint marker would be a step that does nothing: skip it.
		const marker = next.value.checkpoint && next.value.events.length === 0 && !next.value.status;
		if (marker && !building) continue;
		return next.value;
	}
	return null;
}

/** Persists one event: stamped, nulls dropped, published to live subscribers. */
export function append(world: WorldAccess, conversation: SimConversation, draft: EventDraft, building = false): SimEvent {
	const agent = conversation.agent!;
	const {kind, id, source, ...rest} = draft;
	const event = omitNulls({kind, id, timestamp: building ? '' : agent.log.stamp(), source, ...rest}) as SimEvent;
	agent.log.push(event);
	if (!building) {
		conversation.updatedAt = world.now();
		world.publish(conversation, event);
	}
	return event;
}

export function setStatus(world: WorldAccess, conversation: SimConversation, status: string, building = false): void {
	if (conversation.executionStatus === status) return;
	conversation.executionStatus = status;
	const agent = conversation.agent!;
	append(world, conversation, agent.factory.stateUpdate('execution_status', status), building);
	if (terminalStatuses.has(status)) agent.script = null;
}

function apply(world: WorldAccess, conversation: SimConversation, agent: AgentState, step: Step, building: boolean, stats?: StatsToFill): void {
	for (const draft of step.events) append(world, conversation, draft, building);
	if (step.llm) {
		agent.llmCalls++;
		const usage = building ? null : world.usage(conversation);
		if (usage) recordLlmCall(usage.metrics, usage.rng, agent.llmCalls, step.llm.responseId, world.now());
		if (agent.llmCalls % statsEvery === 0) {
			const value = {usage_to_metrics: {agent: usage ? metricsSnapshot(usage.metrics) : {}}};
			const event = append(world, conversation, agent.factory.stateUpdate('stats', value), building);
			if (building) stats?.push({event, call: agent.llmCalls});
		}
	}
	if (step.pending) agent.pending = step.pending;
	if (step.status) setStatus(world, conversation, step.status, building);
}

/** Whether `step()` moves this conversation: its sandbox runs, its agent runs and has work left. */
export function isActive(world: WorldAccess, conversation: SimConversation): boolean {
	const sandbox = world.findSandbox(conversation.sandboxId);
	if (sandbox?.status !== 'RUNNING') return false;
	const agent = world.agent(conversation);
	return conversation.executionStatus === 'running' && agent.script !== null;
}

/** One live step. Returns whether anything was emitted. */
export function stepConversation(world: WorldAccess, conversation: SimConversation): boolean {
	if (!isActive(world, conversation)) return false;
	const agent = conversation.agent!;
	const step = pull(agent, false);
	if (!step) {
		if (conversation.executionStatus === 'running') setStatus(world, conversation, 'idle');
		return false;
	}
	apply(world, conversation, agent, step, false);
	agent.liveSteps++;
	if (world.hostile && agent.liveSteps % 3 === 0) {
		// Forward-compatibility fault: a kind and a status value no client knows.
		append(world, conversation, agent.factory.future());
		append(world, conversation, agent.factory.stateUpdate('execution_status', 'archived'));
	}
	return step.events.length > 0 || Boolean(step.status);
}

function* acknowledge(context: ScriptContext, text: string): Script {
	const responseId = context.ev.responseId();
	yield {
		events: [context.ev.assistantMessage(`Noted: "${quote(context, text)}". I will take that into account and carry on.`, {responseId})],
		llm: {responseId},
	};
}

function* chain(first: Script, then: Script): Script {
	yield* first;
	yield* then;
}

function rejectPending(world: WorldAccess, conversation: SimConversation, reason: string): void {
	const agent = world.agent(conversation);
	for (const pending of agent.pending) append(world, conversation, agent.factory.reject(pending.action, reason, 'user'));
	agent.pending = [];
}

/**
 * A user message, as POST …/events, the app server's send-message or a socket Message frame.
 * With run, the agent answers it: a busy agent acknowledges and carries on, an idle or silent
 * one follows up and finishes. A pending confirmation is dropped, as the SDK does.
 */
export function sendUserMessage(world: WorldAccess, conversation: SimConversation, text: string, run: boolean): SimEvent {
	const agent = world.agent(conversation);
	if (run && agent.pending.length > 0) rejectPending(world, conversation, 'The user sent a new message instead of confirming.');
	const event = append(world, conversation, agent.factory.userMessage(text));
	if (!run) return event;
	// A silent agent is woken by the nudge; a finished one gets a new, short task.
	if (!agent.script || conversation.scenario === 'quiet') agent.script = followUpScript(agent.context, text);
	else agent.script = chain(acknowledge(agent.context, text), agent.script);
	setStatus(world, conversation, 'running');
	return event;
}

export function pauseConversation(world: WorldAccess, conversation: SimConversation): void {
	const agent = world.agent(conversation);
	if (['running', 'idle', 'waiting_for_confirmation'].includes(conversation.executionStatus)) {
		append(world, conversation, agent.factory.pause());
		setStatus(world, conversation, 'paused');
	}
	world.publishTransient(conversation, agent.factory.stateUpdate('full_state', fullState(world, conversation)));
}

/** POST …/run. Running pending actions is what accepting a confirmation means. */
export function runConversation(world: WorldAccess, conversation: SimConversation): 'started' | 'already-running' {
	const agent = world.agent(conversation);
	if (conversation.executionStatus === 'running') return 'already-running';
	if (agent.pending.length > 0) {
		respondToConfirmation(world, conversation, true);
		return 'started';
	}
	if (!agent.script) agent.script = followUpScript(agent.context, null);
	setStatus(world, conversation, 'running');
	return 'started';
}

export function respondToConfirmation(world: WorldAccess, conversation: SimConversation, accept: boolean, reason?: string): boolean {
	const agent = world.agent(conversation);
	if (agent.pending.length === 0) return false;
	if (accept) {
		const pending = agent.pending;
		agent.pending = [];
		for (const entry of pending) append(world, conversation, entry.observation);
		setStatus(world, conversation, 'running');
	} else {
		rejectPending(world, conversation, reason?.trim() ? reason : 'User rejected the action.');
		agent.script = null;
		setStatus(world, conversation, 'idle');
	}
	return true;
}

/** The ConversationState the socket sends first (`full_state`), minus the parts nobody renders. */
export function fullState(world: WorldAccess, conversation: SimConversation): Record<string, unknown> {
	const agent = world.agent(conversation);
	const events = agent.log.events;
	const last = events.at(-1);
	let lastUserMessage: string | undefined;
	for (let index = events.length - 1; index >= 0 && !lastUserMessage; index--) {
		const event = events[index]!;
		if (event.kind === 'MessageEvent' && event.source === 'user') lastUserMessage = event.id;
	}
	return omitNulls({
		id: dashedId(conversation.id),
		execution_status: conversation.executionStatus,
		confirmation_policy: conversation.confirmationPolicy,
		stats: {usage_to_metrics: {agent: metricsSnapshot(world.usage(conversation).metrics)}},
		max_iterations: 500,
		stuck_detection: true,
		activated_knowledge_skills: [],
		blocked_actions: {},
		blocked_messages: {},
		last_user_message_id: lastUserMessage,
		agent: {kind: 'Agent', llm: {model: conversation.llmModel, usage_id: 'agent', api_key: '**********'}},
		leaf_event_id: last?.id,
	});
}

/**
 * A conversation created through the API: the system prompt and the user's message go out at
 * once, then the script continues step by step. Without a message it just waits, idle.
 */
export function startAgent(world: WorldAccess, conversation: SimConversation, run: boolean): void {
	const agent = world.agent(conversation);
	if (conversation.initialMessage === null) {
		agent.script = null;
		const {context} = agent;
		append(world, conversation, agent.factory.systemPrompt(systemPromptText, currentTools, repositoryContext(context.repository, context.branch, context.workdir)));
		return;
	}
	const opening = pull(agent, false);
	if (opening) apply(world, conversation, agent, opening, false);
	if (!run) setStatus(world, conversation, 'idle');
}

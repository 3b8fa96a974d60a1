import {textContent, type Classification, type EventDraft} from '../event-factory.js';
import {agentText, llm, observed} from './tools.js';
import type {ScriptContext, Step} from './types.js';

/**
 * The tools and shapes of a 2026 agent beyond the classic set, in the SDK's own field names:
 * invalid tool calls (openhands-sdk/openhands/sdk/agent/agent.py `_emit_tool_error`), refused
 * terminal commands (openhands-tools/openhands/tools/terminal/terminal/terminal_session.py),
 * task and delegate sub-agents (openhands-tools/openhands/tools/{task,delegate}/definition.py),
 * invoke_skill, switch_llm, vision_inspect (openhands-sdk/openhands/sdk/tool/builtins/), client
 * tools (sdk/tool/client_tool.py, kind `ClientAction_<name>`), tom_consult (a kind no client is
 * expected to know: openhands-tools/openhands/tools/tom_consult/definition.py) and the goal
 * loop's state (`goal`, openhands-sdk/openhands/sdk/conversation/goal/controller.py GoalStatus).
 */

type Calls = Generator<Step, EventDraft, undefined>;

/** A malformed tool call is an agent outcome the agent can retry (error_classification.py AGENT_OUTCOME). */
export const agentOutcome: Classification = {kind: 'agent_action', retryable: true, user_action: 'retry'};

/**
 * A call the SDK could not run: the ActionEvent without `action` and the AgentErrorEvent that
 * answers it, from one model response (the SDK emits both at once).
 */
export function invalidCall(context: ScriptContext, spec: {toolName: string; arguments: string; error: string; thought?: string}): Step {
	const responseId = context.ev.responseId();
	const action = context.ev.invalidAction({toolName: spec.toolName, arguments: spec.arguments, thought: spec.thought ? agentText(context, spec.thought) : undefined, responseId});
	const error = context.ev.agentError(spec.toolName, String(action.tool_call_id), spec.error, agentOutcome);
	return {events: [action, error], llm: {responseId}};
}

/**
 * A terminal command the tool refuses without running it: `is_error`, no exit code of its own,
 * and the metadata's defaults (exit_code -1, pid -1), as `TerminalObservation.from_text` leaves them.
 */
export function* refusedTerminal(context: ScriptContext, call: {command: string; summary: string; thought?: string}, refusal: string): Calls {
	const action = context.ev.action({
		toolName: 'terminal',
		action: {kind: 'TerminalAction', command: call.command, is_input: false, reset: false},
		thought: call.thought ? agentText(context, call.thought) : undefined,
		summary: call.summary,
		risk: 'LOW',
	});
	yield llm(action);
	yield observed(context, action, {
		kind: 'TerminalObservation',
		content: [textContent(refusal)],
		is_error: true,
		command: call.command,
		timeout: false,
		metadata: {exit_code: -1, pid: -1, prefix: '', suffix: ''},
	});
	return action;
}

/** What the terminal says to two commands in one call (terminal_session.py). */
export function multipleCommandsRefusal(commands: readonly string[]): string {
	return `Cannot execute multiple commands at once.\nPlease run each command separately OR chain them into a single command via && or ;\nProvided commands:\n${commands.map((command, index) => `(${index + 1}) ${command}`).join('\n')}`;
}

export function* subAgentTask(context: ScriptContext, task: {description: string; prompt: string; subagentType: string; result: string}): Calls {
	const action = context.ev.action({
		toolName: 'task',
		action: {kind: 'TaskAction', description: task.description, prompt: agentText(context, task.prompt), subagent_type: task.subagentType},
		summary: `Hand "${task.description}" to a ${task.subagentType} sub-agent`,
		risk: 'LOW',
	});
	yield llm(action);
	yield observed(context, action, {
		kind: 'TaskObservation',
		content: [textContent(agentText(context, task.result))],
		is_error: false,
		task_id: `task_${context.rng.hex(8)}`,
		subagent: task.subagentType,
		status: 'completed',
	});
	return action;
}

export function* delegate(context: ScriptContext, spec: {command: 'spawn'; ids: string[]; agentTypes: string[]} | {command: 'delegate'; tasks: Record<string, string>}, result: string): Calls {
	const fields = spec.command === 'spawn' ? {ids: spec.ids, agent_types: spec.agentTypes} : {tasks: spec.tasks};
	const action = context.ev.action({
		toolName: 'delegate',
		action: {kind: 'DelegateAction', command: spec.command, ...fields},
		summary: spec.command === 'spawn' ? `Spawn ${spec.ids.length} sub-agents` : `Delegate ${Object.keys(spec.tasks).length} tasks`,
		risk: 'LOW',
	});
	yield llm(action);
	yield observed(context, action, {kind: 'DelegateObservation', content: [textContent(agentText(context, result))], is_error: false, command: spec.command});
	return action;
}

export function* invokeSkill(context: ScriptContext, name: string, content: string): Calls {
	const action = context.ev.action({toolName: 'invoke_skill', action: {kind: 'InvokeSkillAction', name}, summary: `Load the ${name} skill`, risk: 'LOW'});
	yield llm(action);
	yield observed(context, action, {kind: 'InvokeSkillObservation', content: [textContent(content)], is_error: false, skill_name: name});
	return action;
}

export function* switchLlm(context: ScriptContext, profile: string, reason: string, activeModel: string): Calls {
	const action = context.ev.action({toolName: 'switch_llm', action: {kind: 'SwitchLLMAction', profile_name: profile, reason: agentText(context, reason)}, summary: `Switch to the ${profile} profile`, risk: 'LOW'});
	yield llm(action);
	yield observed(context, action, {
		kind: 'SwitchLLMObservation',
		content: [textContent(`Switched this conversation to LLM profile '${profile}' (${activeModel}).`)],
		is_error: false,
		profile_name: profile,
		reason,
		active_model: activeModel,
	});
	return action;
}

export function* visionInspect(context: ScriptContext, spec: {imageIndex: number; question: string; answer: string; model: string}): Calls {
	const action = context.ev.action({
		toolName: 'vision_inspect',
		action: {kind: 'VisionInspectAction', image_index: spec.imageIndex, question: spec.question},
		summary: 'Ask the vision model about the screenshot',
		risk: 'LOW',
	});
	yield llm(action);
	yield observed(context, action, {
		kind: 'VisionInspectObservation',
		content: [textContent(agentText(context, spec.answer))],
		is_error: false,
		image_index: spec.imageIndex,
		question: spec.question,
		profile_name: 'vision',
		model: spec.model,
		answer: agentText(context, spec.answer),
	});
	return action;
}

/** A tool the client declared (its kind is `ClientAction_<name>`); the SDK only acknowledges it. */
export function* clientTool(context: ScriptContext, name: string, fields: Record<string, unknown>, summary: string): Calls {
	const action = context.ev.action({toolName: name, action: {kind: `ClientAction_${name}`, ...fields}, summary, risk: 'LOW'});
	yield llm(action);
	yield observed(context, action, {kind: 'ClientToolObservation', content: [textContent('Tool call dispatched to client.')], is_error: false});
	return action;
}

/** tom_consult: stands for every tool kind a client does not know yet. */
export function* consultTom(context: ScriptContext, reason: string, suggestion: string): Calls {
	const action = context.ev.action({toolName: 'tom_consult', action: {kind: 'ConsultTomAction', reason: agentText(context, reason), use_user_message: true}, summary: 'Ask what the user most likely means', risk: 'LOW'});
	yield llm(action);
	yield observed(context, action, {kind: 'ConsultTomObservation', content: [textContent(suggestion)], is_error: false, suggestions: suggestion, confidence: 0.72});
	return action;
}

export type GoalStatus = {active: boolean; status: 'running' | 'complete' | 'capped' | 'interrupted'; iteration: number; max_iterations: number; objective: string; verdict?: {score: number; complete: boolean; missing: string}};

/** The goal loop's progress, published as the `goal` state key (agent_server event_service.py `_emit_status`). */
export function goalUpdate(context: ScriptContext, goal: GoalStatus): Step {
	return {events: [context.ev.stateUpdate('goal', goal)]};
}

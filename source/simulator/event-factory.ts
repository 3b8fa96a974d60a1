import type {Rng} from './rng.js';

/**
 * Builds events in the agent server's JSON shapes (docs/service-behaviour.md §4). A draft has
 * everything but the timestamp, which the conversation's log stamps when the event is appended,
 * so an observation can name its action's id before either is persisted.
 */

export type EventSource = 'agent' | 'user' | 'environment' | 'hook';
export type EventDraft = {kind: string; id: string; source: EventSource; [field: string]: unknown};
export type SimEvent = {kind: string; id: string; timestamp: string; source: string; [field: string]: unknown};

export type Classification = {
	kind: 'auth' | 'quota' | 'rate_limit' | 'config' | 'transient' | 'agent_action' | 'internal' | 'unknown';
	retryable: boolean;
	user_action: 'none' | 'retry' | 'settings';
	error_id?: string;
};

export type Risk = 'UNKNOWN' | 'LOW' | 'MEDIUM' | 'HIGH';

/** How the model reasons: Anthropic-style thinking blocks or an OpenAI Responses reasoning item. */
export type ReasoningFlavor = 'thinking' | 'responses' | 'none';

export type ActionSpec = {
	toolName: string;
	action: {kind: string; [field: string]: unknown};
	thought?: string;
	summary?: string;
	risk?: Risk;
	reasoning?: string;
	/** Parallel tool calls of one model response share it. */
	responseId?: string;
};

export type ObservationBody = {kind: string; [field: string]: unknown};

/**
 * The real servers dump with exclude_none; clients must cope with absent fields, so never send
 * nulls. Copy-on-write: unchanged objects are returned as they are, so big shared structures
 * (tool definitions, file contents) are not copied for every event.
 */
export function omitNulls<T>(value: T): T {
	if (value === null || typeof value !== 'object') return value;
	if (Array.isArray(value)) {
		let out: unknown[] | null = null;
		for (let index = 0; index < value.length; index++) {
			const item = value[index] as unknown;
			const cleaned = omitNulls(item);
			if (cleaned !== item && out === null) out = value.slice(0, index);
			if (out !== null) out.push(cleaned);
		}
		return (out ?? value) as T;
	}
	const record = value as Record<string, unknown>;
	let out: Record<string, unknown> | null = null;
	const keys = Object.keys(record);
	for (let index = 0; index < keys.length; index++) {
		const key = keys[index]!;
		const field = record[key];
		const cleaned = field === null || field === undefined ? undefined : omitNulls(field);
		if (cleaned !== field && out === null) {
			out = {};
			for (let before = 0; before < index; before++) out[keys[before]!] = record[keys[before]!];
		}
		if (out !== null && cleaned !== undefined) out[key] = cleaned;
	}
	return (out ?? record) as T;
}

export function textContent(text: string): {type: 'text'; text: string} {
	return {type: 'text', text};
}

export class EventFactory {
	constructor(
		private readonly rng: Rng,
		private readonly flavor: ReasoningFlavor,
	) {}

	id(): string {
		return this.rng.uuid();
	}

	toolCallId(): string {
		return this.flavor === 'responses' ? `call_${this.rng.token(24)}` : `toolu_01${this.rng.token(22)}`;
	}

	responseId(): string {
		return this.flavor === 'responses' ? `resp_${this.rng.hex(48)}` : `chatcmpl-${this.rng.uuid()}`;
	}

	systemPrompt(text: string, tools: unknown[], dynamicContext?: string): EventDraft {
		return {
			kind: 'SystemPromptEvent',
			id: this.id(),
			source: 'agent',
			system_prompt: textContent(text),
			tools,
			dynamic_context: dynamicContext ? textContent(dynamicContext) : undefined,
		};
	}

	userMessage(text: string, activatedSkills: string[] = []): EventDraft {
		return {
			kind: 'MessageEvent',
			id: this.id(),
			source: 'user',
			llm_message: {role: 'user', content: [textContent(text)], thinking_blocks: []},
			activated_skills: activatedSkills,
			extended_content: [],
		};
	}

	assistantMessage(text: string, options: {responseId?: string; reasoning?: string; activatedSkills?: string[]} = {}): EventDraft {
		return {
			kind: 'MessageEvent',
			id: this.id(),
			source: 'agent',
			llm_message: {
				role: 'assistant',
				content: [textContent(text)],
				reasoning_content: options.reasoning,
				thinking_blocks: [],
			},
			llm_response_id: options.responseId ?? this.responseId(),
			activated_skills: options.activatedSkills ?? [],
			extended_content: [],
		};
	}

	action(spec: ActionSpec): EventDraft {
		const toolCallId = this.toolCallId();
		const {kind: _kind, ...argumentsObject} = spec.action;
		const risk = spec.risk ?? 'LOW';
		// A Responses-API model returns a reasoning item with every call, not only when asked to think.
		const reasoning = spec.reasoning ?? (this.flavor === 'responses' ? spec.summary : undefined);
		const thinking = this.flavor === 'thinking' ? reasoning : undefined;
		const responses = this.flavor === 'responses' ? reasoning : undefined;
		return {
			kind: 'ActionEvent',
			id: this.id(),
			source: 'agent',
			thought: spec.thought ? [textContent(spec.thought)] : [],
			reasoning_content: thinking,
			thinking_blocks: thinking ? [{type: 'thinking', thinking, signature: `Eq${this.rng.token(86)}==`}] : [],
			// The encrypted part is opaque ciphertext the client must never display; tests look for it.
			responses_reasoning_item: responses
				? {
						id: `rs_${this.rng.hex(48)}`,
						summary: [responses],
						encrypted_content: `gAAAAABp${this.rng.token(180)}`,
						status: 'completed',
					}
				: undefined,
			action: spec.action,
			tool_name: spec.toolName,
			tool_call_id: toolCallId,
			tool_call: {
				id: toolCallId,
				name: spec.toolName,
				// The model predicts risk and summary as call arguments; the real SDK keeps them there.
				arguments: JSON.stringify({...argumentsObject, security_risk: risk, summary: spec.summary}),
				origin: this.flavor === 'responses' ? 'responses' : 'completion',
				responses_item_id: this.flavor === 'responses' ? `fc_${this.rng.hex(48)}` : undefined,
			},
			llm_response_id: spec.responseId ?? this.responseId(),
			security_risk: risk,
			summary: spec.summary,
		};
	}

	/**
	 * A tool call the model got wrong (unknown tool, arguments that do not validate or are not
	 * JSON): an ActionEvent without `action`, as the SDK's agent emits it (openhands-sdk/openhands/
	 * sdk/agent/agent.py `_emit_tool_error`), before the AgentErrorEvent that answers it. Arguments
	 * that are not JSON are replaced by the SDK's marker object.
	 */
	invalidAction(spec: {toolName: string; arguments: string; thought?: string; responseId?: string}): EventDraft {
		const toolCallId = this.toolCallId();
		let args = spec.arguments;
		try {
			JSON.parse(args);
		} catch (error) {
			args = JSON.stringify({_openhands_malformed_tool_call: true, error: (error as Error).message});
		}
		return {
			kind: 'ActionEvent',
			id: this.id(),
			source: 'agent',
			thought: spec.thought ? [textContent(spec.thought)] : [],
			thinking_blocks: [],
			tool_name: spec.toolName,
			tool_call_id: toolCallId,
			tool_call: {id: toolCallId, name: spec.toolName, arguments: args, origin: this.flavor === 'responses' ? 'responses' : 'completion'},
			llm_response_id: spec.responseId ?? this.responseId(),
			security_risk: 'UNKNOWN',
		};
	}

	observation(action: EventDraft, observation: ObservationBody): EventDraft {
		return {
			kind: 'ObservationEvent',
			id: this.id(),
			source: 'environment',
			tool_name: action.tool_name,
			tool_call_id: action.tool_call_id,
			observation,
			action_id: action.id,
		};
	}

	reject(action: EventDraft, reason: string, rejectionSource: 'user' | 'hook'): EventDraft {
		return {
			kind: 'UserRejectObservation',
			id: this.id(),
			source: 'environment',
			tool_name: action.tool_name,
			tool_call_id: action.tool_call_id,
			action_id: action.id,
			rejection_reason: reason,
			rejection_source: rejectionSource,
		};
	}

	agentError(toolName: string, toolCallId: string, error: string, classification: Classification): EventDraft {
		return {kind: 'AgentErrorEvent', id: this.id(), source: 'agent', tool_name: toolName, tool_call_id: toolCallId, error, classification};
	}

	conversationError(code: string, detail: string, classification: Classification): EventDraft {
		return {kind: 'ConversationErrorEvent', id: this.id(), source: 'environment', code, detail, classification};
	}

	condensationRequest(): EventDraft {
		return {kind: 'CondensationRequest', id: this.id(), source: 'environment'};
	}

	condensation(forgottenEventIds: string[], summary: string, summaryOffset: number): EventDraft {
		return {
			kind: 'Condensation',
			id: this.id(),
			source: 'environment',
			forgotten_event_ids: forgottenEventIds,
			summary,
			summary_offset: summaryOffset,
			llm_response_id: this.responseId(),
		};
	}

	condensationSummary(summary: string): EventDraft {
		return {kind: 'CondensationSummaryEvent', id: this.id(), source: 'environment', summary};
	}

	stateUpdate(key: string, value: unknown): EventDraft {
		return {kind: 'ConversationStateUpdateEvent', id: this.id(), source: 'environment', key, value};
	}

	pause(): EventDraft {
		return {kind: 'PauseEvent', id: this.id(), source: 'user'};
	}

	hook(fields: {
		hookEventType: 'PreToolUse' | 'PostToolUse' | 'UserPromptSubmit' | 'SessionStart' | 'SessionEnd' | 'Stop';
		command: string;
		toolName?: string;
		success: boolean;
		blocked: boolean;
		exitCode: number;
		stdout?: string;
		stderr?: string;
		reason?: string;
		additionalContext?: string;
		actionId?: string;
		hookInput?: unknown;
	}): EventDraft {
		return {
			kind: 'HookExecutionEvent',
			id: this.id(),
			source: 'hook',
			hook_event_type: fields.hookEventType,
			hook_command: fields.command,
			tool_name: fields.toolName,
			success: fields.success,
			blocked: fields.blocked,
			exit_code: fields.exitCode,
			stdout: fields.stdout ?? '',
			stderr: fields.stderr ?? '',
			reason: fields.reason,
			additional_context: fields.additionalContext,
			action_id: fields.actionId,
			hook_input: fields.hookInput,
		};
	}

	completionLog(model: string, responseId: string, promptTokens: number, completionTokens: number, excerpt: string): EventDraft {
		const stamp = (1_763_800_000 + this.rng.int(0, 9_000_000)).toFixed(3);
		return {
			kind: 'LLMCompletionLogEvent',
			id: this.id(),
			source: 'environment',
			filename: `${model.replaceAll('/', '__')}-${stamp}-${this.rng.hex(4)}.json`,
			log_data: JSON.stringify({
				messages: [{role: 'user', content: excerpt}],
				response: {id: responseId, model, usage: {prompt_tokens: promptTokens, completion_tokens: completionTokens}},
				kwargs: {temperature: 0, max_completion_tokens: 64000},
				timestamp: Number(stamp),
				latency_sec: Number(this.rng.float(1.2, 14).toFixed(3)),
			}),
			model_name: model,
			usage_id: 'agent',
		};
	}

	tokens(promptLength: number, responseLength: number): EventDraft {
		const ids = (length: number) => Array.from({length}, () => this.rng.int(2, 151_000));
		return {
			kind: 'TokenEvent',
			id: this.id(),
			source: 'agent',
			prompt_token_ids: ids(promptLength),
			response_token_ids: ids(responseLength),
		};
	}

	/** An event kind no client knows yet (hostile / forward-compatibility fault). */
	future(): EventDraft {
		return {
			kind: 'FutureEvent',
			id: this.id(),
			source: 'environment',
			payload: {schema_version: 7, note: 'sent by a newer agent server'},
		};
	}
}

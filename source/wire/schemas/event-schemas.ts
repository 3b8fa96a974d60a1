import {z} from 'zod';
import {type Action, parseAction} from './actions.js';
import {optionalString} from './common.js';
import {
	contentSchema,
	criticResultSchema,
	errorClassificationSchema,
	llmMessageSchema,
	messageToolCallSchema,
	reasoningItemSchema,
	textContentSchema,
	thinkingBlockSchema,
} from './content.js';
import {type Observation, parseObservation} from './observations.js';

/**
 * The schema of each known event kind, by kind (docs/service-behaviour.md §4), and the event
 * types made from them. events.ts parses with these: the envelope first, then the payload by kind.
 */

export const eventSources = ['agent', 'user', 'environment', 'hook'] as const;

const envelopeFields = {
	id: z.string(),
	timestamp: z.string(),
	source: z.string(),
	parent_id: optionalString,
};

function event<K extends string>(kind: K): ReturnType<typeof eventWith<K, Record<never, never>>>;
function event<K extends string, S extends z.ZodRawShape>(kind: K, shape: S): ReturnType<typeof eventWith<K, S>>;
function event(kind: string, shape: z.ZodRawShape = {}) {
	return eventWith(kind, shape);
}

function eventWith<K extends string, S extends z.ZodRawShape>(kind: K, shape: S) {
	return z.looseObject({...envelopeFields, kind: z.literal(kind), ...shape});
}

const textList = z.array(textContentSchema).nullish().transform((value) => value ?? []);
const stringList = z.array(z.string()).nullish().transform((value) => value ?? []);
// Absent (the agent server's exclude_none) and null (the stored copy) alike: a tool call the
// model got wrong, answered by an AgentErrorEvent (SDK openhands-sdk/openhands/sdk/agent/agent.py
// `_emit_tool_error`).
const actionField = z
	.unknown()
	.optional()
	.transform((value): Action | null => (value == null ? null : parseAction(value)));
const observationField = z.unknown().transform((value): Observation => parseObservation(value));

export const eventSchemas = {
	ActionEvent: event('ActionEvent', {
		thought: textList,
		reasoning_content: optionalString,
		thinking_blocks: z.array(thinkingBlockSchema).nullish(),
		responses_reasoning_item: reasoningItemSchema.nullish(),
		action: actionField,
		tool_name: z.string(),
		tool_call_id: z.string(),
		tool_call: messageToolCallSchema.nullish(),
		llm_response_id: optionalString,
		security_risk: z.string().nullish().transform((value) => value ?? 'UNKNOWN'),
		critic_result: criticResultSchema.nullish(),
		summary: optionalString,
	}),
	MessageEvent: event('MessageEvent', {
		llm_message: llmMessageSchema,
		llm_response_id: optionalString,
		activated_skills: stringList,
		extended_content: z.array(contentSchema).nullish(),
		sender: optionalString,
		critic_result: criticResultSchema.nullish(),
	}),
	ObservationEvent: event('ObservationEvent', {
		tool_name: z.string(),
		tool_call_id: z.string(),
		observation: observationField,
		action_id: z.string(),
		extended_content: z.array(contentSchema).nullish(),
	}),
	UserRejectObservation: event('UserRejectObservation', {
		tool_name: z.string(),
		tool_call_id: z.string(),
		action_id: z.string(),
		rejection_reason: z.string().nullish().transform((value) => value ?? 'User rejected the action'),
		rejection_source: z.string().nullish().transform((value) => value ?? 'user'),
	}),
	AgentErrorEvent: event('AgentErrorEvent', {
		tool_name: z.string(),
		tool_call_id: z.string(),
		error: z.string(),
		classification: errorClassificationSchema,
	}),
	ConversationErrorEvent: event('ConversationErrorEvent', {
		code: z.string(),
		detail: z.string(),
		classification: errorClassificationSchema,
	}),
	SystemPromptEvent: event('SystemPromptEvent', {
		system_prompt: textContentSchema,
		tools: z.array(z.unknown()).nullish(),
		dynamic_context: textContentSchema.nullish(),
	}),
	Condensation: event('Condensation', {
		forgotten_event_ids: stringList,
		summary: optionalString,
		summary_offset: z.number().int().min(0).nullish(),
		llm_response_id: optionalString,
	}),
	CondensationRequest: event('CondensationRequest'),
	CondensationSummaryEvent: event('CondensationSummaryEvent', {summary: z.string()}),
	ConversationStateUpdateEvent: event('ConversationStateUpdateEvent', {
		key: z.string().nullish().transform((value) => value ?? ''),
		// A field whose value became None arrives without `value` (exclude_none).
		value: z.unknown().optional(),
	}),
	PauseEvent: event('PauseEvent'),
	InterruptEvent: event('InterruptEvent'),
	HookExecutionEvent: event('HookExecutionEvent', {
		hook_event_type: z.string(),
		hook_command: optionalString,
		tool_name: optionalString,
		success: z.boolean().nullish(),
		blocked: z.boolean().nullish(),
		exit_code: z.number().nullish(),
		stdout: optionalString,
		stderr: optionalString,
		reason: optionalString,
		additional_context: optionalString,
		error: optionalString,
		action_id: optionalString,
		message_id: optionalString,
		hook_input: z.unknown().optional(),
	}),
	LLMCompletionLogEvent: event('LLMCompletionLogEvent', {
		filename: z.string(),
		log_data: z.string(),
		model_name: z.string().nullish().transform((value) => value ?? 'unknown'),
		usage_id: z.string().nullish().transform((value) => value ?? 'default'),
	}),
	TokenEvent: event('TokenEvent', {
		prompt_token_ids: z.array(z.number()).nullish(),
		response_token_ids: z.array(z.number()).nullish(),
	}),
	ACPToolCallEvent: event('ACPToolCallEvent', {
		tool_call_id: z.string(),
		title: optionalString,
		status: optionalString,
		tool_kind: optionalString,
		raw_input: z.unknown().optional(),
		raw_output: z.unknown().optional(),
		content: z.array(z.unknown()).nullish(),
		is_error: z.boolean().nullish(),
	}),
	// Only ever sent over the WebSocket.
	StreamingDeltaEvent: event('StreamingDeltaEvent', {content: optionalString, reasoning_content: optionalString}),
	ServerErrorEvent: event('ServerErrorEvent', {code: optionalString, detail: optionalString}),
} as const;

type EventSchemas = typeof eventSchemas;
export type KnownEventKindName = keyof EventSchemas;
export type KnownEvent = {[K in KnownEventKindName]: z.infer<EventSchemas[K]>}[KnownEventKindName];
export type EventOf<K extends KnownEventKindName> = Extract<KnownEvent, {kind: K}>;

export type UnknownEvent = {
	kind: 'UnknownEvent';
	/** What the server sent as `kind` (may be a known kind whose fields did not validate). */
	originalKind: string;
	problem: string;
	id: string;
	timestamp: string;
	source: string;
	raw: Record<string, unknown>;
};

export type WireEvent = KnownEvent | UnknownEvent;

/** Sources the seed gives each kind when the field is absent. */
export const defaultSource: Partial<Record<string, string>> = {
	Condensation: 'environment',
	CondensationRequest: 'environment',
	CondensationSummaryEvent: 'environment',
	ConversationStateUpdateEvent: 'environment',
	LLMCompletionLogEvent: 'environment',
	ActionEvent: 'agent',
	AgentErrorEvent: 'agent',
	ObservationEvent: 'environment',
	UserRejectObservation: 'environment',
	SystemPromptEvent: 'agent',
	PauseEvent: 'user',
	InterruptEvent: 'user',
	ServerErrorEvent: 'environment',
	StreamingDeltaEvent: 'agent',
};

export const eventKindNames = Object.keys(eventSchemas) as KnownEventKindName[];

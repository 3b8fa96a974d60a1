import type {SimEvent} from './event-factory.js';

/**
 * The app server's stored copy of an event keeps its null fields; the agent server drops them
 * (exclude_none, on events/search and on the socket). The simulator's event log holds the agent
 * server's form; `storedForm` gives back what the app server stores: every optional field the
 * SDK's model declares with a None default, present and null when the agent left it unset.
 *
 * Field lists from the SDK's models (SDK @611629e): event/base.py (parent_id),
 * event/llm_convertible/{action,message,observation,system}.py, event/condenser.py,
 * event/conversation_error.py, event/hook_execution.py, event/error_classification.py,
 * llm/message.py (Message, MessageToolCall, ReasoningItemModel, ThinkingBlock), the tools'
 * definition.py files (terminal, file_editor, browser_use, apply_patch, task, delegate) and
 * sdk/tool/builtins (switch_llm, vision_inspect), conversation/goal/controller.py (GoalStatus).
 */

type Nullable = readonly string[];

const eventFields: Record<string, Nullable> = {
	ActionEvent: ['reasoning_content', 'responses_reasoning_item', 'action', 'critic_result', 'summary'],
	MessageEvent: ['llm_response_id', 'sender', 'critic_result'],
	AgentErrorEvent: ['classification'],
	ConversationErrorEvent: ['classification'],
	SystemPromptEvent: ['dynamic_context'],
	Condensation: ['summary', 'summary_offset'],
	ConversationStateUpdateEvent: ['value'],
	HookExecutionEvent: ['tool_name', 'reason', 'additional_context', 'error', 'action_id', 'message_id', 'hook_input'],
};

const actionFields: Record<string, Nullable> = {
	TerminalAction: ['timeout'],
	FileEditorAction: ['file_text', 'old_str', 'new_str', 'insert_line', 'view_range'],
	PlanningFileEditorAction: ['file_text', 'old_str', 'new_str', 'insert_line', 'view_range'],
	ReadFileAction: ['offset', 'limit'],
	GlobAction: ['path'],
	GrepAction: ['path', 'include'],
	TaskAction: ['description', 'resume', 'max_turns'],
	DelegateAction: ['ids', 'agent_types', 'tasks'],
	VisionInspectAction: ['profile_name'],
};

const observationFields: Record<string, Nullable> = {
	TerminalObservation: ['command', 'exit_code', 'full_output_save_dir'],
	FileEditorObservation: ['path', 'old_content', 'new_content'],
	PlanningFileEditorObservation: ['path', 'old_content', 'new_content'],
	BrowserObservation: ['screenshot_data', 'full_output_save_dir'],
	ApplyPatchObservation: ['commit'],
	SwitchLLMObservation: ['reason', 'active_model'],
	VisionInspectObservation: ['profile_name', 'model', 'base_url', 'answer'],
};

const metadataFields: Nullable = ['username', 'hostname', 'working_dir', 'py_interpreter_path'];
const messageFields: Nullable = ['tool_calls', 'tool_call_id', 'name', 'reasoning_content', 'responses_reasoning_item'];
const reasoningItemFields: Nullable = ['id', 'content', 'encrypted_content', 'status'];
const goalFields: Nullable = ['verdict'];

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A copy of `record` with each of `fields` null where it is absent (only when something is missing). */
function withNullFields<T>(record: T, fields: Nullable | undefined): T {
	if (!fields || !isRecord(record)) return record;
	let out: Json | null = null;
	for (const field of fields) {
		if (record[field] !== undefined) continue;
		out ??= {...record};
		out[field] = null;
	}
	return (out ?? record) as T;
}

function nested(record: Json, key: string, fill: (value: Json) => Json): Json {
	const value = record[key];
	if (!isRecord(value)) return record;
	const filled = fill(value);
	return filled === value ? record : {...record, [key]: filled};
}

/** The event as the app server stores it: nulls kept. The event itself is not changed. */
export function storedForm(event: SimEvent): SimEvent {
	let out: Json = withNullFields(event as Json, eventFields[event.kind]);
	if (out.parent_id === undefined) out = {...out, parent_id: null};
	out = nested(out, 'action', (action) => withNullFields(action, actionFields[String(action.kind)]));
	out = nested(out, 'observation', (observation) => nested(withNullFields(observation, observationFields[String(observation.kind)]), 'metadata', (metadata) => withNullFields(metadata, metadataFields)));
	out = nested(out, 'tool_call', (call) => withNullFields(call, ['responses_item_id']));
	out = nested(out, 'responses_reasoning_item', (item) => withNullFields(item, reasoningItemFields));
	out = nested(out, 'classification', (classification) => withNullFields(classification, ['error_id']));
	out = nested(out, 'llm_message', (message) => nested(withNullFields(message, messageFields), 'responses_reasoning_item', (item) => withNullFields(item, reasoningItemFields)));
	if (event.kind === 'ConversationStateUpdateEvent' && event.key === 'goal') out = nested(out, 'value', (value) => withNullFields(value, goalFields));
	return out as SimEvent;
}

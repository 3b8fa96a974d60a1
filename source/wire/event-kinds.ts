/**
 * Event kind names. People (and the seed document) use the short class name, `ActionEvent`;
 * the real agent server's `events/search?kind=` only matches the fully-qualified class path.
 * This table is the one place that knows the module paths (see docs/service-behaviour.md §3).
 */
const eventModule = 'openhands.sdk.event.';

export const qualifiedEventKinds = {
	ActionEvent: 'llm_convertible.action.ActionEvent',
	MessageEvent: 'llm_convertible.message.MessageEvent',
	ObservationEvent: 'llm_convertible.observation.ObservationEvent',
	UserRejectObservation: 'llm_convertible.observation.UserRejectObservation',
	AgentErrorEvent: 'llm_convertible.observation.AgentErrorEvent',
	SystemPromptEvent: 'llm_convertible.system.SystemPromptEvent',
	Condensation: 'condenser.Condensation',
	CondensationRequest: 'condenser.CondensationRequest',
	CondensationSummaryEvent: 'condenser.CondensationSummaryEvent',
	ConversationStateUpdateEvent: 'conversation_state.ConversationStateUpdateEvent',
	ConversationErrorEvent: 'conversation_error.ConversationErrorEvent',
	PauseEvent: 'user_action.PauseEvent',
	InterruptEvent: 'user_action.InterruptEvent',
	HookExecutionEvent: 'hook_execution.HookExecutionEvent',
	LLMCompletionLogEvent: 'llm_completion_log.LLMCompletionLogEvent',
	TokenEvent: 'token.TokenEvent',
	ACPToolCallEvent: 'acp_tool_call.ACPToolCallEvent',
} as const;

export type KnownEventKind = keyof typeof qualifiedEventKinds;

/** Kinds that only ever travel over the WebSocket and are never stored or searchable. */
export const streamOnlyEventKinds = ['StreamingDeltaEvent', 'ServerErrorEvent'] as const;

export const knownEventKinds = Object.keys(qualifiedEventKinds) as KnownEventKind[];

export function isKnownEventKind(kind: string): kind is KnownEventKind {
	return Object.hasOwn(qualifiedEventKinds, kind);
}

/** `ActionEvent` or `openhands.sdk.event.llm_convertible.action.ActionEvent` -> `ActionEvent`. */
export function shortEventKind(kind: string): string {
	const trimmed = kind.trim();
	const lastDot = trimmed.lastIndexOf('.');
	return lastDot === -1 ? trimmed : trimmed.slice(lastDot + 1);
}

/**
 * What to send as `kind=` to a real agent server. A known short name becomes its class path;
 * an already-qualified or unknown name is sent as typed (case-insensitive match on known names).
 */
export function qualifyEventKind(kind: string): string {
	const trimmed = kind.trim();
	if (trimmed.includes('.')) return trimmed;
	const known = knownEventKinds.find((name) => name.toLowerCase() === trimmed.toLowerCase());
	return known ? eventModule + qualifiedEventKinds[known] : trimmed;
}

/** Case-insensitive match of a kind filter (short or qualified) against an event's kind. */
export function eventKindMatches(filter: string, kind: string): boolean {
	return shortEventKind(filter).toLowerCase() === shortEventKind(kind).toLowerCase();
}

/** The kind a raw event claims (`ActionEvent`, also from a qualified name), or `(no kind)`. */
export function claimedKind(raw: unknown): string {
	const kind = raw !== null && typeof raw === 'object' ? (raw as {kind?: unknown}).kind : undefined;
	return typeof kind === 'string' && kind.trim() ? shortEventKind(kind) : '(no kind)';
}

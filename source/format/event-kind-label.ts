/**
 * Short names of event kinds for narrow columns (`ObservationEvent` → `observation`); the full
 * name is in the details. Unknown kinds keep their own name: it is what users search for.
 */
const kindLabels: Record<string, string> = {
	ActionEvent: 'action',
	ObservationEvent: 'observation',
	MessageEvent: 'message',
	UserRejectObservation: 'rejected',
	AgentErrorEvent: 'agent-error',
	ConversationErrorEvent: 'conv-error',
	SystemPromptEvent: 'system',
	Condensation: 'condensed',
	CondensationRequest: 'condense-req',
	CondensationSummaryEvent: 'cond-summary',
	ConversationStateUpdateEvent: 'state',
	PauseEvent: 'pause',
	InterruptEvent: 'interrupt',
	HookExecutionEvent: 'hook',
	LLMCompletionLogEvent: 'llm-log',
	TokenEvent: 'tokens',
	ACPToolCallEvent: 'acp-tool',
	StreamingDeltaEvent: 'delta',
	ServerErrorEvent: 'server-error',
};

export function kindLabel(kind: string): string {
	return kindLabels[kind] ?? kind;
}

import type {WireEvent} from './schemas/events.js';

/**
 * Why an agent failed, as the SDK classifies it (openhands-sdk/openhands/sdk/event/
 * error_classification.py, 2026-07): every AgentErrorEvent and ConversationErrorEvent of a newer
 * server carries `classification {kind, retryable, user_action, error_id?}`. `classify_error`
 * maps `MaxBudgetReached` to quota (user_action settings), `LLMRateLimitError` to rate_limit
 * (retryable, retry), `LLMAuthenticationError` to auth (settings), a malformed tool call to
 * agent_action (retryable, retry).
 *
 * Pure reads of parsed events, no zod (format/ reads them): the format, state and command layers
 * (the list's reason, its `error:<kind>` filter, the headless JSON, cause grouping) all read a
 * cause through here; state/error-causes.ts finds the cause in a log (`lastErrorCause`).
 */

export const failureKinds = ['auth', 'quota', 'rate_limit', 'config', 'transient', 'agent_action', 'internal', 'unknown'] as const;
export type FailureKind = (typeof failureKinds)[number];

export const failureActions = ['none', 'retry', 'settings'] as const;
export type FailureAction = (typeof failureActions)[number];

export type ErrorClassification = {
	/** One of the SDK's kinds; a kind this client does not know is `unknown` (see `reportedKind`). */
	kind: FailureKind;
	/** The kind as the server sent it, when it is not one of `failureKinds` (else null). */
	reportedKind: string | null;
	/** Null when the server did not say. */
	retryable: boolean | null;
	/** What a person can do: nothing, retry, or fix settings (the SDK's default is none). */
	userAction: FailureAction;
	errorId: string | null;
};

/** An error event's cause: what failed and, on newer servers, how the SDK classified it. */
export type ErrorCause = {
	eventKind: 'ConversationErrorEvent' | 'AgentErrorEvent';
	eventId: string;
	/** Server timestamp (naive, as sent). */
	timestamp: string;
	/** ConversationErrorEvent `code` (an exception class name, `LLMRateLimitError`); null for agent errors. */
	code: string | null;
	/** The tool an agent error answered; null for conversation errors. */
	toolName: string | null;
	/** The error text (ConversationErrorEvent `detail`, AgentErrorEvent `error`), as sent: may be long and unsanitized. */
	detail: string;
	classification: ErrorClassification | null;
};

function isOneOf<T extends string>(values: readonly T[], value: unknown): value is T {
	return typeof value === 'string' && (values as readonly string[]).includes(value);
}

/** A parsed `classification` (any shape) as the client reads it; null when there is none. */
export function readClassification(value: unknown): ErrorClassification | null {
	if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
	const record = value as Record<string, unknown>;
	const sent = typeof record.kind === 'string' ? record.kind : null;
	const kind = isOneOf(failureKinds, sent) ? sent : 'unknown';
	return {
		kind,
		reportedKind: sent !== null && sent !== kind ? sent : null,
		retryable: typeof record.retryable === 'boolean' ? record.retryable : null,
		userAction: isOneOf(failureActions, record.user_action) ? record.user_action : 'none',
		errorId: typeof record.error_id === 'string' && record.error_id !== '' ? record.error_id : null,
	};
}

/** The cause an error event states, or null for any other event. */
export function errorCauseOf(event: WireEvent): ErrorCause | null {
	if (event.kind === 'ConversationErrorEvent') {
		return {
			eventKind: event.kind,
			eventId: event.id,
			timestamp: event.timestamp,
			code: event.code,
			toolName: null,
			detail: event.detail,
			classification: readClassification(event.classification),
		};
	}
	if (event.kind === 'AgentErrorEvent') {
		return {
			eventKind: event.kind,
			eventId: event.id,
			timestamp: event.timestamp,
			code: null,
			toolName: event.tool_name,
			detail: event.error,
			classification: readClassification(event.classification),
		};
	}
	return null;
}

/** A cause as headless JSON prints it: the wire's own field names (snake_case), nothing renamed. */
export type ErrorCauseJson = {
	event_kind: ErrorCause['eventKind'];
	event_id: string;
	timestamp: string;
	code: string | null;
	tool_name: string | null;
	detail: string;
	classification: {kind: FailureKind; reported_kind: string | null; retryable: boolean | null; user_action: FailureAction; error_id: string | null} | null;
};

export function errorCauseJson(cause: ErrorCause): ErrorCauseJson {
	const {classification} = cause;
	return {
		event_kind: cause.eventKind,
		event_id: cause.eventId,
		timestamp: cause.timestamp,
		code: cause.code,
		tool_name: cause.toolName,
		detail: cause.detail,
		classification: classification
			? {kind: classification.kind, reported_kind: classification.reportedKind, retryable: classification.retryable, user_action: classification.userAction, error_id: classification.errorId}
			: null,
	};
}

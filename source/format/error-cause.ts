import type {ErrorCause, ErrorClassification, FailureKind} from '../wire/error-classification.js';
import {firstLine} from './event-values.js';
import {sanitizeLine} from './sanitize.js';

/**
 * Words for why an agent failed, where a person decides what to do about it: the list's reason
 * (`error · rate limit · retryable`, `error · quota: raise the budget`), the error rows and their
 * details. The remedy follows the SDK's `user_action`: `settings` names the setting to look at
 * for the kinds where the SDK's classifier says which one (error_classification.py maps auth
 * failures, budget exhaustion and bad model settings to `settings`).
 */

const kindWords: Record<FailureKind, string> = {
	auth: 'auth',
	quota: 'quota',
	rate_limit: 'rate limit',
	config: 'config',
	transient: 'transient',
	agent_action: 'agent action',
	internal: 'internal',
	unknown: 'unknown',
};

/** What to fix when the SDK says the user must change settings, by kind. */
const settingsRemedy: Partial<Record<FailureKind, string>> = {
	auth: 'check the LLM key',
	quota: 'raise the budget',
	config: 'check the LLM settings',
};

/** `rate limit`, `agent action`, or for a kind this client does not know, `unknown (billing)`. */
export function failureKindWords(classification: ErrorClassification): string {
	const words = kindWords[classification.kind];
	return classification.reportedKind ? `${words} (${sanitizeLine(firstLine(classification.reportedKind, 40))})` : words;
}

/**
 * The classification in a few words: `rate limit · retryable`, `quota: raise the budget`,
 * `auth: check the LLM key`, `internal · not retryable`.
 */
export function classificationWords(classification: ErrorClassification): string {
	const kind = failureKindWords(classification);
	const remedy = classification.userAction === 'settings' ? (settingsRemedy[classification.kind] ?? 'check the settings') : null;
	if (remedy) return `${kind}: ${remedy}${classification.retryable ? ' · retryable' : ''}`;
	if (classification.retryable === true) return `${kind} · retryable`;
	if (classification.retryable === false && classification.userAction === 'none') return `${kind} · not retryable`;
	return kind;
}

/**
 * The cause in one short line for a list row: the classification when there is one, else the
 * error's code (`RuntimeDisconnectedError`), else the first line of its text. Sanitized.
 */
export function causeShort(cause: ErrorCause): string {
	if (cause.classification) return classificationWords(cause.classification);
	if (cause.code) return sanitizeLine(firstLine(cause.code, 60));
	return sanitizeLine(firstLine(cause.detail, 80)) || 'no detail';
}

/**
 * The cause in a sentence part for a preview or a headless line: `rate limit · retryable:
 * LLMRateLimitError: litellm.RateLimitError: …` (the classification, the code, the first line).
 * Sanitized, at most about `max` characters.
 */
export function causeLong(cause: ErrorCause, max = 160): string {
	const parts: string[] = [];
	if (cause.classification) parts.push(classificationWords(cause.classification));
	if (cause.code) parts.push(sanitizeLine(firstLine(cause.code, 60)));
	const detail = sanitizeLine(firstLine(cause.detail, max));
	if (detail) parts.push(detail);
	const text = parts.join(': ') || 'no detail';
	return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

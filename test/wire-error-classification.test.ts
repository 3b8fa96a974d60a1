import {test} from 'node:test';
import assert from 'node:assert/strict';
import {causeLong, causeShort, classificationWords} from '../source/format/error-cause.js';
import {eventSummary} from '../source/format/event-summary.js';
import {lastErrorCause} from '../source/state/error-causes.js';
import {errorCauseOf, readClassification} from '../source/wire/error-classification.js';
import {parseEvent, parseEventLater} from '../source/wire/schemas/events.js';
import {wire} from './helpers/event-fixtures.js';

const conversationError = (code: string, detail: string, classification?: unknown) =>
	wire({kind: 'ConversationErrorEvent', source: 'environment', code, detail, ...(classification === undefined ? {} : {classification})});

test('the three remedies a person acts on read as the issue words them', () => {
	const words = (classification: Record<string, unknown>) => classificationWords(readClassification(classification)!);
	assert.equal(words({kind: 'rate_limit', retryable: true, user_action: 'retry'}), 'rate limit · retryable');
	assert.equal(words({kind: 'quota', retryable: false, user_action: 'settings'}), 'quota: raise the budget');
	assert.equal(words({kind: 'auth', retryable: false, user_action: 'settings'}), 'auth: check the LLM key');
	assert.equal(words({kind: 'config', retryable: false, user_action: 'settings'}), 'config: check the LLM settings');
	assert.equal(words({kind: 'transient', retryable: true, user_action: 'retry'}), 'transient · retryable');
	assert.equal(words({kind: 'agent_action', retryable: true, user_action: 'retry'}), 'agent action · retryable');
	assert.equal(words({kind: 'internal', retryable: false, user_action: 'none'}), 'internal · not retryable');
});

test('a kind or action this client does not know passes as unknown, keeping what was sent', () => {
	const read = readClassification({kind: 'billing_hold', retryable: false, user_action: 'call_support', error_id: 'err_9'})!;
	assert.deepEqual(read, {kind: 'unknown', reportedKind: 'billing_hold', retryable: false, userAction: 'none', errorId: 'err_9'});
	assert.equal(classificationWords(read), 'unknown (billing_hold) · not retryable');
	// Absent parts are absent, not guessed.
	assert.deepEqual(readClassification({kind: 'quota'}), {kind: 'quota', reportedKind: null, retryable: null, userAction: 'none', errorId: null});
	assert.equal(readClassification(null), null);
	assert.equal(readClassification('rate_limit'), null);
});

test('a malformed classification never costs the error event that carries it', () => {
	for (const classification of ['rate_limit', 7, [1], {kind: 4, retryable: 'yes', user_action: null}]) {
		const event = conversationError('LLMRateLimitError', 'slow down', classification);
		assert.equal(event.kind, 'ConversationErrorEvent', JSON.stringify(classification));
		assert.match(eventSummary(event).text, /^LLMRateLimitError/);
	}
	const partial = conversationError('X', 'y', {kind: 4, retryable: 'yes', user_action: 'retry'});
	assert.deepEqual(errorCauseOf(partial)?.classification, {kind: 'unknown', reportedKind: null, retryable: null, userAction: 'retry', errorId: null});
});

test('the cause of an error event, and the newest conversation error in a log', () => {
	const rate = conversationError('LLMRateLimitError', 'litellm.RateLimitError: 429\nretry after 20s', {kind: 'rate_limit', retryable: true, user_action: 'retry', error_id: 'err_1'});
	const cause = errorCauseOf(rate)!;
	assert.equal(cause.eventKind, 'ConversationErrorEvent');
	assert.equal(cause.code, 'LLMRateLimitError');
	assert.equal(causeShort(cause), 'rate limit · retryable');
	assert.equal(causeLong(cause), 'rate limit · retryable: LLMRateLimitError: litellm.RateLimitError: 429');
	// An old server: no classification, so the code says it.
	const bare = errorCauseOf(conversationError('RuntimeDisconnectedError', 'Lost connection'))!;
	assert.equal(causeShort(bare), 'RuntimeDisconnectedError');
	assert.equal(causeLong(bare), 'RuntimeDisconnectedError: Lost connection');
	const agent = wire({kind: 'AgentErrorEvent', tool_name: 'terminal', tool_call_id: 'c', error: 'bad args', classification: {kind: 'agent_action', retryable: true, user_action: 'retry'}});
	assert.equal(errorCauseOf(agent)?.toolName, 'terminal');
	assert.equal(errorCauseOf(wire({kind: 'PauseEvent', source: 'user'})), null);
	// The log holds unvalidated events too; only error events are validated to find the cause.
	const later = parseEventLater({kind: 'ConversationErrorEvent', id: 'z', timestamp: '2026-11-22T10:00:00', source: 'environment', code: 'MaxBudgetReached', detail: 'Budget exceeded', classification: {kind: 'quota', retryable: false, user_action: 'settings'}});
	assert.equal(causeShort(lastErrorCause([rate, agent, later])!), 'quota: raise the budget');
	assert.equal(lastErrorCause([rate, agent])?.code, 'LLMRateLimitError');
	assert.equal(lastErrorCause([agent]), null);
	assert.equal(lastErrorCause([agent], {agentErrors: true})?.toolName, 'terminal');
});

test('error rows and the hostile text an error may carry', () => {
	const row = eventSummary(conversationError('MaxBudgetReached', 'Budget exceeded: $10.02 > $10.00', {kind: 'quota', retryable: false, user_action: 'settings'}));
	assert.equal(row.text, 'MaxBudgetReached (quota: raise the budget): Budget exceeded: $10.02 > $10.00');
	assert.equal(row.tone, 'error');
	const hostile = errorCauseOf(parseEvent({kind: 'ConversationErrorEvent', id: 'h', timestamp: 't', source: 'environment', code: 'X\u001b]0;pwned\u0007', detail: 'a\u001b[31mred', classification: {kind: 'weird\u001b[2J'}}))!;
	for (const text of [causeShort(hostile), causeLong(hostile)]) assert.doesNotMatch(text, /\u001b|\u0007/);
});

import {test} from 'node:test';
import assert from 'node:assert/strict';
import {eventDetails} from '../source/format/event-details.js';
import {eventSummary} from '../source/format/event-summary.js';
import {trailingRepeat} from '../source/state/attention.js';
import {detailContext} from '../source/view/details/detail-context.js';
import {withoutNulls} from '../source/wire/schemas/common.js';
import {parseEvent, parseEventLater, settleEvent, type WireEvent} from '../source/wire/schemas/events.js';

/**
 * Absent keys are nulls (issue 21.1): the agent server drops null fields (exclude_none), the app
 * server's stored copy keeps them. The shapes here are the SDK's own: an invalid tool call is an
 * ActionEvent without `action` followed by an AgentErrorEvent with the same tool_call_id
 * (openhands-sdk/openhands/sdk/agent/agent.py `_emit_tool_error`).
 */

let counter = 0;
const stamp = () => {
	counter++;
	return {id: `ev-${counter}`, timestamp: `2026-11-22T10:00:${String(counter).padStart(2, '0')}.000001`};
};

/** The stored copy's form: every optional field present, null. */
function invalidCall(toolCallId: string, args: string, stored: boolean) {
	const nulls = stored ? {action: null, reasoning_content: null, responses_reasoning_item: null, critic_result: null, summary: null, parent_id: null} : {};
	return {
		kind: 'ActionEvent',
		...stamp(),
		source: 'agent',
		thought: [],
		thinking_blocks: [],
		tool_name: 'file_editor',
		tool_call_id: toolCallId,
		tool_call: {id: toolCallId, name: 'file_editor', arguments: args, origin: 'completion', ...(stored ? {responses_item_id: null} : {})},
		llm_response_id: 'resp-1',
		security_risk: 'UNKNOWN',
		...nulls,
	};
}

function agentError(toolCallId: string, stored: boolean) {
	return {
		kind: 'AgentErrorEvent',
		...stamp(),
		source: 'agent',
		tool_name: 'file_editor',
		tool_call_id: toolCallId,
		error: "Error validating args {\"command\": \"str_replace\"} for tool 'file_editor': 1 validation error for FileEditorAction\npath\n  Field required",
		classification: {kind: 'agent_action', retryable: true, user_action: 'retry', ...(stored ? {error_id: null} : {})},
		...(stored ? {parent_id: null} : {}),
	};
}

const lines = (event: WireEvent, events: WireEvent[]) => {
	const doc = eventDetails(event, 100, detailContext(events, event, false));
	return doc.lines(0, doc.lineCount).map((line) => line.text);
};

test('an ActionEvent without `action` is an invalid call of its tool, in both serialisations', () => {
	const args = '{"command": "str_replace", "old_str": "print(x)", "new_str": "log.info(x)"}';
	for (const stored of [false, true]) {
		const action = parseEvent(invalidCall('call-1', args, stored));
		const error = parseEvent(agentError('call-1', stored));
		assert.equal(action.kind, 'ActionEvent', `stored=${stored}: ${JSON.stringify(action).slice(0, 200)}`);
		const summary = eventSummary(action);
		assert.equal(summary.text, 'file_editor invalid call · {"command":"str_replace","old_str":"print(x)","new_str":"log.info(x)"}');
		assert.equal(summary.tone, 'error');
		const details = lines(action, [action, error]);
		assert.ok(details.includes('tool           file_editor (invalid call)'), details.join('\n'));
		assert.ok(details.some((line) => line.startsWith('invalid call ') || line === 'invalid call'), details.join('\n'));
		// The arguments it sent, and the error that answered it (paired by tool_call_id).
		assert.ok(details.some((line) => line.includes('"old_str": "print(x)"')), details.join('\n'));
		assert.ok(details.some((line) => line.startsWith('result · AgentErrorEvent')), details.join('\n'));
		assert.ok(details.some((line) => line.includes("Error validating args")), details.join('\n'));
		assert.ok(details.includes('cause          agent action · retryable'), details.join('\n'));
		// The error's details name the call it answered.
		const errorDetails = lines(error, [action, error]);
		assert.ok(errorDetails.some((line) => /^action +invalid call · \{"command":"str_replace"/.test(line)), errorDetails.join('\n'));
	}
});

test('arguments that were not JSON read as such (the SDK replaces them with a marker)', () => {
	const marker = JSON.stringify({_openhands_malformed_tool_call: true, error: 'Expecting value: line 1 column 1'});
	assert.equal(eventSummary(parseEvent(invalidCall('c', marker, false))).text, 'file_editor invalid call · arguments were not JSON');
});

test('four identical invalid calls are a repeat run, exactly as four identical valid calls', () => {
	const args = '{"command": "str_replace", "path": ""}';
	for (const stored of [false, true]) {
		const events: WireEvent[] = [];
		for (let attempt = 0; attempt < 4; attempt++) {
			events.push(parseEvent(invalidCall(`call-${attempt}`, args, stored)), parseEvent(agentError(`call-${attempt}`, stored)));
		}
		assert.deepEqual(trailingRepeat(events), {tool: 'file_editor', count: 4});
		// Events validated on first use count the same.
		const later = events.map((event) => parseEventLater(JSON.parse(JSON.stringify(event))));
		assert.deepEqual(trailingRepeat(later), {tool: 'file_editor', count: 4});
	}
});

test('a state field that became None arrives without value, and reads as none', () => {
	const absent = parseEvent({kind: 'ConversationStateUpdateEvent', ...stamp(), source: 'environment', key: 'security_analyzer'});
	const stored = parseEvent({kind: 'ConversationStateUpdateEvent', ...stamp(), source: 'environment', key: 'security_analyzer', value: null});
	for (const event of [absent, stored]) {
		assert.equal(event.kind, 'ConversationStateUpdateEvent');
		assert.equal(eventSummary(event).text, 'security_analyzer → none');
		const doc = eventDetails(event, 80);
		assert.ok(doc.lines(0, doc.lineCount).some((line) => /^value +none/.test(line.text)));
	}
});

test('null and absent are one form from the parser on, at any depth, and nothing is allocated without nulls', () => {
	const live = {a: 1, b: {c: 'x', d: [1, null, {e: 2}]}};
	assert.equal(withoutNulls(live), live);
	assert.deepEqual(withoutNulls({a: 1, b: null, c: {d: null, e: [null, {f: null}]}}), {a: 1, c: {e: [null, {}]}});
	// Both forms of an observation with nested optional fields settle to the same event.
	const observation = (stored: boolean) => ({
		kind: 'ObservationEvent',
		id: 'o1',
		timestamp: '2026-11-22T10:00:00',
		source: 'environment',
		tool_name: 'terminal',
		tool_call_id: 'c1',
		action_id: 'a1',
		observation: {
			kind: 'TerminalObservation',
			content: [{type: 'text', text: 'ok'}],
			is_error: false,
			command: 'ls',
			exit_code: 0,
			timeout: false,
			metadata: {exit_code: 0, pid: 12, prefix: '', suffix: '', ...(stored ? {username: null, hostname: null, working_dir: null, py_interpreter_path: null} : {})},
			...(stored ? {full_output_save_dir: null} : {}),
		},
		...(stored ? {parent_id: null} : {}),
	});
	assert.deepEqual(parseEvent(observation(true)), parseEvent(observation(false)));
	assert.deepEqual(settleEvent(parseEventLater(observation(true))), settleEvent(parseEventLater(observation(false), {mayHoldEncryptedContent: false, text: JSON.stringify(observation(false))})));
	// An unknown kind's raw fields and an event without an id are the same in both forms too.
	const future = (stored: boolean) => ({kind: 'FutureEvent', timestamp: 't', source: 'environment', note: 'x', ...(stored ? {extra: null, id: null} : {})});
	assert.deepEqual(parseEvent(future(true)), parseEvent(future(false)));
});

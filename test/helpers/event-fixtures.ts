import {parseEvent, type WireEvent} from '../../source/wire/schemas/events.js';

/**
 * Hand-written events in the wire's own JSON shapes (docs/service-behaviour.md §4), run through the real
 * parser, so the format and view tests see exactly what the client sees.
 */

let counter = 0;

export function resetFixtureClock(): void {
	counter = 0;
}

function stamp(): {id: string; timestamp: string} {
	counter++;
	const seconds = String(counter % 60).padStart(2, '0');
	const minutes = String(Math.floor(counter / 60) % 60).padStart(2, '0');
	const hours = String(10 + Math.floor(counter / 3600)).padStart(2, '0');
	return {id: `ev-${String(counter).padStart(6, '0')}`, timestamp: `2026-11-22T${hours}:${minutes}:${seconds}.000001`};
}

export function wire(json: Record<string, unknown>): WireEvent {
	return parseEvent({...stamp(), ...json});
}

export function terminalAction(command: string, extra: Record<string, unknown> = {}): WireEvent {
	const callId = `call_${counter + 1}`;
	return wire({
		kind: 'ActionEvent',
		source: 'agent',
		thought: [{type: 'text', text: 'Run the test suite to see what fails.'}],
		action: {kind: 'TerminalAction', command, is_input: false},
		tool_name: 'terminal',
		tool_call_id: callId,
		tool_call: {id: callId, name: 'terminal', arguments: JSON.stringify({command, is_input: false}), origin: 'completion'},
		llm_response_id: 'resp_1',
		security_risk: 'LOW',
		summary: 'run the tests',
		...extra,
	});
}

export function terminalObservation(action: WireEvent, output: string, exitCode: number, extra: Record<string, unknown> = {}): WireEvent {
	if (action.kind !== 'ActionEvent') throw new Error('observation needs an ActionEvent');
	return wire({
		kind: 'ObservationEvent',
		source: 'environment',
		tool_name: action.tool_name,
		tool_call_id: action.tool_call_id,
		action_id: action.id,
		observation: {
			kind: 'TerminalObservation',
			content: [{type: 'text', text: output}],
			is_error: false,
			command: action.action?.kind === 'TerminalAction' ? action.action.command : undefined,
			exit_code: exitCode,
			metadata: {exit_code: exitCode, working_dir: '/workspace/project'},
		},
		...extra,
	});
}

export function message(role: string, text: string, extra: Record<string, unknown> = {}): WireEvent {
	return wire({
		kind: 'MessageEvent',
		source: role === 'assistant' ? 'agent' : 'user',
		llm_message: {role, content: [{type: 'text', text}]},
		...extra,
	});
}

export function stateUpdate(key: string, value: unknown): WireEvent {
	return wire({kind: 'ConversationStateUpdateEvent', source: 'environment', key, value});
}

/** A realistic run: message, a few tool calls with results, a condensation, state updates. */
export function sampleRun(): WireEvent[] {
	const events: WireEvent[] = [];
	events.push(message('user', 'Fix the failing tests in src/app.py'));
	events.push(stateUpdate('execution_status', 'running'));
	for (let round = 0; round < 3; round++) {
		const action = terminalAction(`pytest -q tests/test_${round}.py`);
		events.push(action, terminalObservation(action, `F.\nFAILED tests/test_${round}.py::test_x\n1 failed, 1 passed`, 1));
	}

	const ids = events.slice(0, 4).map((event) => event.id);
	events.push(
		wire({
			kind: 'Condensation',
			source: 'environment',
			forgotten_event_ids: ids,
			summary: 'The user asked to fix tests; pytest shows test_x failing.',
			summary_offset: 1,
			llm_response_id: 'resp_c',
		}),
	);
	events.push(stateUpdate('stats', {usage_to_metrics: {agent: {accumulated_cost: 0.42}}}));
	events.push(message('assistant', 'All tests pass now.'));
	events.push(stateUpdate('execution_status', 'finished'));
	return events;
}

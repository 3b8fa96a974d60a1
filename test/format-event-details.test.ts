import {test} from 'node:test';
import assert from 'node:assert/strict';
import {type DetailContext, eventDetails} from '../source/format/event-details.js';
import type {DetailDocument} from '../source/format/event-detail-document.js';
import {cellWidth} from '../source/format/width.js';
import {parseEvent, type WireEvent} from '../source/wire/schemas/events.js';
import {eventSummary} from '../source/format/event-summary.js';
import {World} from '../source/simulator/world.js';
import {detailContext} from '../source/view/details/detail-context.js';
import {message, stateUpdate, terminalAction, terminalObservation, wire} from './helpers/event-fixtures.js';

function allText(doc: DetailDocument): string[] {
	return doc.lines(0, doc.lineCount).map((line) => line.text);
}

function details(event: WireEvent, context: DetailContext = {}, width = 100): string[] {
	return allText(eventDetails(event, width, context));
}

function has(lines: readonly string[], pattern: RegExp): void {
	assert.ok(lines.some((line) => pattern.test(line)), `no line matches ${pattern}:\n${lines.join('\n')}`);
}

test('a tool call shows tool, arguments pretty-printed, thought, reasoning, risk, summary, critic and its observation', () => {
	const action = terminalAction('pytest -q', {
		reasoning_content: 'The failure is probably in the fixture.',
		responses_reasoning_item: {id: 'rs_1', summary: ['Check the fixture first'], encrypted_content: 'gAAAA-SECRET-REASONING'},
		critic_result: {score: 0.82, message: 'reasonable step'},
		security_risk: 'MEDIUM',
		thinking_blocks: [{type: 'thinking', thinking: 'Fixture order matters here.', signature: 'sig'}, {type: 'redacted_thinking', data: 'REDACTED-BLOB'}],
	});
	const observation = terminalObservation(action, 'F.\nFAILED tests/test_app.py::test_x\n1 failed, 1 passed', 1);
	assert.equal(observation.kind, 'ObservationEvent');
	if (observation.kind !== 'ObservationEvent') return;
	const lines = details(action, {outcome: observation});
	has(lines, /^ActionEvent · agent · /);
	has(lines, /^tool +terminal \(TerminalAction\)$/);
	has(lines, /^action +\$ pytest -q$/);
	has(lines, /^security risk +MEDIUM$/);
	has(lines, /^summary +run the tests$/);
	has(lines, /^critic +0\.82 · reasonable step$/);
	has(lines, /^thought$/);
	has(lines, /Run the test suite to see what fails\./);
	has(lines, /^reasoning$/);
	has(lines, /The failure is probably in the fixture\./);
	has(lines, /^reasoning summary$/);
	has(lines, /• Check the fixture first/);
	has(lines, /^thinking$/);
	has(lines, /Fixture order matters here\./);
	has(lines, /\(1 redacted thinking block\)/);
	assert.ok(!lines.join('\n').includes('REDACTED-BLOB'));
	has(lines, /^arguments$/);
	// Pretty-printed from tool_call.arguments (a JSON string).
	has(lines, /^ +.*"command": "pytest -q"/);
	has(lines, /^result · ObservationEvent · /);
	has(lines, /^exit code +1$/);
	has(lines, /^is error +no$/);
	has(lines, /^output \(3 lines\)$/);
	has(lines, /FAILED tests\/test_app\.py::test_x/);
	assert.ok(!lines.join('\n').includes('SECRET-REASONING'), 'encrypted_content must never be rendered');
	assert.ok(!lines.join('\n').includes('gAAAA'));
});

test('a call with no answer yet says so; a rejection by the user or a hook, and an agent error, are shown as the result', () => {
	const action = terminalAction('rm -rf build');
	has(details(action), /^result +none yet/);
	const byUser = wire({kind: 'UserRejectObservation', tool_name: 'terminal', tool_call_id: 'c', action_id: action.id, rejection_reason: 'Not on my machine'});
	const byHook = wire({kind: 'UserRejectObservation', tool_name: 'terminal', tool_call_id: 'c', action_id: action.id, rejection_reason: 'blocked: rm -rf', rejection_source: 'hook'});
	const agentError = wire({
		kind: 'AgentErrorEvent',
		tool_name: 'terminal',
		tool_call_id: 'c',
		error: 'Tool call arguments are not valid JSON',
		classification: {kind: 'agent_action', retryable: false, user_action: 'none', error_id: 'err-1'},
	});
	for (const [outcome, expected] of [
		[byUser, /^rejected by +user$/],
		[byHook, /^rejected by +a hook \(pre-tool-use\)$/],
		[agentError, /^error +Tool call arguments are not valid JSON$/],
	] as const) {
		if (outcome.kind !== 'UserRejectObservation' && outcome.kind !== 'AgentErrorEvent') assert.fail('fixture');
		const lines = details(action, {outcome});
		has(lines, new RegExp(`^result · ${outcome.kind}`));
		has(lines, expected);
	}

	has(details(action, {outcome: byUser as never}), /^reason +Not on my machine$/);
	const errorLines = details(action, {outcome: agentError as never});
	has(errorLines, /^cause +agent action · not retryable$/);
	has(errorLines, /^retryable +no$/);
	has(errorLines, /^error id +err-1$/);
	// Seen from the other side, an observation names the action it answers.
	if (action.kind !== 'ActionEvent') return;
	const answered = details(byHook, {action});
	has(answered, /^answers · ActionEvent/);
	has(answered, /^action +\$ rm -rf build$/);
	has(details(byHook, {action: null}), /not in the loaded log/);
});

test('a condensation shows how much was forgotten, where the summary sits, and lists the forgotten events on request', () => {
	const forgotten = [message('user', 'Fix the failing tests'), terminalAction('pytest -q')];
	const condensation = wire({
		kind: 'Condensation',
		forgotten_event_ids: [...forgotten.map((event) => event.id), 'gone-1'],
		summary: 'User wants the tests fixed; pytest fails in test_x.',
		summary_offset: 1,
		llm_response_id: 'resp_c',
	});
	const closed = details(condensation, {forgotten});
	has(closed, /^forgotten +3 events \(2 in the loaded log\)$/);
	has(closed, /^summary offset +1: the summary is inserted at position 1/);
	has(closed, /User wants the tests fixed/);
	has(closed, /enter shows them/);
	assert.ok(!closed.some((line) => line.includes('$ pytest -q')));
	const open = details(condensation, {forgotten, showForgotten: true});
	has(open, /message +user: Fix the failing tests/);
	has(open, /action +\$ pytest -q/);
	has(open, /not in the loaded log \(1\)/);
	has(open, /^ +gone-1$/);
	const noOffset = wire({kind: 'Condensation', forgotten_event_ids: [], llm_response_id: 'r'});
	has(details(noOffset), /^summary offset +none: the summary is not inserted/);
});

test('messages, conversation errors, state updates, hooks and unknown kinds', () => {
	const msg = details(message('assistant', 'I fixed it.\nAll green.', {activated_skills: ['github', 'pytest'], sender: 'coder'}));
	has(msg, /^role +assistant$/);
	has(msg, /^sender +coder$/);
	has(msg, /^skills +github, pytest$/);
	has(msg, /^ +All green\.$/);
	const error = details(wire({kind: 'ConversationErrorEvent', source: 'environment', code: 'LLMAuthError', detail: 'API key rejected', classification: {kind: 'auth', retryable: false, user_action: 'settings'}}));
	has(error, /^code +LLMAuthError$/);
	has(error, /^detail +API key rejected$/);
	has(error, /^cause +auth: check the LLM key$/);
	has(error, /^user action +settings$/);
	const stats = details(stateUpdate('stats', {usage_to_metrics: {agent: {accumulated_cost: 1.5, model_name: 'claude'}}}));
	has(stats, /^key +stats$/);
	has(stats, /^cost +\$1\.50$/);
	has(stats, /"accumulated_cost": 1\.5/);
	has(details(stateUpdate('execution_status', 'paused')), /^value +paused$/);
	const hook = details(wire({kind: 'HookExecutionEvent', source: 'hook', hook_event_type: 'PreToolUse', hook_command: './check.sh', tool_name: 'terminal', blocked: true, success: true, exit_code: 2, stdout: 'checked', stderr: 'nope', reason: 'rm is not allowed'}));
	for (const pattern of [/^hook +PreToolUse$/, /^command +\.\/check\.sh$/, /^blocked +yes$/, /^exit code +2$/, /^reason +rm is not allowed$/, /^stdout$/, /^ +checked$/, /^stderr$/, /^ +nope$/]) has(hook, pattern);
	const unknown = details(wire({kind: 'TeleportEvent', where: {planet: 'mars'}, encrypted_content: 'TOP-SECRET'}));
	has(unknown, /^kind +TeleportEvent$/);
	has(unknown, /^raw event$/);
	has(unknown, /"planet": "mars"/);
	assert.ok(!unknown.join('\n').includes('TOP-SECRET'));
});

test('hostile text stays escaped in every line', () => {
	const hostile = 'ok\u001B]52;c;ZXZpbA==\u0007 then \u001B[2J\u001B[5A\rEVIL\u0000\u0008\u009D0;title\u009C';
	const action = terminalAction(`echo ${hostile}`, {thought: [{type: 'text', text: hostile}], summary: hostile});
	const observation = terminalObservation(action, `${hostile}\n${hostile}`, 0);
	const lines = [...details(action, {outcome: observation as never}), ...details(observation), ...details(message('user', hostile))];
	for (const line of lines) assert.ok(!/[\u0000-\u001F\u007F-\u009F]/.test(line), `control character in ${JSON.stringify(line)}`);
	has(lines, /EVIL/);
});

test('a 5 MB observation is indexed once and each page costs only its own lines', () => {
	const action = terminalAction('cat huge.log');
	const body = Array.from({length: 100_000}, (_, index) => `line ${index} ${'x'.repeat(40)}`).join('\n');
	assert.ok(body.length > 5_000_000);
	const observation = terminalObservation(action, body, 0);
	let started = performance.now();
	const doc = eventDetails(observation, 80);
	const build = performance.now() - started;
	assert.ok(doc.lineCount > 100_000);
	started = performance.now();
	for (let page = 0; page < 200; page++) doc.lines(page * 500, page * 500 + 40);
	const paging = (performance.now() - started) / 200;
	assert.match(doc.lines(doc.lineCount - 1, doc.lineCount)[0]?.text ?? '', /line 99999/);
	// Relative, so a busy machine slows both sides alike: a page must cost a tiny fraction of the
	// one-time index (it walks only its own lines). The absolute bound only catches a blow-up.
	assert.ok(paging * 50 < build, `a page took ${paging.toFixed(2)} ms against ${build.toFixed(0)} ms to index`);
	assert.ok(build < 10_000, `building took ${build.toFixed(0)} ms`);
	// One 5 MB line becomes width-sized pieces, all reachable.
	const oneLine = eventDetails(terminalObservation(action, 'y'.repeat(5 * 1024 * 1024), 0), 80);
	assert.ok(oneLine.lineCount > 60_000);
	assert.ok(oneLine.lines(oneLine.lineCount - 1, oneLine.lineCount)[0]!.text.includes('y'));
});

test('long text wraps to the width in cells: prose at spaces, wide characters never split', () => {
	const prose = message('user', `${'word '.repeat(60)}\n${'漢字'.repeat(50)}\n${'👩‍👩‍👧'.repeat(30)}`);
	const lines = details(prose, {}, 40);
	for (const line of lines) assert.ok(cellWidth(line) <= 40, `wider than 40: ${JSON.stringify(line)}`);
	has(lines, /^ {2}(word ?){7}$/);
	assert.ok(lines.some((line) => line.includes('漢字')));
	assert.ok(!lines.join('').includes('\uFFFD'), 'no broken surrogate');
});

test('deeply nested arguments do not overflow the stack', () => {
	const deep = '['.repeat(100_000) + ']'.repeat(100_000);
	const action = wire({
		kind: 'ActionEvent',
		tool_name: 'mcp',
		tool_call_id: 'c',
		thought: [],
		action: {kind: 'MCPToolAction', data: {}},
		tool_call: {id: 'c', name: 'mcp', arguments: deep, origin: 'completion'},
	});
	assert.doesNotThrow(() => eventDetails(action, 80));
});

test('every event the simulator produces (hostile text on) builds details and a summary of clean lines', () => {
	const world = new World({seed: 5, conversations: 30, maxRunningSandboxes: 5, startTaskPhaseMs: 0, sandboxTransitionMs: 0});
	world.hostile = true;
	let count = 0;
	for (const conversation of world.conversationList()) {
		const events = world.events(conversation).map((event) => parseEvent(JSON.parse(JSON.stringify(event))));
		for (const event of events) {
			const summary = eventSummary(event);
			assert.ok(!/[\u0000-\u001F\u007F-\u009F]/.test(Object.values(summary).join('')), `summary of ${event.kind}`);
			const context = detailContext(events, event, true);
			const doc = eventDetails(event, 80, context);
			for (const line of doc.lines(0, doc.lineCount)) {
				assert.ok(!/[\u0000-\u001F\u007F-\u009F]/.test(line.text), `control character in details of ${event.kind}: ${JSON.stringify(line.text)}`);
				assert.ok(!line.text.includes('\n'));
			}

			assert.ok(!doc.lines(0, doc.lineCount).some((line) => /gAAAA|encrypted_content": "[^[]/.test(line.text)), 'reasoning ciphertext must not be shown');
			count++;
		}
	}

	assert.ok(count > 500, `only ${count} events`);
});

test('a refused terminal command: is_error decides, the exit code does not read as still running', () => {
	const refused = wire({
		kind: 'ObservationEvent',
		tool_name: 'terminal',
		tool_call_id: 'c',
		action_id: 'a',
		observation: {kind: 'TerminalObservation', content: [{type: 'text', text: 'Cannot execute multiple commands at once.'}], is_error: true, command: 'a\nb', metadata: {exit_code: -1, pid: -1}},
	});
	const lines = details(refused);
	has(lines, /^exit code +none: the command failed or was refused/);
	has(lines, /^is error +yes$/);
	assert.ok(!lines.some((line) => line.includes('still running')), lines.join('\n'));
});

test('the times of the other event in a pair (an action\'s result, the action an observation answers) carry the zone, as the heading\'s does', () => {
	const action = terminalAction('pytest -q');
	const observation = terminalObservation(action, '1 passed', 0);
	if (observation.kind !== 'ObservationEvent' || action.kind !== 'ActionEvent') throw new Error('fixtures');
	const naive = (text: string) => /\d{2}:\d{2}:\d{2}(?:\.\d+)?$/.test(text);
	assert.ok(naive(action.timestamp) && naive(observation.timestamp), 'the fixtures are naive local times');
	const zoned = details(action, {outcome: observation, zone: 'UTC+1'});
	has(zoned, /^ActionEvent · agent · \S+ UTC\+1$/);
	has(zoned, /^result · ObservationEvent · \S+ UTC\+1$/);
	has(details(observation, {action, zone: 'UTC+1'}), /^answers · ActionEvent · \S+ UTC\+1$/);
	const unknown = details(action, {outcome: observation});
	has(unknown, /^result · ObservationEvent · \S+ \(server local time, zone not known yet\)$/);
});

test('an observation\'s extended_content (a rule the service injected) shows in its details and its action\'s', () => {
	const action = terminalAction('vim build/app.js');
	const base = terminalObservation(action, 'done', 0) as unknown as Record<string, unknown>;
	const observation = wire({...base, id: 'obs-ext', extended_content: [{type: 'text', text: 'Path rule triggered: never edit generated files under build/'}]});
	if (observation.kind !== 'ObservationEvent') throw new Error('fixture');
	for (const lines of [details(observation), details(action, {outcome: observation})]) {
		has(lines, /^added by agent context$/);
		has(lines, /Path rule triggered: never edit generated files under build\//);
	}

	const without = terminalObservation(action, 'done', 0);
	assert.ok(!details(without).some((line) => line === 'added by agent context'));
	has(details(without), /^output \(1 line\)$/);
});

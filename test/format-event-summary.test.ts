import {test} from 'node:test';
import assert from 'node:assert/strict';
import {eventSummary} from '../source/format/event-summary.js';
import {stringWork} from './helpers/string-work.js';
import {message, stateUpdate, terminalAction, terminalObservation, wire} from './helpers/event-fixtures.js';

const text = (event: Parameters<typeof eventSummary>[0]) => eventSummary(event).text;

test('a terminal call shows the command; its observation shows exit code, lines and first line', () => {
	const action = terminalAction('pytest -q');
	const summary = eventSummary(action);
	assert.equal(summary.text, '$ pytest -q');
	assert.equal(summary.kind, 'ActionEvent');
	assert.equal(summary.source, 'agent');
	assert.match(summary.time, /^\d\d:\d\d:\d\d/);
	assert.equal(summary.tone, 'normal');
	const failed = eventSummary(terminalObservation(action, 'F.\nFAILED test_x\n1 failed', 1));
	assert.equal(failed.text, 'exit 1 · 3 lines · F.');
	assert.equal(failed.tone, 'error');
	const ok = eventSummary(terminalObservation(action, 'all good\n', 0));
	assert.equal(ok.text, 'exit 0 · all good');
	assert.equal(ok.tone, 'normal');
	assert.equal(text(terminalObservation(action, 'partial', -1)), 'still running · partial');
	assert.equal(text(terminalAction('cd /x &&\n  make')), '$ cd /x && …');
	assert.equal(text(terminalAction('y', {action: {kind: 'TerminalAction', command: 'y', is_input: true}})), 'input: y');
});

test('legacy ExecuteBash* and output-style observations read like the new ones', () => {
	const action = wire({
		kind: 'ActionEvent',
		tool_name: 'execute_bash',
		tool_call_id: 'c1',
		action: {kind: 'ExecuteBashAction', command: 'ls -la'},
		thought: [],
	});
	assert.equal(text(action), '$ ls -la');
	const observation = wire({
		kind: 'ObservationEvent',
		tool_name: 'execute_bash',
		tool_call_id: 'c1',
		action_id: action.id,
		observation: {kind: 'ExecuteBashObservation', output: 'a\nb\n', exit_code: 2},
	});
	assert.equal(text(observation), 'exit 2 · 2 lines · a');
	assert.equal(eventSummary(observation).tone, 'error');
});

test('file edits, task lists, browsing, think and finish', () => {
	const act = (action: Record<string, unknown>, tool = 'file_editor') => text(wire({kind: 'ActionEvent', tool_name: tool, tool_call_id: 'c', action, thought: []}));
	assert.equal(act({kind: 'FileEditorAction', command: 'str_replace', path: 'src/app.py', old_str: 'a', new_str: 'b'}), 'edit src/app.py (str_replace)');
	assert.equal(act({kind: 'FileEditorAction', command: 'view', path: 'src'}), 'view src');
	assert.equal(act({kind: 'FileEditorAction', command: 'create', path: 'new.py', file_text: ''}), 'create new.py');
	assert.equal(
		act({kind: 'TaskTrackerAction', command: 'plan', task_list: [{title: 'a', status: 'done'}, {title: 'b', status: 'in_progress'}, {title: 'c', status: 'todo'}]}, 'task_tracker'),
		'tasks: plan 3 tasks (1 done, 1 in progress)',
	);
	assert.equal(act({kind: 'BrowserNavigateAction', url: 'https://example.com/docs'}, 'browser_navigate'), 'browse https://example.com/docs');
	assert.equal(act({kind: 'BrowserGoBackAction'}, 'browser_go_back'), 'browser go back');
	assert.equal(act({kind: 'ThinkAction', thought: 'Maybe the fixture\nis stale'}, 'think'), 'think: Maybe the fixture');
	assert.equal(act({kind: 'FinishAction', message: 'Done: all tests pass.'}, 'finish'), 'finish: Done: all tests pass.');
	assert.equal(act({kind: 'GrepAction', pattern: 'TODO', path: 'src'}, 'grep'), 'grep TODO in src');
	const editObs = wire({
		kind: 'ObservationEvent',
		tool_name: 'file_editor',
		tool_call_id: 'c',
		action_id: 'a',
		observation: {kind: 'FileEditorObservation', content: [{type: 'text', text: 'edited'}], command: 'str_replace', path: 'src/app.py'},
	});
	assert.equal(text(editObs), 'str_replace src/app.py ok');
});

test('messages, rejections, errors, condensations, state updates, hooks, pause', () => {
	assert.equal(text(message('user', '\n\nFix the tests\nplease')), 'user: Fix the tests');
	assert.equal(text(message('assistant', 'Hi', {sender: 'planner', activated_skills: ['github']})), 'assistant (planner): Hi [1 skill]');
	const rejectedByUser = eventSummary(wire({kind: 'UserRejectObservation', tool_name: 'terminal', tool_call_id: 'c', action_id: 'a', rejection_reason: 'too risky'}));
	assert.equal(rejectedByUser.text, 'rejected by user: terminal · too risky');
	assert.equal(rejectedByUser.tone, 'warn');
	const blocked = text(wire({kind: 'UserRejectObservation', tool_name: 'terminal', tool_call_id: 'c', action_id: 'a', rejection_reason: 'rm -rf blocked', rejection_source: 'hook'}));
	assert.equal(blocked, 'blocked by hook: terminal · rm -rf blocked');
	const agentError = eventSummary(wire({kind: 'AgentErrorEvent', tool_name: 'terminal', tool_call_id: 'c', error: 'Invalid JSON in arguments'}));
	assert.deepEqual([agentError.text, agentError.tone], ['terminal error: Invalid JSON in arguments', 'error']);
	const convError = eventSummary(wire({kind: 'ConversationErrorEvent', source: 'environment', code: 'LLMRateLimitError', detail: 'rate limited\nretry later'}));
	assert.deepEqual([convError.text, convError.tone], ['LLMRateLimitError: rate limited', 'error']);
	const condensation = wire({kind: 'Condensation', forgotten_event_ids: Array.from({length: 12}, (_, i) => `e${i}`), summary: 'User wants tests fixed.\nMore.', llm_response_id: 'r'});
	assert.equal(text(condensation), 'forgot 12 events · User wants tests fixed.');
	assert.equal(text(stateUpdate('execution_status', 'running')), 'execution_status → running');
	assert.equal(eventSummary(stateUpdate('execution_status', 'waiting_for_confirmation')).tone, 'warn');
	assert.equal(text(stateUpdate('stats', {usage_to_metrics: {agent: {accumulated_cost: 0.3}, condenser: {accumulated_cost: 0.12}}})), 'stats: $0.42');
	assert.equal(text(stateUpdate('full_state', {execution_status: 'idle', agent: {}})), 'full state · execution_status idle');
	assert.equal(text(stateUpdate('confirmation_policy', {kind: 'AlwaysConfirm'})), 'confirmation_policy → {"kind":"AlwaysConfirm"}');
	const hook = eventSummary(wire({kind: 'HookExecutionEvent', source: 'hook', hook_event_type: 'PreToolUse', tool_name: 'terminal', blocked: true, reason: 'dangerous command'}));
	assert.deepEqual([hook.text, hook.tone, hook.source], ['hook PreToolUse terminal blocked: dangerous command', 'warn', 'hook']);
	const hookFailed = text(wire({kind: 'HookExecutionEvent', hook_event_type: 'PostToolUse', success: false, exit_code: 3, stderr: 'lint failed'}));
	assert.equal(hookFailed, 'hook PostToolUse failed exit 3: lint failed');
	assert.equal(text(wire({kind: 'PauseEvent'})), 'paused by user');
	assert.equal(text(wire({kind: 'SystemPromptEvent', system_prompt: {type: 'text', text: 'You are…'}, tools: [{}, {}]})), 'system prompt · 2 tools');
});

test('unknown kinds, unknown actions and invalid known kinds are named, not dropped', () => {
	const unknown = eventSummary(wire({kind: 'openhands.sdk.event.future.TeleportEvent', where: 'mars'}));
	assert.deepEqual([unknown.kind, unknown.text, unknown.tone], ['TeleportEvent', 'unknown: TeleportEvent', 'warn']);
	const invalid = text(wire({kind: 'ObservationEvent'}));
	assert.match(invalid, /^unknown: ObservationEvent \(invalid ObservationEvent: /);
	const odd = text(wire({kind: 'ActionEvent', tool_name: 'teleport', tool_call_id: 'c', action: {kind: 'TeleportAction'}, summary: 'beam me up'}));
	assert.equal(odd, 'teleport · beam me up');
	const nonExecutable = eventSummary(wire({kind: 'ActionEvent', tool_name: 'terminal', tool_call_id: 'c', action: null, tool_call: {id: 'c', name: 'terminal', arguments: '{bad json', origin: 'completion'}}));
	assert.deepEqual([nonExecutable.text, nonExecutable.tone], ['terminal invalid call · {bad json', 'error']);
});

test('hostile text stays escaped and every field is one line', () => {
	const hostile = 'ls \u001B]52;c;ZXZpbA==\u0007 \u001B[2J\rEVIL\u009B31m \u202E';
	const summary = eventSummary(terminalAction(hostile));
	for (const value of Object.values(summary)) {
		assert.ok(!/[\u0000-\u001F\u007F-\u009F]/.test(value), `control character in ${JSON.stringify(value)}`);
		assert.ok(!value.includes('\n'));
	}

	assert.match(summary.text, /EVIL/, 'both halves of a carriage-return trick stay visible');
	const spoofedKind = eventSummary(wire({kind: 'Evil\u001B[31mKind', source: 'agent\u0007'}));
	assert.ok(!/[\u0000-\u001F]/.test(spoofedKind.kind + spoofedKind.source + spoofedKind.text));
});

test('a 5 MB observation is summarised from a bounded prefix and one newline count', (t) => {
	const action = terminalAction('cat big.log');
	const size = 5 * 1024 * 1024;
	// Counted in characters read, not timed: a loaded machine gives the same count (speed is the bench's).
	for (const [name, text] of [
		['one line', 'x'.repeat(size)],
		['many lines', 'a line of output\n'.repeat(size / 17)],
	] as const) {
		const {result: summary, characters} = stringWork(() => eventSummary(terminalObservation(action, text, 0)));
		t.diagnostic(`${name}: ${characters} characters read of ${text.length}`);
		assert.ok(summary.text.length < 300, `summary is ${summary.text.length} chars`);
		// The line count reads it once; everything else a bounded prefix (sanitizing or splitting it all would read it again).
		assert.ok(characters <= text.length + 10_000, `${name}: read ${characters} characters of a ${text.length}-character observation`);
	}
});

test('is_error decides first: a refused command with metadata.exit_code -1 is an error, not still running', () => {
	// The SDK's own refusal (openhands-tools/openhands/tools/terminal/terminal/terminal_session.py):
	// from_text(is_error=True) leaves exit_code None and metadata at its default, exit_code -1.
	const refusal = 'Cannot execute multiple commands at once.\nPlease run each command separately OR chain them into a single command via && or ;';
	const refused = (stored: boolean) =>
		wire({
			kind: 'ObservationEvent',
			tool_name: 'terminal',
			tool_call_id: 'c',
			action_id: 'a',
			observation: {
				kind: 'TerminalObservation',
				content: [{type: 'text', text: refusal}],
				is_error: true,
				command: 'cd app\nnpm test',
				timeout: false,
				metadata: {exit_code: -1, pid: -1, prefix: '', suffix: '', ...(stored ? {username: null, hostname: null, working_dir: null, py_interpreter_path: null} : {})},
				...(stored ? {exit_code: null, full_output_save_dir: null} : {}),
			},
		});
	for (const stored of [false, true]) {
		const summary = eventSummary(refused(stored));
		assert.deepEqual([summary.text, summary.tone], ['error · 2 lines · Cannot execute multiple commands at once.', 'error']);
	}
	// Without is_error, -1 still means the command is still running; a real exit code stays.
	const action = terminalAction('sleep 600');
	assert.equal(eventSummary(terminalObservation(action, 'waiting…', -1)).text, 'still running · waiting…');
	const failedWithCode = wire({kind: 'ObservationEvent', tool_name: 'terminal', tool_call_id: 'c', action_id: 'a', observation: {kind: 'TerminalObservation', content: [{type: 'text', text: 'boom'}], is_error: true, exit_code: 2}});
	assert.equal(eventSummary(failedWithCode).text, 'error exit 2 · boom');
});

test('an observation with content the service appended (a path-scoped rule) says so on its row', () => {
	const action = terminalAction('cat build/out.js');
	const plain = terminalObservation(action, 'ok\n', 0);
	assert.equal(text(plain), 'exit 0 · ok');
	const ruled = wire({
		...(plain as unknown as Record<string, unknown>),
		id: 'obs-ruled',
		extended_content: [{type: 'text', text: 'Path rule triggered: never edit generated files under build/\nmore'}],
	});
	assert.equal(text(ruled), 'exit 0 · ok · +context: Path rule triggered: never edit generated files under build/');
});

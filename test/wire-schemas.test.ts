import {eventKindName, observationText} from '../source/wire/event-fields.js';
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {inspect} from 'node:util';
import {appConversationSchema, sandboxSchema, startTaskSchema} from '../source/wire/schemas/app.js';
import {parseAligned, parseEach, parsePage} from '../source/wire/schemas/common.js';
import {createRequestSchema, parsePluginFlag} from '../source/wire/schemas/create-request.js';
import {compareEvents, parseEvent, parseEvents} from '../source/wire/schemas/events.js';

const base = {id: 'e1', timestamp: '2026-11-22T10:00:00.000001', source: 'agent'};
/** An event of `kind` for tool call `c` (an ActionEvent or ObservationEvent), parsed, with `fields`. */
const toolEvent = (kind: 'ActionEvent' | 'ObservationEvent', fields: Record<string, unknown>) => parseEvent({...base, kind, tool_call_id: 'c', ...fields});

test('an ActionEvent parses with its action, and a missing security_risk defaults to UNKNOWN', () => {
	const event = parseEvent({
		...base,
		kind: 'ActionEvent',
		thought: [{type: 'text', text: 'run the tests'}],
		action: {kind: 'TerminalAction', command: 'pytest -q', is_input: false},
		tool_name: 'terminal',
		tool_call_id: 'call_1',
		tool_call: {id: 'call_1', name: 'terminal', arguments: '{"command":"pytest -q"}', origin: 'completion'},
		llm_response_id: 'r1',
	});
	assert.equal(event.kind, 'ActionEvent');
	if (event.kind !== 'ActionEvent') return;
	assert.equal(event.security_risk, 'UNKNOWN');
	assert.equal(event.action?.kind, 'TerminalAction');
	if (event.action?.kind === 'TerminalAction') assert.equal(event.action.command, 'pytest -q');
});

test('an unknown event kind keeps its raw JSON and never throws', () => {
	const event = parseEvent({...base, kind: 'FutureEvent', payload: {x: 1}});
	assert.equal(event.kind, 'UnknownEvent');
	assert.equal(eventKindName(event), 'FutureEvent');
	if (event.kind === 'UnknownEvent') assert.deepEqual(event.raw.payload, {x: 1});
	for (const junk of [null, 42, 'text', [], {}, {kind: 7}]) assert.doesNotThrow(() => parseEvent(junk));
});

test('a known kind with a bad field becomes an unknown event flagged invalid, and the rest of the page survives', () => {
	const {events, invalid} = parseEvents([
		{...base, kind: 'MessageEvent', llm_message: {role: 'user', content: [{type: 'text', text: 'hi'}]}},
		{...base, id: 'e2', kind: 'ObservationEvent'},
		{...base, id: 'e3', kind: 'PauseEvent', source: 'user'},
	]);
	assert.equal(events.length, 3);
	assert.equal(events[1]?.kind, 'UnknownEvent');
	assert.equal(invalid.length, 1);
	assert.equal(invalid[0]?.index, 1);
});

test('unknown action and observation kinds are kept raw; old `output` observations are read', () => {
	const event = toolEvent('ObservationEvent', {tool_name: 'execute_bash', action_id: 'a', observation: {kind: 'ExecuteBashObservation', output: 'ok\n', exit_code: 0}});
	assert.equal(event.kind, 'ObservationEvent');
	if (event.kind === 'ObservationEvent') assert.equal(observationText(event.observation), 'ok\n');
	const odd = toolEvent('ActionEvent', {tool_name: 'teleport', action: {kind: 'TeleportAction', where: 'mars'}});
	if (odd.kind === 'ActionEvent') assert.equal(odd.action?.kind, 'UnknownAction');
	else assert.fail('expected an ActionEvent');
});

test('encrypted_content is scrubbed at any depth before anything can render it', () => {
	const event = toolEvent('ActionEvent', {
		tool_name: 'think',
		responses_reasoning_item: {id: 'r', summary: ['s'], encrypted_content: 'SECRET-BLOB'},
		extra: {deep: [{encrypted_content: 'SECRET-BLOB'}]},
	});
	assert.ok(!JSON.stringify(event).includes('SECRET-BLOB'));
	const unknown = parseEvent({...base, kind: 'Nope', encrypted_content: 'SECRET-BLOB'});
	assert.ok(!JSON.stringify(unknown).includes('SECRET-BLOB'));
});

test('hook source, legacy ExecuteBashAction and HookExecutionEvent parse', () => {
	const hook = parseEvent({...base, kind: 'HookExecutionEvent', source: 'hook', hook_event_type: 'PreToolUse', blocked: true});
	assert.equal(hook.kind, 'HookExecutionEvent');
	assert.equal(hook.source, 'hook');
	const legacy = toolEvent('ActionEvent', {tool_name: 'execute_bash', action: {kind: 'ExecuteBashAction', command: 'ls'}});
	if (legacy.kind === 'ActionEvent') assert.equal(legacy.action?.kind, 'ExecuteBashAction');
});

test('a qualified kind is read as its short name; default source is filled per kind', () => {
	const event = parseEvent({id: 'x', timestamp: 't', kind: 'openhands.sdk.event.condenser.CondensationRequest'});
	assert.equal(event.kind, 'CondensationRequest');
	assert.equal(event.source, 'environment');
});

test('events order by timestamp then id', () => {
	const list = [
		{id: 'b', timestamp: '2026-01-01T00:00:01'},
		{id: 'a', timestamp: '2026-01-01T00:00:01'},
		{id: 'z', timestamp: '2026-01-01T00:00:00'},
	].sort(compareEvents);
	assert.deepEqual(list.map((item) => item.id), ['z', 'a', 'b']);
});

test('unknown enum values survive; session keys never serialize', () => {
	const conversation = appConversationSchema.parse({
		id: 'abc',
		sandbox_status: 'ARCHIVED',
		execution_status: 'hibernating',
		session_api_key: 'sk-session-123',
	});
	assert.equal(conversation.sandbox_status, 'ARCHIVED');
	assert.equal(conversation.execution_status, 'hibernating');
	assert.ok(!JSON.stringify(conversation).includes('sk-session-123'));
	assert.ok(!inspect(conversation, {depth: 5}).includes('sk-session-123'));
	assert.equal(conversation.session_api_key?.reveal(), 'sk-session-123');
	assert.equal(appConversationSchema.parse({id: 'x'}).sandbox_status, 'MISSING');
	const sandbox = sandboxSchema.parse({id: 's', status: 'RUNNING', session_api_key: 'k', exposed_urls: [{name: 'AGENT_SERVER', url: 'http://x'}]});
	assert.equal(sandbox.exposed_urls?.[0]?.name, 'AGENT_SERVER');
});

test('start tasks accept every real status and unknown ones', () => {
	for (const status of ['RUNNING_SETUP_SCRIPT', 'SETTING_UP_GIT_HOOKS', 'SETTING_UP_SKILLS', 'STARTING_CONVERSATION', 'BRAND_NEW']) {
		assert.equal(startTaskSchema.parse({id: 't', status}).status, status);
	}
});

test('pages: one invalid item is flagged and the others kept; aligned look-ups keep nulls', () => {
	const page = parsePage(appConversationSchema, {items: [{id: 'a'}, {title: 'no id'}, {id: 'c'}], next_page_id: '2'});
	assert.deepEqual(page.items.map((item) => item.id), ['a', 'c']);
	assert.equal(page.invalid.length, 1);
	assert.equal(page.nextPageId, '2');
	const aligned = parseAligned(appConversationSchema, [{id: 'a'}, null, {id: 'c'}]);
	assert.deepEqual(aligned.items.map((item) => item?.id ?? null), ['a', null, 'c']);
	assert.equal(parseEach(appConversationSchema, 'nope').invalid[0]?.message, 'expected a JSON array');
});

test('observability metadata: scalars and homogeneous arrays pass, anything else is refused', () => {
	const ok = createRequestSchema.safeParse({observability_metadata: {a: 1, b: 'x', c: true, d: [1, 2], e: ['a'], f: []}});
	assert.ok(ok.success);
	for (const bad of [{a: [1, 'x']}, {a: {nested: 1}}, {a: null}, {a: [[1]]}]) {
		const result = createRequestSchema.safeParse({observability_metadata: bad});
		assert.ok(!result.success, JSON.stringify(bad));
	}
});

test('plugin flags keep scheme-qualified sources whole', () => {
	assert.deepEqual(parsePluginFlag('github:owner/repo@v1.2:plugins/x'), {source: 'github:owner/repo', ref: 'v1.2', repo_path: 'plugins/x'});
	assert.deepEqual(parsePluginFlag('https://example.com/o/r.git@main'), {source: 'https://example.com/o/r.git', ref: 'main'});
	assert.deepEqual(parsePluginFlag('owner/repo'), {source: 'owner/repo'});
	assert.throws(() => parsePluginFlag('@ref-only'));
});

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {eventMatches} from '../source/state/server-event-filter.js';
import {ExitCode, exitCodeFor, MissingError, StartFailedError, UnavailableError, UsageError} from '../source/commands/exit-codes.js';
import {toJson} from '../source/commands/json-output.js';
import {conversationMatchesStatus, parseStatusFilter, unknownStatusWarning} from '../source/commands/status-filter.js';
import {renderTable} from '../source/commands/table.js';
import {ConfigError} from '../source/config/errors.js';
import {
	KeyRejectedError,
	NetworkError,
	NotApiError,
	NotFoundError,
	ProtocolError,
	RateLimitedError,
	ServerError,
	TimeoutError,
	ValidationError,
} from '../source/wire/errors.js';
import {appConversationSchema} from '../source/wire/schemas/app.js';
import {parseEvent} from '../source/wire/schemas/events.js';

/** The pieces of the headless commands that need no server: filters, JSON, tables, exit codes. */

const conversation = (sandbox: string, execution: string | null) =>
	appConversationSchema.parse({id: '0123456789abcdef0123456789abcdef', sandbox_status: sandbox, execution_status: execution, session_api_key: 'sess-key-123456'});

describe('--status', () => {
	test('agent statuses bare, sandbox statuses as sandbox:S; any case means the same', () => {
		const filter = parseStatusFilter(['running,STUCK', 'Missing'])!;
		assert.deepEqual([...filter.agent].sort(), ['running', 'stuck']);
		assert.deepEqual([...filter.sandbox].sort(), ['MISSING'], 'missing can only be a sandbox status');
		assert.ok(conversationMatchesStatus(conversation('RUNNING', 'running'), filter));
		assert.ok(!conversationMatchesStatus(conversation('RUNNING', 'idle'), filter));
		assert.ok(conversationMatchesStatus(conversation('MISSING', null), filter));

		// error, ERROR and Error are one word: the agent's status.
		for (const spelling of ['error', 'ERROR', 'Error']) {
			const parsed = parseStatusFilter([spelling])!;
			assert.deepEqual([[...parsed.agent], [...parsed.sandbox]], [['error'], []], spelling);
		}
		const sandbox = parseStatusFilter(['sandbox:PAUSED', 'SANDBOX:error'])!;
		assert.deepEqual([...sandbox.sandbox].sort(), ['ERROR', 'PAUSED']);
		assert.equal(sandbox.agent.size, 0);
		assert.ok(conversationMatchesStatus(conversation('PAUSED', null), sandbox));
		assert.ok(!conversationMatchesStatus(conversation('RUNNING', 'paused'), sandbox), 'an agent that paused is not a paused sandbox');
		assert.equal(parseStatusFilter([]), null);
		assert.equal(unknownStatusWarning(filter), null);
	});

	test('an empty --status is an error, not "all"', () => {
		for (const values of [[''], [',,'], [' , ']]) {
			assert.throws(() => parseStatusFilter(values), (error: Error) => error instanceof UsageError && /--status needs a status/.test(error.message), JSON.stringify(values));
		}
		assert.throws(() => parseStatusFilter(['bad status!']), (error: Error) => error instanceof UsageError && /is not a status/.test(error.message));
	});

	test('an unknown but well-formed status still filters, with a warning (and a hint for a typo)', () => {
		const filter = parseStatusFilter(['archived_v9'])!;
		assert.deepEqual([...filter.agent], ['archived_v9']);
		assert.ok(conversationMatchesStatus(conversation('RUNNING', 'archived_v9'), filter));
		assert.ok(!conversationMatchesStatus(conversation('RUNNING', 'running'), filter));
		assert.match(unknownStatusWarning(filter)!, /"archived_v9" is not a known status .*filtering by it anyway$/);
		assert.match(unknownStatusWarning(parseStatusFilter(['runing']))!, /did you mean "running"\?/);
		assert.match(unknownStatusWarning(parseStatusFilter(['sandbox:hibernating']))!, /"sandbox:hibernating" is not a known status/);
	});
});

describe('event filters', () => {
	const action = parseEvent({kind: 'openhands.sdk.event.llm_convertible.action.ActionEvent', id: 'a', timestamp: '2025-01-01T00:00:00', source: 'agent', tool_name: 'terminal', tool_call_id: 't', action: {kind: 'TerminalAction', command: 'ls'}});
	const message = parseEvent({kind: 'MessageEvent', id: 'm', timestamp: '2025-01-01T00:00:01', source: 'user', llm_message: {role: 'user', content: [{type: 'text', text: 'Please run PyTest'}]}});

	test('kind: short or qualified, any case', () => {
		assert.ok(eventMatches(action, {kind: 'actionevent'}));
		assert.ok(eventMatches(action, {kind: 'openhands.sdk.event.llm_convertible.action.ActionEvent'}));
		assert.ok(!eventMatches(message, {kind: 'ActionEvent'}));
	});

	test('source exact; body: message text, case-insensitive', () => {
		assert.ok(eventMatches(message, {source: 'user', body: 'pytest'}));
		assert.ok(!eventMatches(message, {source: 'agent'}));
		assert.ok(!eventMatches(action, {body: 'ls'}), 'body looks in messages only, as the server does');
	});
});

describe('JSON output', () => {
	test('keys are redacted, encrypted content hidden, unknown kinds printed as the server sent them', () => {
		const unknown = parseEvent({kind: 'FutureEvent', id: 'f', timestamp: 't', source: 'agent', payload: {x: 1}});
		const reasoning = parseEvent({
			kind: 'ActionEvent',
			id: 'r',
			timestamp: 't',
			source: 'agent',
			tool_name: 'think',
			tool_call_id: 'c',
			action: null,
			responses_reasoning_item: {id: 'x', summary: [], encrypted_content: 'gAAAAsecret'},
			thought: [{type: 'text', text: 'the key is sk-live-abcdef and Bearer tok.en'}],
		});
		const text = toJson([conversation('RUNNING', 'idle'), unknown, reasoning], ['sk-live-abcdef']);
		const [row, future, action] = JSON.parse(text) as [Record<string, unknown>, Record<string, unknown>, Record<string, unknown>];
		assert.equal(row.session_api_key, '[redacted]');
		assert.deepEqual(future, {kind: 'FutureEvent', id: 'f', timestamp: 't', source: 'agent', payload: {x: 1}});
		assert.doesNotMatch(text, /gAAAAsecret|sk-live-abcdef|tok\.en|sess-key-123456/);
		assert.match(JSON.stringify(action), /\[redacted\]/);
	});
});

describe('tables', () => {
	test('aligned in terminal cells, cut with an ellipsis, flexible column gives way', () => {
		const rows = [
			{a: 'x', b: '日本語のタイトル', c: '1'},
			{a: 'longer', b: 'short', c: '22'},
		];
		const lines = renderTable(rows, [{header: 'A', value: (row) => row.a}, {header: 'TITLE', value: (row) => row.b, flexible: true}, {header: 'N', value: (row) => row.c, align: 'right'}], 20);
		// 6 + 2 + 8 + 2 + 2 = 20 cells: TITLE (16 wide) gave up 8; the CJK cut never splits a character.
		assert.deepEqual(lines, ['A       TITLE      N', 'x       日本語…    1', 'longer  short     22']);
	});
});

describe('exit codes', () => {
	test('each failure maps to its documented code', () => {
		const cases: Array<[unknown, number]> = [
			[new UsageError('x'), ExitCode.usage],
			[new ConfigError('x'), ExitCode.usage],
			[new ValidationError('x', []), ExitCode.usage],
			[new KeyRejectedError('x', 401), ExitCode.keyRejected],
			[new NotFoundError('x', 404), ExitCode.notFound],
			[new MissingError('x'), ExitCode.notFound],
			[new NetworkError('x'), ExitCode.server],
			[new TimeoutError('x'), ExitCode.server],
			[new ServerError('x', 503), ExitCode.server],
			[new RateLimitedError('x', 1000), ExitCode.server],
			[new NotApiError('x'), ExitCode.server],
			[new ProtocolError('x'), ExitCode.server],
			[new UnavailableError('x'), ExitCode.server],
			[new StartFailedError('x'), ExitCode.startFailed],
			[new TypeError('bug'), ExitCode.unexpected],
		];
		for (const [error, code] of cases) assert.equal(exitCodeFor(error), code, String(error));
	});
});

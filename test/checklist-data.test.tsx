import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {chmodSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import http from 'node:http';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {test} from 'node:test';
import stringWidth from 'string-width';
import {resolveConfig} from '../source/config/resolve.js';
import {prettyJson, prettyJsonString} from '../source/format/truncate-json.js';
import {sanitizeLine} from '../source/format/sanitize.js';
import {parseConversationFilter, rowMatches} from '../source/state/conversation-query.js';
import {EventDetails} from '../source/view/details/EventDetails.js';
import {Dashboard} from '../source/view/Dashboard.js';
import {HttpClient} from '../source/wire/http.js';
import {parseEvent, parseEvents} from '../source/wire/schemas/events.js';
import {conversationRow, fixtureSnapshot, fixtureStore, hexId, recordingController} from './helpers/dashboard-fixture.js';
import {message, terminalAction, terminalObservation} from './helpers/event-fixtures.js';
import {eventually} from './helpers/eventually.js';
import {press, renderSized, waitForFrame} from './helpers/ink.js';
import {KeyHarness, TimelineHarness, TimelineSource} from './helpers/pane-harness.js';
import {supervise} from './helpers/supervise.js';
import {clientFor, serverIds, startSim, waitUntil} from './wire-agent-fixtures.js';
import {cliArgs, runCli, testCacheHome} from './helpers/built-cli.js';

/**
 * docs/security-checklist.md checklist, items 14–23 and 39–41: sizes, bad data, secrets, resizing.
 * Items 1–13 are in format-sanitize.test.ts, 24–38 in checklist-network.test.ts. Each test is
 * named after its item and runs the real code (parsers, Ink components, the CLI, the simulator).
 */

function fits(frame: string, columns: number): void {
	for (const line of frame.split('\n')) assert.ok(stringWidth(line) <= columns, `wider than ${columns}: ${JSON.stringify(line)}`);
}

test('14. a 5 MB one-line observation: keys answer, the visible part is rendered, the full text is pageable', async (t) => {
	const action = terminalAction('cat minified.js');
	const observation = terminalObservation(action, `START${'x'.repeat(5 * 1024 * 1024)}END`, 0);
	const view = renderSized(
		<KeyHarness stack={['details', 'global', 'always']}>
			<EventDetails event={observation} events={[action, observation]} width={80} height={20} active onBack={() => undefined} />
		</KeyHarness>,
		{columns: 80, rows: 21},
	);
	t.after(() => view.unmount());
	let frame = await waitForFrame(view.lastFrame, (text) => text.includes('START'), {timeoutMs: 10_000});
	fits(frame, 80);
	// Only the screen's worth reaches Ink, never the 5 MB.
	assert.ok((view.stdout.frames.at(-1) ?? '').length < 20_000, `${(view.stdout.frames.at(-1) ?? '').length} characters written for one frame`);
	const started = performance.now();
	frame = await press(view, 'G', (text) => text.includes('END'));
	const answered = performance.now() - started;
	t.diagnostic(`G answered in ${answered.toFixed(0)} ms`);
	fits(frame, 80);
	frame = await press(view, 'g', (text) => text.includes('START'));
	frame = await press(view, '\u001B[6~', (text) => !text.includes('START'));
	assert.match(frame, /x{20}/, 'paged into the middle of the line');
});

test('15. arguments nested 100,000 deep: no RangeError; the tree is truncated', () => {
	let deep: Record<string, unknown> = {leaf: true};
	for (let depth = 0; depth < 100_000; depth++) deep = {a: deep};
	const event = parseEvent({kind: 'ActionEvent', id: 'deep', timestamp: '2026-11-22T10:00:00', source: 'agent', tool_name: 'mcp', tool_call_id: 't', action: {kind: 'MCPToolAction', data: deep}});
	assert.equal(event.kind, 'ActionEvent');
	const text = prettyJson(deep);
	assert.ok(text.length < 100_000, `${text.length} characters`);
	assert.match(text, /…|\.\.\.|truncated|depth/);
	const nestedArrays = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
	assert.doesNotThrow(() => prettyJsonString(nestedArrays));
});

test('16. an unknown event kind: an "unknown: X" row; the rest intact', async (t) => {
	const events = [message('user', 'first message'), parseEvent({kind: 'QuantumEvent', id: 'q1', timestamp: '2026-11-22T10:00:01', source: 'agent', spin: 'up'}), message('agent', 'after it')];
	const source = new TimelineSource({conversationKey: hexId(1), events, version: 1, stream: {state: 'live', attempt: 0}, executionStatus: 'running', gap: false});
	const view = renderSized(<TimelineHarness source={source} width={90} height={12} />, {columns: 90, rows: 14});
	t.after(() => view.unmount());
	const frame = await waitForFrame(view.lastFrame, (text) => text.includes('QuantumEvent'));
	assert.match(frame, /unknown/);
	assert.match(frame, /first message/);
	assert.match(frame, /after it/);
});

test('17. an unknown enum value (status ARCHIVED) is shown raw and filters still work', () => {
	const row = conversationRow({id: hexId(7), title: 'Old work', execution: 'ARCHIVED'});
	assert.equal(row.conversation.execution_status, 'ARCHIVED');
	assert.ok(rowMatches(row, parseConversationFilter('status:archived')));
	assert.ok(!rowMatches(row, parseConversationFilter('status:running')));
	assert.ok(rowMatches(conversationRow({id: hexId(8), title: 'Old work', execution: 'running'}), parseConversationFilter('old')));
});

test('18. one invalid item in a page: that item is flagged; the others render', () => {
	const page = [
		{kind: 'MessageEvent', id: 'm1', timestamp: '2026-11-22T10:00:00', source: 'user', llm_message: {role: 'user', content: [{type: 'text', text: 'hi'}]}},
		{kind: 'ActionEvent', id: 'bad', timestamp: '2026-11-22T10:00:01', source: 'agent', tool_name: 42},
		{kind: 'MessageEvent', id: 'm2', timestamp: '2026-11-22T10:00:02', source: 'agent', llm_message: {role: 'assistant', content: [{type: 'text', text: 'ok'}]}},
	];
	const {events, invalid} = parseEvents(page);
	assert.equal(events.length, 3);
	assert.deepEqual(invalid.map((item) => item.index), [1]);
	assert.equal(events[1]!.kind, 'UnknownEvent');
	assert.deepEqual([events[0]!.kind, events[2]!.kind], ['MessageEvent', 'MessageEvent']);
});

test('19. a malformed JSON frame is reported once; the socket stays open', async (t) => {
	const sim = await startSim(t);
	const {conversation, client} = await clientFor(t, sim, 'long-runner');
	const watched = supervise(t, client, {backoff: {baseMs: 10, capMs: 100}, heartbeatIntervalMs: 300, heartbeatGraceMs: 300, firstFrameTimeoutMs: 10_000, handshakeTimeoutMs: 10_000});
	await waitUntil(() => watched.supervisor.status.state === 'live', 5000, 'live');
	const reconnectsBefore = watched.statuses.filter((status) => status.state === 'reconnecting').length;
	sim.faults.malformedFrames(1);
	sim.step(3);
	await waitUntil(() => watched.problems.some((problem) => problem.kind === 'malformed-frame'), 5000, 'the report');
	await waitUntil(() => watched.supervisor.log.size === sim.world.events(conversation).length, 5000, 'caught up');
	assert.equal(watched.problems.filter((problem) => problem.kind === 'malformed-frame').length, 1);
	assert.equal(watched.statuses.filter((status) => status.state === 'reconnecting').length, reconnectsBefore, 'no reconnect');
});

test('20. an invalid UTF-8 WebSocket frame: reconnect, resume, no gap or duplicate', async (t) => {
	const sim = await startSim(t);
	const {conversation, client} = await clientFor(t, sim, 'long-runner');
	const watched = supervise(t, client, {backoff: {baseMs: 10, capMs: 100}, heartbeatIntervalMs: 300, heartbeatGraceMs: 300, firstFrameTimeoutMs: 10_000, handshakeTimeoutMs: 10_000});
	await waitUntil(() => watched.supervisor.status.state === 'live', 5000, 'live');
	sim.faults.invalidUtf8Frames(1);
	sim.step(4);
	await waitUntil(() => watched.statuses.some((status) => status.state === 'reconnecting'), 5000, 'a reconnect');
	await waitUntil(() => watched.supervisor.status.state === 'live' && watched.supervisor.log.size === sim.world.events(conversation).length, 8000, 'caught up');
	assert.deepEqual(watched.supervisor.log.events.map((event) => event.id), serverIds(sim, conversation));
	assert.equal(watched.supervisor.status.gap, false);
});

test('21. an invalid UTF-8 HTTP body: U+FFFD shown, no crash', async (t) => {
	const server = http.createServer((_request, response) => {
		response.writeHead(200, {'content-type': 'application/json'});
		response.end(Buffer.concat([Buffer.from('{"title":"caf'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}')]));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
	const client = new HttpClient({baseUrl: `http://127.0.0.1:${(server.address() as {port: number}).port}`, headers: () => ({}), maxRetries: 0});
	const body = (await client.json({path: '/'})) as {title: string};
	assert.ok(body.title.includes('\uFFFD'), JSON.stringify(body));
	assert.ok(sanitizeLine(body.title).startsWith('caf'));
});

test('22. a 20-digit id, 1e400 and a lone surrogate: ids exact, no crash', () => {
	const event = parseEvent({kind: 'MessageEvent', id: '12345678901234567890', timestamp: '2026-11-22T10:00:00', source: 'user', llm_message: {role: 'user', content: [{type: 'text', text: 'half \uD800 a pair'}]}});
	assert.equal(event.id, '12345678901234567890');
	assert.ok(!sanitizeLine('half \uD800 a pair').includes('\uD800'));
	const raw = '{"id": 12345678901234567890, "big": 1e400}';
	const shown = prettyJsonString(raw);
	assert.ok(shown.includes('12345678901234567890'));
	assert.ok(shown.includes('1e400'));
	assert.doesNotThrow(() => parseEvent(JSON.parse('{"kind":"ActionEvent","id":"x","timestamp":"t","source":"agent","tool_name":"t","tool_call_id":"c","action":{"kind":"TerminalAction","command":"ls","timeout":1e400}}')));
});

test('23. a message over maxPayload: one placeholder, no reconnect loop', {timeout: 120_000}, async (t) => {
	const sim = await startSim(t);
	const {conversation, client} = await clientFor(t, sim, 'long-runner');
	// A slow heartbeat: parsing 20 MB blocks a loaded CI machine for longer than a tight one
	// allows, and a reconnect for that reason is not the loop this item is about.
	const watched = supervise(t, client, {backoff: {baseMs: 10, capMs: 100}, heartbeatIntervalMs: 5000, heartbeatGraceMs: 10_000, firstFrameTimeoutMs: 10_000, handshakeTimeoutMs: 10_000});
	await waitUntil(() => watched.supervisor.status.state === 'live', 5000, 'live');
	sim.world.appendEvent(conversation, {kind: 'MessageEvent', source: 'agent', llm_message: {role: 'assistant', content: [{type: 'text', text: 'z'.repeat(20 * 1024 * 1024)}]}});
	sim.step(2);
	await waitUntil(() => watched.problems.some((problem) => problem.kind === 'oversized-frame'), 45_000, 'the oversized report');
	await waitUntil(() => watched.supervisor.status.state === 'live', 30_000, 'live again');
	// Events, not a span of time, for a loop to show: three later frames, each sent once the one
	// before it arrived, come through the same live connection (the backoff here is 10-100 ms).
	for (let marker = 0; marker < 3; marker++) {
		const sent = sim.world.appendEvent(conversation, {kind: 'MessageEvent', source: 'agent', llm_message: {role: 'assistant', content: [{type: 'text', text: `marker ${marker}`}]}});
		await waitUntil(() => watched.announced.includes(sent.id), 30_000, `marker ${marker} announced`);
	}
	assert.equal(watched.problems.filter((problem) => problem.kind === 'oversized-frame').length, 1, 'reported once');
	const reconnects = watched.statuses.filter((status, index) => status.state === 'reconnecting' && watched.statuses[index - 1]?.state === 'live').length;
	assert.ok(reconnects <= 1, `${reconnects} reconnects: no loop (${watched.statuses.map((status) => status.state).join(' → ')})`);
	assert.equal(watched.supervisor.status.state, 'live');
});

test('39. the key is absent from frames, logs, process.report and crash output, including a URL-query key', async (t) => {
	const secret = 'CHECKLIST-39-SECRET-KEY';
	const env: NodeJS.ProcessEnv = {OPENHANDS_API_KEY: secret};
	const config = await resolveConfig({baseUrl: 'http://127.0.0.1:9'}, {env, warn: () => undefined});
	assert.equal(env.OPENHANDS_API_KEY, undefined, 'removed from the environment');
	process.env.OPENHANDS_API_KEY = secret;
	await resolveConfig({baseUrl: 'http://127.0.0.1:9'}, {env: process.env, warn: () => undefined});
	const report = JSON.stringify(process.report.getReport());
	assert.ok(!report.includes(secret), 'process.report does not carry it');
	assert.ok(!JSON.stringify(config).includes(secret) && !String(config).includes(secret));
	const sim = await startSim(t);
	const home = mkdtempSync(join(tmpdir(), 'agent-tui-39-'));
	t.after(() => rmSync(home, {recursive: true, force: true}));
	const querySecret = 'QUERY-SECRET-39';
	// Asynchronously: the simulator answering the CLI lives in this process.
	const run = await new Promise<{code: number | null; stdout: string; stderr: string}>((resolve, reject) => {
		const child = spawn(process.execPath, [...cliArgs(), 'conversations', '--base-url', `${sim.baseUrl}/?api_key=${querySecret}`], {
			env: {PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: home, XDG_CACHE_HOME: testCacheHome(), OPENHANDS_API_KEY: `${secret}-wrong`, AGENT_TUI_DEBUG: '1'},
		});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
		child.on('error', reject);
		child.on('close', (code) => {
			clearTimeout(timer);
			resolve({code, stdout, stderr});
		});
	});
	assert.equal(run.code, 3, `key rejected (exit 3), with debug output: ${run.stderr}`);
	assert.match(run.stderr, /key rejected/);
	const output = run.stdout + run.stderr;
	assert.ok(!output.includes(secret), output);
	assert.ok(!output.includes(querySecret), output);
});

test('40. a key file readable by others, or a key as a flag: warned; encrypted_content never rendered', async (t) => {
	const dir = mkdtempSync(join(tmpdir(), 'agent-tui-40-'));
	t.after(() => rmSync(dir, {recursive: true, force: true}));
	const file = join(dir, 'key');
	writeFileSync(file, 'file-key-40\n');
	chmodSync(file, 0o644);
	const warnings: string[] = [];
	await resolveConfig({baseUrl: 'http://127.0.0.1:9', apiKeyFile: file}, {env: {}, warn: (line) => warnings.push(line)});
	assert.ok(warnings.some((line) => /readable|permission|0600|chmod/i.test(line)), warnings.join('\n'));
	const flag = await runCli(['conversations', '--api-key', 'flag-key-40'], {home: dir, timeoutMs: 30_000});
	assert.equal(flag.code, 2);
	assert.match(flag.stderr, /--api-key is not accepted/);
	assert.ok(!flag.stderr.includes('flag-key-40'));
	const event = parseEvent({kind: 'MessageEvent', id: 'e', timestamp: 't', source: 'agent', llm_message: {role: 'assistant', content: [], responses_reasoning_item: {id: 'r', encrypted_content: 'gAAAA-40-SECRET'}}});
	assert.ok(!JSON.stringify(event).includes('gAAAA-40-SECRET'));
});

test('41. resize to 40x10 during an event flood: no crash; the layout is recomputed', async (t) => {
	const events = [message('user', 'start')];
	const store = fixtureStore(fixtureSnapshot({timeline: {conversationKey: hexId(1), events, version: 1, stream: {state: 'live', attempt: 0}, executionStatus: 'running', gap: false}}));
	const view = renderSized(<Dashboard store={store} controller={recordingController()} onQuit={() => undefined} />, {columns: 160, rows: 48});
	t.after(() => view.unmount());
	await waitForFrame(view.lastFrame, (text) => text.includes('Conversations'));
	let flooded = 0;
	const flood = setInterval(() => {
		for (let index = 0; index < 50; index++) {
			flooded++;
			events.push(message('agent', `flood ${flooded}`));
		}
		store.update((current) => ({timeline: {...current.timeline!, events: [...events], version: current.timeline!.version + 1}}));
	}, 5);
	t.after(() => clearInterval(flood));
	for (const [columns, rows] of [[40, 10], [120, 30], [40, 10], [80, 24]] as const) {
		view.resize(columns, rows);
		const frame = await waitForFrame(view.lastFrame, (text) => text.split('\n').length <= rows && text.split('\n').every((line) => stringWidth(line) <= columns));
		fits(frame, columns);
		// The flood goes on between two resizes: two more batches drawn into this size.
		const before = flooded;
		await eventually(() => flooded, 'the flood to go on', {until: (count) => count >= before + 100});
	}
	clearInterval(flood);
	assert.ok(flooded > 100, `${flooded} events during the resizes`);
});

test('39 (crash output). an uncaught error or a signal restores the screen first; the printed line holds no key', async () => {
	const {EventEmitter} = await import('node:events');
	const {createExitGuard} = await import('../source/terminal/exit-guard.js');
	const secret = 'CRASH-39-SECRET';
	const order: string[] = [];
	const target = new EventEmitter();
	let stderr = '';
	const guard = createExitGuard({
		screen: {active: true, restore: () => order.push('restore')},
		stderr: {write: (chunk: string) => (order.push('print'), (stderr += chunk))},
		unmount: () => order.push('unmount'),
		cleanup: async () => order.push('cleanup'),
		secrets: [secret],
		target,
	});
	guard.install();
	target.emit('uncaughtException', new Error(`request failed: Authorization: Bearer ${secret} \u001B]0;title\u0007 (session_api_key=${secret})`));
	assert.equal(await guard.done, 1);
	assert.deepEqual(order.slice(0, 3), ['unmount', 'restore', 'print'], 'the terminal is back before anything is printed');
	assert.ok(!stderr.includes(secret), stderr);
	assert.ok(!stderr.includes('\u001B'), 'the crash line is sanitized');
	assert.equal(stderr.trim().split('\n').length, 1);
	const signalled = createExitGuard({screen: {active: true, restore: () => undefined}, stderr: {write: () => true}, unmount: () => undefined, cleanup: async () => undefined, secrets: [], target});
	signalled.install();
	target.emit('SIGTERM');
	assert.equal(await signalled.done, 143);
});

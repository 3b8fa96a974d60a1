import assert from 'node:assert/strict';
import {stripVTControlCharacters} from 'node:util';
import {test} from 'node:test';
import {SandboxNotRunningError} from '../source/state/conversation-actions.js';
import type {DashboardController, DashboardSnapshot, SandboxRow} from '../source/state/dashboard-types.js';
import {Dashboard} from '../source/view/Dashboard.js';
import {osc52Copy} from '../source/view/clipboard.js';
import {planAgentControl} from '../source/view/triage/agent-control-plan.js';
import {sandboxSchema} from '../source/wire/schemas/app.js';
import {type ConversationSeed, fixtureSnapshot, fixtureStore, hexId, recordingController} from './helpers/dashboard-fixture.js';
import {keys, press, renderSized, waitForFrame} from './helpers/ink.js';

/**
 * `i` stops one agent and `c` lets it continue, each behind a y/n question naming the
 * conversation; `p` says how many other conversations a sandbox pause stops; `I` stops a
 * filtered set after a typed count; `l` shows the sandbox's links with tokens hidden and copies
 * one whole only on enter (OSC 52). No frame ever holds a token in plain text.
 */

const token = 'tkn-SECRET-5f1e2d3c';
const password = 'hunter2-PASSWORD';
const vscode = `http://127.0.0.1:4100/runtime/50001/vscode/?tkn=${token}&folder=%2Fworkspace%2Fproject`;
const app = `http://admin:${password}@127.0.0.1:4100/runtime/50001/app-12000/`;

const seeds: ConversationSeed[] = [
	{id: hexId(1), title: 'Fix the flaky payment test', execution: 'running', sandboxId: 'sb-shared', updatedMinutesAgo: 1},
	{id: hexId(2), title: 'Write the migration guide', execution: 'running', sandboxId: 'sb-shared', updatedMinutesAgo: 2},
	{id: hexId(3), title: 'Add retries to the importer', execution: 'paused', sandboxId: 'sb-shared', updatedMinutesAgo: 3},
	{id: hexId(4), title: 'Refactor the CLI flags', execution: null, sandbox: 'PAUSED', sandboxId: 'sb-paused', updatedMinutesAgo: 4},
	{id: hexId(5), title: 'Bump dependencies', execution: 'running', sandboxId: 'sb-alone', updatedMinutesAgo: 5},
];

function snapshot(): DashboardSnapshot {
	const base = fixtureSnapshot({}, seeds);
	const sandboxes = new Map<string, SandboxRow>();
	const users = (id: string) => seeds.filter((seed) => seed.sandboxId === id).map((seed) => seed.id);
	for (const [id, status] of [['sb-shared', 'RUNNING'], ['sb-paused', 'PAUSED'], ['sb-alone', 'RUNNING']] as const) {
		const exposed = status === 'RUNNING' ? [{name: 'AGENT_SERVER', url: 'http://127.0.0.1:4100/runtime/50001', port: 8000}, {name: 'VSCODE', url: vscode, port: 8001}, {name: 'WORKER_1', url: app, port: 12000}] : null;
		sandboxes.set(id, {
			key: id,
			sandbox: sandboxSchema.parse({id, status, sandbox_spec_id: 'python-3.12', exposed_urls: exposed}),
			conversationKeys: users(id),
			pending: null,
			pausedByCap: false,
		});
	}
	return {...base, sandboxes};
}

type Calls = {interrupt: string[]; continueAgent: string[]};

function controller(answers: {interrupt?: (key: string) => Promise<'interrupt' | 'pause'>; continueAgent?: (key: string) => Promise<'started' | 'already-running'>} = {}) {
	const recording = recordingController();
	const calls: Calls = {interrupt: [], continueAgent: []};
	const full: DashboardController & {calls: typeof recording.calls} = {
		...recording,
		interrupt: (key) => {
			calls.interrupt.push(key);
			return answers.interrupt ? answers.interrupt(key) : Promise.resolve('interrupt');
		},
		continueAgent: (key) => {
			calls.continueAgent.push(key);
			return answers.continueAgent ? answers.continueAgent(key) : Promise.resolve('started');
		},
	};
	return {controller: full, calls};
}

function mount(control = controller(), size = {columns: 160, rows: 48}) {
	const store = fixtureStore(snapshot());
	const rendered = renderSized(<Dashboard store={store} controller={control.controller} onQuit={() => undefined} />, size);
	return {rendered, store, ...control};
}

const selectedLine = (frame: string) => frame.split('\n').find((line) => line.startsWith('› ')) ?? '';

async function select(rendered: ReturnType<typeof mount>['rendered'], title: string): Promise<void> {
	await waitForFrame(rendered.lastFrame, (text) => text.includes('Fix the flaky'));
	await press(rendered, 'g', (text) => selectedLine(text) !== '');
	for (let step = 0; step < seeds.length && !selectedLine(rendered.lastFrame()).includes(title); step++) {
		const before = selectedLine(rendered.lastFrame());
		await press(rendered, 'j', (text) => selectedLine(text) !== before);
	}
	assert.match(selectedLine(rendered.lastFrame()), new RegExp(title));
}

test('i asks y/n naming the conversation; n does nothing, y interrupts that one only', async () => {
	const {rendered, calls, controller: control} = mount();
	await select(rendered, 'Fix the flaky');
	let frame = await press(rendered, 'i', (text) => text.includes('[y/n]'));
	assert.match(frame, /Stop the agent of "Fix the flaky payment test"\? \[y\/n\]/);
	assert.match(frame, /only this one: sandbox sb-shared and its 2 other conversations keep running/);
	await press(rendered, 'n', (text) => text.includes('Cancelled.'));
	assert.deepEqual(calls.interrupt, []);

	await press(rendered, 'i', (text) => text.includes('[y/n]'));
	frame = await press(rendered, 'y', (text) => text.includes('Stopped the agent of "Fix the flaky payment test"'));
	assert.deepEqual(calls.interrupt, [hexId(1)]);
	assert.equal(control.calls.filter((call) => call.method === 'pauseSandbox').length, 0, 'no sandbox paused');
	assert.match(frame, /it is paused \(c continues it\)/);
	rendered.unmount();
});

test('c asks, then continues; "already running" is said as an answer, not an error', async () => {
	const {rendered, calls} = mount(controller({continueAgent: () => Promise.resolve('already-running')}));
	await select(rendered, 'Add retries');
	let frame = await press(rendered, 'c', (text) => text.includes('[y/n]'));
	assert.match(frame, /Let the agent of "Add retries to the importer" continue\? \[y\/n\]/);
	frame = await press(rendered, 'y', (text) => text.includes('is already running'));
	assert.deepEqual(calls.continueAgent, [hexId(3)]);
	assert.doesNotMatch(frame, /failed/);
	// i on a paused agent: nothing to stop, and the key that continues it is named.
	frame = await press(rendered, 'i', (text) => text.includes('nothing to stop'));
	assert.match(frame, /is paused: its agent is not working, nothing to stop\. Press c/);
	assert.deepEqual(calls.interrupt, []);
	rendered.unmount();
});

test('the older server fallback and a failure are reported on the notice line', async () => {
	const {rendered} = mount(controller({interrupt: (key) => (key === hexId(1) ? Promise.resolve('pause') : Promise.reject(new SandboxNotRunningError('PAUSED')))}));
	await select(rendered, 'Fix the flaky');
	await press(rendered, 'i', (text) => text.includes('[y/n]'));
	await press(rendered, 'y', (text) => text.includes('after its current step (this server has no interrupt)'));
	await select(rendered, 'Bump dependencies');
	await press(rendered, 'i', (text) => text.includes('[y/n]'));
	const frame = await press(rendered, 'y', (text) => text.includes('Press r to resume the sandbox'));
	assert.match(frame, /its sandbox is PAUSED, not RUNNING/);
	rendered.unmount();
});

test('a conversation whose sandbox is paused: i and c refuse, name r, and resume nothing', async () => {
	const {rendered, calls, controller: control} = mount();
	await select(rendered, 'Refactor the CLI');
	let frame = await press(rendered, 'i', (text) => text.includes('Press r to resume'));
	assert.match(frame, /its sandbox is paused, so nothing to stop\. Press r to resume the sandbox\./);
	assert.doesNotMatch(frame, /\[y\/n\]/);
	// The refusals are drawn after their keys were handled: a call would have been made by then.
	frame = await press(rendered, 'c', (text) => text.includes('cannot continue until the sandbox runs'));
	assert.deepEqual(calls, {interrupt: [], continueAgent: []});
	assert.equal(control.calls.filter((call) => call.method === 'resumeSandbox').length, 0, 'never resumed by itself');
	// The positive half: r is what resumes, and it asks first.
	frame = await press(rendered, 'r', (text) => text.includes('[y/n]'));
	assert.match(frame, /Resume sandbox sb-paused\?/);
	rendered.unmount();
});

test('p from a conversation says how many other conversations the sandbox pause stops', async () => {
	const {rendered} = mount();
	await select(rendered, 'Fix the flaky');
	let frame = await press(rendered, 'p', (text) => text.includes('[y/n]'));
	assert.match(frame, /Pause sandbox sb-shared and stop 2 other conversations too\? \[y\/n\]/);
	assert.match(frame, /i stops only this agent/);
	await press(rendered, 'n', (text) => text.includes('Cancelled.'));
	await select(rendered, 'Bump dependencies');
	frame = await press(rendered, 'p', (text) => text.includes('[y/n]'));
	assert.match(frame, /Pause sandbox sb-alone \(no other conversation in it\)\?/);
	rendered.unmount();
});

test('help and footer say which key stops one agent and which pauses a whole sandbox', async () => {
	const {rendered} = mount(controller(), {columns: 160, rows: 48});
	let frame = await waitForFrame(rendered.lastFrame, (text) => text.includes('Fix the flaky'));
	assert.match(frame, /i stop agent/);
	assert.match(frame, /p pause sandbox/);
	frame = await press(rendered, '?', (text) => text.includes('Stop this agent only'));
	assert.match(frame, /Pause the whole sandbox: every agent in it stops/);
	rendered.unmount();

	// At 80 columns, on an agent at work, the two stops lead the footer; on a paused one they do not.
	const narrow = mount(controller(), {columns: 80, rows: 24});
	await select(narrow.rendered, 'Fix the flaky');
	frame = await waitForFrame(narrow.rendered.lastFrame, (text) => /i stop agent {2}p pause sandbox/.test(text));
	await select(narrow.rendered, 'Add retries');
	frame = await waitForFrame(narrow.rendered.lastFrame, (text) => text.includes('j/k move'));
	assert.doesNotMatch(frame, /^i stop agent/m);
	narrow.rendered.unmount();
});

test('footer: a stopped sandbox leads with r, even when the last status it read says running', async () => {
	// The status of a stopped sandbox's conversation comes from its stored history: last known, not live.
	const base = snapshot();
	const conversations = new Map(base.conversations);
	const row = conversations.get(hexId(4))!;
	conversations.set(hexId(4), {...row, conversation: {...row.conversation, execution_status: 'running'}});
	const store = fixtureStore({...base, conversations});
	const rendered = renderSized(<Dashboard store={store} controller={controller().controller} onQuit={() => undefined} />, {columns: 80, rows: 24});
	await select(rendered, 'Fix the flaky');
	let frame = await waitForFrame(rendered.lastFrame, (text) => /^i stop agent {2}p pause sandbox/m.test(text));
	await select(rendered, 'Refactor the CLI flags');
	frame = await waitForFrame(rendered.lastFrame, (text) => /^r resume sandbox/m.test(text));
	assert.doesNotMatch(frame, /i stop agent|p pause sandbox/);
	rendered.unmount();
});

test('I: the working agents of the filtered set, a typed count, then one interrupt each', async () => {
	const {rendered, calls} = mount();
	await waitForFrame(rendered.lastFrame, (text) => text.includes('Fix the flaky'));
	let frame = await press(rendered, 'I', (text) => text.includes('Type 3 or interrupt'));
	assert.match(frame, /Stop the agents of 3 conversations shown; their sandboxes keep running \(2 skipped/);
	await press(rendered, '2', (text) => text.includes('Type 3 or interrupt to confirm: 2'));
	rendered.stdin.write(keys.enter);
	// Keys are read in order: the backspace's echo proves the enter before it was read, and left the question open.
	await press(rendered, '\u007F', (text) => /Type 3 or interrupt to confirm:\s*$/m.test(text));
	assert.deepEqual(calls.interrupt, [], 'a wrong count does nothing');
	await press(rendered, '3', (text) => text.includes('Type 3 or interrupt to confirm: 3'));
	frame = await press(rendered, keys.enter, (text) => text.includes('3 of 3 done'));
	assert.deepEqual([...calls.interrupt].sort(), [hexId(1), hexId(2), hexId(5)]);
	assert.match(frame, /✓ 00000000 {2}stopped/);
	rendered.unmount();
});

test('links: tokens and passwords hidden in the preview and the panel; enter copies the whole link with OSC 52', async () => {
	const {rendered} = mount(controller(), {columns: 139, rows: 30});
	await select(rendered, 'Fix the flaky');
	let frame = await waitForFrame(rendered.lastFrame, (text) => text.includes('VS Code http://'));
	assert.match(frame, /l VS Code http:\/\/127\.0\.0\.1:4100\/runtime\/50001\/vscode\/\?tkn=•••&folder=%2Fworkspace%2Fproject/);
	frame = await press(rendered, 'l', (text) => text.includes('tokens hidden'));
	assert.match(frame, /app :12000 +http:\/\/•••@127\.0\.0\.1:4100\/runtime\/50001\/app-12000\//);
	assert.doesNotMatch(frame, /agent server/, 'the API itself is not a link to open');
	// Until asked, the whole link is nowhere in what was written, not even inside an escape.
	for (const written of rendered.stdout.frames) assert.ok(!written.includes(token) && !written.includes(password), 'nothing written holds the token or the password');

	// o: the selected row becomes an OSC 8 link to the whole URL; its visible text stays masked.
	await press(rendered, 'o', (text) => text.includes('the selected row is now a link'));
	const raw = rendered.stdout.frames.at(-1) ?? '';
	assert.ok(raw.includes(`\u001B]8;;${new URL(vscode).href}\u0007`), 'the row links to the whole URL');
	assert.match(rendered.lastFrame(), /VS Code +http:\/\/127\.0\.0\.1:4100\/runtime\/50001\/vscode\/\?tkn=•••/);
	// Moving on drops it.
	await press(rendered, 'j', (text) => !text.includes('the selected row is now a link'));
	assert.ok(!(rendered.stdout.frames.at(-1) ?? '').includes(token));

	await press(rendered, 'k', (text) => /› VS Code/.test(text));
	frame = await press(rendered, keys.enter, (text) => text.includes('Copied the VS Code link'));
	assert.ok(rendered.stdout.frames.some((written) => written.includes(osc52Copy(vscode))), 'the whole link went to the clipboard');
	// Never drawn: no frame, once its escapes are stripped, shows the token or the password.
	for (const written of rendered.stdout.frames) {
		const visible = stripVTControlCharacters(written);
		assert.ok(!visible.includes(token) && !visible.includes(password), 'no visible text holds the token or the password');
	}
	rendered.unmount();
});

test('a sandbox that cannot be resumed (ERROR, MISSING) is not offered r: its history stays readable', () => {
	const base = snapshot();
	const row = base.conversations.get(hexId(4))!;
	for (const status of ['MISSING', 'ERROR']) {
		const conversations = new Map(base.conversations).set(hexId(4), {...row, conversation: {...row.conversation, sandbox_status: status}});
		const plan = planAgentControl({...base, conversations}, controller().controller, 'interrupt', hexId(4));
		assert.equal(plan.kind, 'refuse');
		assert.match(plan.kind === 'refuse' ? plan.text : '', new RegExp(`its sandbox is ${status.toLowerCase()}, so nothing to stop\\. It cannot be resumed; its history is still readable`));
		assert.doesNotMatch(plan.kind === 'refuse' ? plan.text : '', /Press r/);
	}
	const paused = planAgentControl(base, controller().controller, 'interrupt', hexId(4));
	assert.match(paused.kind === 'refuse' ? paused.text : '', /Press r to resume the sandbox\./);
});

test('c and i on a row whose server is not answering say so in the question; an answering server is not called down', () => {
	const base = snapshot();
	const key = hexId(1);
	const row = base.conversations.get(key)!;
	const stopped = new Map(base.conversations).set(key, {...row, conversation: {...row.conversation, sandbox_status: 'RUNNING', execution_status: 'paused'}});
	const ask = (shot: Parameters<typeof planAgentControl>[0]) => {
		const plan = planAgentControl(shot, controller().controller, 'continueAgent', key);
		assert.equal(plan.kind, 'ask', JSON.stringify(plan));
		return plan.kind === 'ask' ? plan.request.detail ?? '' : '';
	};
	const answering = ask({...base, conversations: stopped});
	assert.match(answering, /^it is paused; it picks up where it stopped$/);
	const offline = ask({...base, conversations: stopped, connection: {...base.connection, health: 'offline'}});
	assert.match(offline, /^the server is not answering \(the status shown is its last known; this may fail\) · it is paused/);
	// The all-servers view: the row's own server, by name.
	const fleetRow = {...stopped.get(key)!, server: {name: 'staging', stale: true, clockOffsetMs: 0}};
	const fleet = ask({...base, conversations: new Map(stopped).set(key, fleetRow)});
	assert.match(fleet, /^staging is not answering/);
	const fleetUp = ask({...base, conversations: new Map(stopped).set(key, {...fleetRow, server: {...fleetRow.server, stale: false}})});
	assert.doesNotMatch(fleetUp, /not answering/);
});

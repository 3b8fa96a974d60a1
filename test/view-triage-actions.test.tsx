import {test} from 'node:test';
import assert from 'node:assert/strict';
import stringWidth from 'string-width';
import {Dashboard} from '../source/view/Dashboard.js';
import type {DashboardSnapshot, TimelineState} from '../source/state/dashboard-types.js';
import {fixtureSnapshot, fixtureStore, hexId, recordingController, type RecordingController} from './helpers/dashboard-fixture.js';
import {terminalAction, terminalObservation} from './helpers/event-fixtures.js';
import type {PendingAction} from '../source/state/timeline-query.js';
import {keys, press, renderSized, waitForFrame} from './helpers/ink.js';

const waitingKey = hexId(3);
const runningKey = hexId(1);

const riskyCommand = 'rm -rf build/ && git push --force origin release/2.4';

/** What the waiting conversation's agent server says it waits for: one HIGH, one LOW action. */
function waitingActions() {
	return [terminalAction(riskyCommand, {security_risk: 'HIGH'}), terminalAction('ls build', {security_risk: 'LOW'})] as unknown as PendingAction[];
}

/** The recording controller plus the triage actions, each answering with `outcome`. */
function triageController(outcome: () => Promise<void> = () => Promise.resolve(), actions: () => Promise<readonly PendingAction[]> = async () => waitingActions()): RecordingController {
	const controller = recordingController();
	const record = (method: string) => (...args: unknown[]) => {
		controller.calls.push({method, args});
		return outcome();
	};
	const pending = (...args: unknown[]) => {
		controller.calls.push({method: 'pendingActions', args});
		return actions();
	};
	return Object.assign(controller, {approve: record('approve'), reject: record('reject'), nudge: record('nudge'), pendingActions: pending});
}

function mount(controller: RecordingController, snapshot: DashboardSnapshot = fixtureSnapshot(), size = {columns: 80, rows: 24}, pane: 'conversations' | 'timeline' = 'conversations') {
	const store = fixtureStore(snapshot);
	const rendered = renderSized(<Dashboard store={store} controller={controller} onQuit={() => undefined} initialView={{pane}} />, size);
	return {store, rendered};
}

function callsOf(controller: RecordingController, method: string) {
	return controller.calls.filter((call) => call.method === method).map((call) => call.args);
}

function assertFits(frame: string, columns: number) {
	for (const line of frame.split('\n')) assert.ok(stringWidth(line) <= columns, `line wider than ${columns}: ${JSON.stringify(line)}`);
}

/** The attention order puts the waiting conversation first: it is selected on start. */
async function ready(rendered: ReturnType<typeof renderSized>) {
	return waitForFrame(rendered.lastFrame, (frame) => /› .*Add retries/.test(frame));
}

test('a shows what it would approve (tool, command, risk) and asks; n does nothing, y approves', async () => {
	let release = () => undefined as void;
	const controller = triageController(() => new Promise<void>((resolve) => (release = resolve)));
	const {rendered} = mount(controller);
	await ready(rendered);
	const asked = await press(rendered, 'a', (frame) => frame.includes('Approve all 2 pending actions of Add retries to the importer? [y/n]') && frame.includes('rm -rf build/'));
	assertFits(asked, 80);
	assert.match(asked, /HIGH +terminal +\$ rm -rf build\/ && git push --force/);
	assert.match(asked, /LOW +terminal +\$ ls build/);
	assert.match(asked, /⚠ HIGH RISK: 1 of 2 actions is rated high risk; read it before approving/);
	assert.match(asked, /2 actions · risk: 1 HIGH, 1 LOW/);
	assert.deepEqual(callsOf(controller, 'pendingActions'), [[waitingKey]], 'read from its agent server: it is not the open conversation');
	// n: nothing is approved, and the question goes.
	await press(rendered, 'n', (frame) => frame.includes('Cancelled: nothing approved.') && !frame.includes('[y/n]'));
	assert.deepEqual(callsOf(controller, 'approve'), []);
	// Asked again, y approves: the positive half of the pair above.
	await press(rendered, 'a', (frame) => frame.includes('[y/n]') && frame.includes('rm -rf build/'));
	await press(rendered, 'y', (frame) => frame.includes('Approving Add retries'));
	assert.deepEqual(callsOf(controller, 'approve'), [[waitingKey]]);
	release();
	const frame = await waitForFrame(rendered.lastFrame, (text) => text.includes('Approved Add retries'));
	assertFits(frame, 80);
	rendered.unmount();
});

test('a: y before the actions are on screen, or when they cannot be read, approves nothing', async () => {
	let deliver: (actions: readonly PendingAction[]) => void = () => undefined;
	const controller = triageController(undefined, () => new Promise((resolve) => (deliver = resolve)));
	const {rendered} = mount(controller);
	await ready(rendered);
	await press(rendered, 'a', (frame) => frame.includes('Reading the pending actions'));
	await press(rendered, 'y', (frame) => frame.includes('the pending actions are not on screen yet'));
	assert.deepEqual(callsOf(controller, 'approve'), []);
	deliver(waitingActions());
	await waitForFrame(rendered.lastFrame, (frame) => frame.includes('rm -rf build/'));
	await press(rendered, 'y', (frame) => frame.includes('Approved Add retries'));
	assert.equal(callsOf(controller, 'approve').length, 1);
	rendered.unmount();

	const failing = triageController(undefined, () => Promise.reject(new Error('agent server unreachable')));
	const second = mount(failing).rendered;
	await ready(second);
	await press(second, 'a', (frame) => frame.includes('Cannot show the pending actions: agent server unreachable'));
	await press(second, 'y', (frame) => frame.includes('not on screen yet'));
	assert.deepEqual(callsOf(failing, 'approve'), []);
	second.unmount();
});

test('a failed approval says why; a on a conversation that is not waiting refuses and sends nothing', async () => {
	const controller = triageController(() => Promise.reject(new Error('409 nothing pending')));
	const {rendered} = mount(controller);
	await ready(rendered);
	await press(rendered, 'a', (frame) => frame.includes('[y/n]') && frame.includes('rm -rf build/'));
	await press(rendered, 'y', (frame) => frame.includes('Approve failed for Add retries') && frame.includes('409 nothing pending'));
	await press(rendered, 'j', (frame) => !/› .*Add retries/.test(frame));
	const before = controller.calls.length;
	const selected = rendered.lastFrame().split('\n').find((line) => line.startsWith('› ')) ?? '';
	assert.doesNotMatch(selected, /approve\?/);
	await press(rendered, 'a', (frame) => frame.includes('not waiting for confirmation'));
	assert.equal(controller.calls.length, before);
	rendered.unmount();
});

test('x shows the pending actions and asks y/n, then for an optional reason: enter sends it, esc cancels', async () => {
	const controller = triageController();
	const {rendered} = mount(controller);
	await ready(rendered);
	await press(rendered, 'x', (frame) => frame.includes('Reject all 2 pending actions of Add retries to the importer? [y/n]') && frame.includes('rm -rf build/'));
	await press(rendered, 'n', (frame) => frame.includes('Cancelled: nothing rejected.'));
	assert.deepEqual(callsOf(controller, 'reject'), []);
	await press(rendered, 'x', (frame) => frame.includes('[y/n]'));
	await press(rendered, 'y', (frame) => frame.includes('Reject the pending actions of Add retries') && frame.includes('reason (optional)'));
	// Letters are text here: q and n must not quit or jump.
	await press(rendered, 'q too risky', (frame) => frame.includes('q too risky'));
	await press(rendered, keys.enter, (frame) => frame.includes('Rejected Add retries'));
	assert.deepEqual(callsOf(controller, 'reject'), [[waitingKey, 'q too risky']]);

	await press(rendered, 'x', (frame) => frame.includes('[y/n]') && frame.includes('rm -rf build/'));
	await press(rendered, 'y', (frame) => frame.includes('reason (optional)'));
	await press(rendered, keys.enter, (frame) => !frame.includes('reason (optional)'));
	assert.deepEqual(callsOf(controller, 'reject').at(-1), [waitingKey, undefined], 'an empty reason is no reason');

	await press(rendered, 'x', (frame) => frame.includes('[y/n]') && frame.includes('rm -rf build/'));
	await press(rendered, 'y', (frame) => frame.includes('reason (optional)'));
	await press(rendered, 'never mind', (frame) => frame.includes('never mind'));
	await press(rendered, keys.escape, (frame) => !frame.includes('reason (optional)') && frame.includes('Cancelled.'));
	assert.equal(callsOf(controller, 'reject').length, 2);
	rendered.unmount();
});

test('m sends a message to any conversation; an empty message is not sent', async () => {
	const controller = triageController();
	const {rendered} = mount(controller);
	await ready(rendered);
	// Move to the running payment test conversation.
	for (let i = 0; i < 8 && !/› .*Fix the flaky/.test(rendered.lastFrame()); i++) {
		const last = rendered.lastFrame();
		await press(rendered, 'j', (frame) => frame !== last);
	}
	await press(rendered, 'm', (frame) => frame.includes('Send a message to Fix the flaky') && frame.includes('message:'));
	assert.ok(rendered.lastFrame().includes('Type a message'));
	// Enter on an empty field sends nothing: the text typed after it (keys are read in order)
	// lands in the same, still open, field.
	rendered.stdin.write(keys.enter);
	await press(rendered, 'run the whole suite', (frame) => frame.includes('run the whole suite') && frame.includes('enter sends · esc cancels'));
	assert.equal(callsOf(controller, 'nudge').length, 0);
	await press(rendered, keys.enter, (frame) => frame.includes('Message sent to Fix the flaky'));
	assert.deepEqual(callsOf(controller, 'nudge'), [[runningKey, 'run the whole suite']]);
	rendered.unmount();
});

test('a controller without triage support: a says so instead of failing silently', async () => {
	const controller = recordingController();
	const {rendered} = mount(controller);
	await ready(rendered);
	await press(rendered, 'a', (frame) => frame.includes('cannot approve'));
	rendered.unmount();
});

function waitingTimeline(): TimelineState {
	const done = terminalAction('ls');
	const risky = terminalAction('rm -rf build', {security_risk: 'HIGH'});
	const medium = terminalAction('git push --force', {security_risk: 'MEDIUM'});
	return {
		conversationKey: waitingKey,
		events: [done, terminalObservation(done, 'src', 0), risky, medium],
		version: 1,
		stream: {state: 'live', attempt: 0},
		executionStatus: 'waiting_for_confirmation',
		gap: false,
	};
}

for (const size of [{columns: 80, rows: 24}, {columns: 160, rows: 48}]) {
	test(`${size.columns}x${size.rows}: the timeline of a waiting conversation lists its pending actions; a and x work there`, async () => {
		const controller = triageController();
		const {rendered} = mount(controller, fixtureSnapshot({timeline: waitingTimeline()}), size, 'timeline');
		const frame = await waitForFrame(rendered.lastFrame, (text) => text.includes('Waiting for you: 2 actions'));
		assertFits(frame, size.columns);
		assert.match(frame, /HIGH +terminal +\$ rm -rf build/);
		assert.match(frame, /MEDIUM +terminal +\$ git push --force/);
		// The answered `ls` is not pending.
		assert.doesNotMatch(frame, /LOW +terminal +\$ ls/);
		assert.ok(frame.split('\n').length <= size.rows - 1);
		// The open conversation's actions come from its timeline: nothing is read again.
		const asked = await press(rendered, 'a', (text) => text.includes('Approve all 2 pending actions of Add retries to the importer? [y/n]'));
		assertFits(asked, size.columns);
		assert.match(asked, /⚠ HIGH RISK/);
		assert.deepEqual(callsOf(controller, 'pendingActions'), []);
		await press(rendered, 'y', (text) => text.includes('Approved Add retries'));
		assert.deepEqual(callsOf(controller, 'approve'), [[waitingKey]]);
		await press(rendered, 'x', (text) => text.includes('Reject all 2 pending actions'));
		await press(rendered, 'y', (text) => text.includes('reason (optional)'));
		await press(rendered, keys.escape, (text) => text.includes('Waiting for you'));
		rendered.unmount();
	});
}

test('the panel goes once the conversation no longer waits', async () => {
	const controller = triageController();
	const {rendered, store} = mount(controller, fixtureSnapshot({timeline: waitingTimeline()}), {columns: 160, rows: 40}, 'timeline');
	await waitForFrame(rendered.lastFrame, (text) => text.includes('Waiting for you'));
	store.update((current) => ({timeline: current.timeline ? {...current.timeline, executionStatus: 'running', version: 2} : null}));
	await waitForFrame(rendered.lastFrame, (text) => !text.includes('Waiting for you'));
	rendered.unmount();
});

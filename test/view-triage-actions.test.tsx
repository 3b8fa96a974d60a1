import {test} from 'node:test';
import assert from 'node:assert/strict';
import stringWidth from 'string-width';
import {Dashboard} from '../source/view/Dashboard.js';
import type {DashboardSnapshot, TimelineState} from '../source/state/dashboard-types.js';
import {fixtureSnapshot, fixtureStore, hexId, recordingController, type RecordingController} from './helpers/dashboard-fixture.js';
import {terminalAction, terminalObservation} from './helpers/event-fixtures.js';
import {keys, press, renderSized, settle, waitForFrame} from './helpers/ink.js';

const waitingKey = hexId(3);
const runningKey = hexId(1);

/** The recording controller plus the triage actions, each answering with `outcome`. */
function triageController(outcome: () => Promise<void> = () => Promise.resolve()): RecordingController {
	const controller = recordingController();
	const record = (method: string) => (...args: unknown[]) => {
		controller.calls.push({method, args});
		return outcome();
	};
	return Object.assign(controller, {approve: record('approve'), reject: record('reject'), nudge: record('nudge')});
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

test('a approves the selected waiting conversation and reports pending, then sent', async () => {
	let release = () => undefined as void;
	const controller = triageController(() => new Promise<void>((resolve) => (release = resolve)));
	const {rendered} = mount(controller);
	await ready(rendered);
	await press(rendered, 'a', (frame) => frame.includes('Approving Add retries'));
	assert.deepEqual(callsOf(controller, 'approve'), [[waitingKey]]);
	release();
	const frame = await waitForFrame(rendered.lastFrame, (text) => text.includes('Approved Add retries'));
	assertFits(frame, 80);
	rendered.unmount();
});

test('a failed approval says why; a on a conversation that is not waiting refuses and sends nothing', async () => {
	const controller = triageController(() => Promise.reject(new Error('409 nothing pending')));
	const {rendered} = mount(controller);
	await ready(rendered);
	await press(rendered, 'a', (frame) => frame.includes('Approve failed for Add retries') && frame.includes('409 nothing pending'));
	await press(rendered, 'j', (frame) => !/› .*Add retries/.test(frame));
	const before = controller.calls.length;
	const selected = rendered.lastFrame().split('\n').find((line) => line.startsWith('› ')) ?? '';
	assert.doesNotMatch(selected, /approve\?/);
	await press(rendered, 'a', (frame) => frame.includes('not waiting for confirmation'));
	assert.equal(controller.calls.length, before);
	rendered.unmount();
});

test('x asks for an optional reason: enter sends it, esc cancels without sending', async () => {
	const controller = triageController();
	const {rendered} = mount(controller);
	await ready(rendered);
	await press(rendered, 'x', (frame) => frame.includes('Reject the pending actions of Add retries') && frame.includes('reason (optional)'));
	// Letters are text here: q and n must not quit or jump.
	await press(rendered, 'q too risky', (frame) => frame.includes('q too risky'));
	await press(rendered, keys.enter, (frame) => frame.includes('Rejected Add retries'));
	assert.deepEqual(callsOf(controller, 'reject'), [[waitingKey, 'q too risky']]);

	await press(rendered, 'x', (frame) => frame.includes('reason (optional)'));
	await press(rendered, keys.enter, (frame) => !frame.includes('reason (optional)'));
	assert.deepEqual(callsOf(controller, 'reject').at(-1), [waitingKey, undefined], 'an empty reason is no reason');

	await press(rendered, 'x', (frame) => frame.includes('reason (optional)'));
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
	rendered.stdin.write(keys.enter);
	await settle(100);
	assert.equal(callsOf(controller, 'nudge').length, 0);
	assert.ok(rendered.lastFrame().includes('Type a message'));
	await press(rendered, 'run the whole suite', (frame) => frame.includes('run the whole suite'));
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
		await press(rendered, 'a', (text) => text.includes('Approved Add retries'));
		assert.deepEqual(callsOf(controller, 'approve'), [[waitingKey]]);
		await press(rendered, 'x', (text) => text.includes('reason (optional)'));
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

import {test} from 'node:test';
import assert from 'node:assert/strict';
import {Dashboard} from '../source/view/Dashboard.js';
import {ChangesSession} from '../source/state/changes-session.js';
import type {DashboardSnapshot} from '../source/state/dashboard-types.js';
import type {ViewState} from '../source/view/view-state.js';
import {fixtureSnapshot, fixtureStore, recordingController, type RecordingController} from './helpers/dashboard-fixture.js';
import {keys, press, renderSized, waitForFrame} from './helpers/ink.js';

/**
 * Keys pressed before the list their plan reads has arrived (the first seconds after start, a
 * slow server): each says what it waits for, does nothing yet, and is planned once, when the
 * list lands (the question, or the view it opens), never "not loaded, try again". The lists
 * arrive by hand here (`store.update`), so nothing depends on timing.
 */

const full = fixtureSnapshot();

/** The recording controller plus the optional actions these keys reach. */
function controller(): RecordingController {
	const recording = recordingController();
	const record = (method: string) => (...args: unknown[]) => {
		recording.calls.push({method, args});
		return Promise.resolve('interrupt');
	};
	// A Changes view whose server never answers: what matters here is that it opens.
	const git = {changes: () => new Promise<never>(() => undefined), diff: () => new Promise<never>(() => undefined)};
	return Object.assign(recording, {
		approve: record('approve'),
		reject: record('reject'),
		nudge: record('nudge'),
		interrupt: record('interrupt'),
		continueAgent: record('continueAgent'),
		pendingActions: async () => [],
		openChanges: (key: string) => {
			recording.calls.push({method: 'openChanges', args: [key]});
			return new ChangesSession({conversationKey: key, conversation: () => full.conversations.get(key)?.conversation, appBaseUrl: 'http://app.example.test', secrets: [], client: () => git});
		},
	});
}

function mount(snapshot: DashboardSnapshot, initialView: Partial<ViewState> = {}) {
	const store = fixtureStore(snapshot);
	const control = controller();
	const rendered = renderSized(<Dashboard store={store} controller={control} onQuit={() => undefined} initialView={initialView} />, {columns: 100, rows: 30});
	return {store, control, rendered};
}

const noConversations = {conversations: new Map(), conversationsListed: false, sandboxes: new Map(), sandboxesListed: false} satisfies Partial<DashboardSnapshot>;
const noSandboxes = {sandboxes: new Map(), sandboxesListed: false} satisfies Partial<DashboardSnapshot>;
const actions = (control: RecordingController) => control.calls.filter((call) => !['setVisibleConversations', 'openTimeline', 'closeTimeline'].includes(call.method));

test('p before the sandbox list: waits for it, says so, and asks once it lands', async () => {
	const {store, control, rendered} = mount({...full, ...noSandboxes});
	await waitForFrame(rendered.lastFrame, (frame) => /› .*Add retries/.test(frame));
	const waiting = await press(rendered, 'p', (frame) => frame.includes('p: waiting for the sandbox list; the question follows when it arrives'));
	assert.doesNotMatch(waiting, /try again|not loaded|\[y\/n\]/);
	store.update(() => ({sandboxes: full.sandboxes, sandboxesListed: true}));
	const asked = await waitForFrame(rendered.lastFrame, (frame) => /Pause sandbox sb-\w+ \(no other conversation in it\)\? \[y\/n\]/.test(frame));
	assert.match(asked, /Add retries/);
	assert.deepEqual(actions(control), [], 'asked, not acted');
	await press(rendered, 'y', (frame) => !frame.includes('[y/n]'));
	assert.deepEqual(
		control.calls.filter((call) => call.method === 'pauseSandbox').map((call) => call.args[0]),
		[full.conversations.get([...full.conversations.keys()].find((key) => full.conversations.get(key)!.conversation.title?.startsWith('Add retries'))!)!.conversation.sandbox_id],
	);
	rendered.unmount();
});

test('r in the sandboxes pane before the list: nothing is selected yet; the first sandbox is asked about once it lands', async () => {
	const paused = fixtureSnapshot({}, [{id: 'a'.repeat(32), title: 'Paused one', sandbox: 'PAUSED', execution: null}]);
	const {store, rendered} = mount({...paused, ...noSandboxes}, {pane: 'sandboxes', listPane: 'sandboxes'});
	await waitForFrame(rendered.lastFrame, (frame) => frame.includes('2 Sandboxes (0)'));
	await press(rendered, 'r', (frame) => frame.includes('r: waiting for the sandbox list; the question follows when it arrives'));
	store.update(() => ({sandboxes: paused.sandboxes, sandboxesListed: true}));
	await waitForFrame(rendered.lastFrame, (frame) => /Resume sandbox sb-aaaa\?.*\[y\/n\]/.test(frame));
	rendered.unmount();
});

for (const [key, asked] of [
	['i', /Stop the agent of "Add retries to the importer"\? \[y\/n\]/],
	['c', /Let the agent of "Add retries to the importer" continue\? \[y\/n\]/],
	['a', /Approve/],
	['x', /Reject/],
] as const) {
	test(`${key} before the conversation list: waits for both lists it reads, then asks about the conversation selected once they land`, async () => {
		const {store, control, rendered} = mount({...full, ...noConversations});
		await waitForFrame(rendered.lastFrame, (frame) => frame.includes('1 Conversations (0)'));
		const waiting = await press(rendered, key, (frame) => frame.includes(`${key}: waiting for the conversation list`));
		assert.doesNotMatch(waiting, /try again|not loaded|\[y\/n\]/);
		assert.match(waiting, /Loading conversations…/, 'the list says it is loading, not that there are none');
		store.update(() => ({conversations: full.conversations, conversationsListed: true}));
		if (key === 'i' || key === 'c') {
			// The list is there (the row is drawn), the question is not: i and c also count the sandbox's other conversations.
			const listed = await waitForFrame(rendered.lastFrame, (frame) => /› .*Add retries/.test(frame));
			assert.doesNotMatch(listed, /\[y\/n\]/, 'still waiting for the sandbox list');
			store.update(() => ({sandboxes: full.sandboxes, sandboxesListed: true}));
		}
		const frame = await waitForFrame(rendered.lastFrame, (text) => asked.test(text) && text.includes('Add retries'));
		assert.doesNotMatch(frame, /waiting for the (conversation|sandbox) list/, 'the waiting notice went with the wait');
		assert.deepEqual(actions(control), [], 'asked, not acted');
		rendered.unmount();
	});
}

test('d and l before the lists: the Changes view and the links open for the conversation selected once they land', async () => {
	for (const [key, opened] of [
		['d', /Changes ·/],
		['l', /tokens hidden/],
	] as const) {
		const {store, control, rendered} = mount({...full, ...noConversations});
		await waitForFrame(rendered.lastFrame, (frame) => frame.includes('1 Conversations (0)'));
		await press(rendered, key, (frame) => frame.includes(`${key}: waiting for the conversation list`));
		store.update(() => ({conversations: full.conversations, conversationsListed: true, sandboxes: full.sandboxes, sandboxesListed: true}));
		await waitForFrame(rendered.lastFrame, (frame) => opened.test(frame), {message: `${key} opened`});
		if (key === 'd') assert.equal(control.calls.filter((call) => call.method === 'openChanges').length, 1);
		rendered.unmount();
	}
});

test('esc cancels a waiting key: the list lands and nothing is asked', async () => {
	const {store, control, rendered} = mount({...full, ...noSandboxes});
	await waitForFrame(rendered.lastFrame, (frame) => /› .*Add retries/.test(frame));
	await press(rendered, 'p', (frame) => frame.includes('p: waiting for the sandbox list'));
	await press(rendered, keys.escape, (frame) => frame.includes('Cancelled: p will not act when the list arrives.'));
	store.update(() => ({sandboxes: full.sandboxes, sandboxesListed: true}));
	// The list did land (the tab counts it); no question came with it.
	const landed = await waitForFrame(rendered.lastFrame, (frame) => frame.includes(`2 Sandboxes (${full.sandboxes.size})`));
	assert.doesNotMatch(landed, /\[y\/n\]/);
	// And a key pressed now is planned at once.
	await press(rendered, 'p', (frame) => frame.includes('[y/n]'));
	assert.deepEqual(actions(control), []);
	rendered.unmount();
});

test('a key on a conversation already here needs no whole list: planned at once, not waiting', async () => {
	const {rendered} = mount({...full, conversationsListed: false});
	await waitForFrame(rendered.lastFrame, (frame) => /› .*Add retries/.test(frame));
	const frame = await press(rendered, 'a', (text) => /Approve/.test(text));
	assert.doesNotMatch(frame, /waiting for the (conversation|sandbox) list/);
	rendered.unmount();
});

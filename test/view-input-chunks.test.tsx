import {test, type TestContext} from 'node:test';
import assert from 'node:assert/strict';
import {Dashboard} from '../source/view/Dashboard.js';
import {fixtureSnapshot, fixtureStore, recordingController, type RecordingController} from './helpers/dashboard-fixture.js';
import {eventually} from './helpers/eventually.js';
import {keys, press, renderSized, waitForFrame} from './helpers/ink.js';

/**
 * Keys as they arrive over SSH: several in one read (each stdin.write here is one read), in
 * order; bracketed pastes; the readline keys in every text field; a message the server refused
 * stays in its field.
 */

const backspace = '\u007F';
const ctrl = (letter: string) => String.fromCharCode(letter.charCodeAt(0) - 96);
const paste = (text: string) => `\u001B[200~${text}\u001B[201~`;

/**
 * The dashboard on the fixture fleet at 80x24, unmounted when the test ends, once a frame is
 * `ready` (the list drawn, by default): that frame, and how many times it asked to quit.
 */
async function mount(t: TestContext, controller: RecordingController = recordingController(), ready = (text: string) => text.includes('Upgrade React')) {
	const store = fixtureStore(fixtureSnapshot());
	let quits = 0;
	const rendered = renderSized(<Dashboard store={store} controller={controller} onQuit={() => quits++} />, {columns: 80, rows: 24});
	t.after(() => rendered.unmount());
	const frame = await waitForFrame(rendered.lastFrame, ready);
	return {rendered, controller, quits: () => quits, frame};
}

/** The selected row (marked ›) and where it is on screen. */
const selectedRow = (frame: string) => frame.split('\n').find((line) => line.startsWith('›')) ?? '';
const rowIndex = (frame: string, row: string) => frame.split('\n').findIndex((line) => line.slice(1) === row.slice(1));

/** The filter line's text as drawn (`/ text … N of M`). */
const filterLine = (frame: string) => frame.split('\n').find((line) => line.startsWith('/ ')) ?? '';

test('two backspaces in one read delete two characters', async (t) => {
	const {rendered} = await mount(t);
	await press(rendered, '/', (text) => text.includes('8 of 8'));
	await press(rendered, 'status:stuckxx', (text) => filterLine(text).includes('status:stuckxx'));
	const frame = await press(rendered, backspace + backspace, (text) => text.includes('1 of 8'));
	assert.match(filterLine(frame), /\/ status:stuck /);
	assert.doesNotMatch(filterLine(frame), /stuckx/);
});

test('/status:stuck and Enter in one read open the filter, type it and apply it', async (t) => {
	const {rendered, quits, controller} = await mount(t);
	const frame = await press(rendered, '/status:stuck\r', (text) => text.includes('esc clears'), 'the filter applied');
	assert.match(filterLine(frame), /status:stuck/);
	assert.match(frame, /Upgrade React/);
	assert.doesNotMatch(frame, /Fix the flaky/);
	// The list has the keyboard again: a key typed now is a command, not text.
	const cleared = await press(rendered, keys.escape, (text) => text.includes('Fix the flaky'));
	// A long chunk that does not start with / is a paste into the list: it fires nothing. (Taken
	// as keys, `please quit now` would ask to pause a sandbox, then quit.)
	const acted = controller.calls.length;
	rendered.stdin.write('please quit now');
	// A key read after it: once that has moved the selection, the chunk before it was handled.
	const frame2 = await press(rendered, 'j', (text) => selectedRow(text) !== selectedRow(cleared), 'j after the pasted words');
	assert.equal(quits(), 0);
	assert.doesNotMatch(frame2, /\[y\/n\]|Pause sandbox/, 'no question opened');
	assert.doesNotMatch(frame2, /^\/ /m, 'no filter opened');
	assert.deepEqual(controller.calls.slice(acted).filter((call) => call.method !== 'setVisibleConversations'), [], 'nothing acted on');
	// Typed ahead within the limit, the same letters are keys: `jj` moves two rows.
	const start = selectedRow(frame2);
	const moved = await press(rendered, 'jj', (text) => rowIndex(text, selectedRow(text)) === rowIndex(frame2, start) + 2, 'jj moving two rows');
	assert.notEqual(selectedRow(moved), start);
});

test('ctrl-w, ctrl-a, ctrl-e and ctrl-u edit the filter line; they type no letters', async (t) => {
	const {rendered} = await mount(t);
	await press(rendered, '/', (text) => text.includes('8 of 8'));
	await press(rendered, 'react stuck', (text) => filterLine(text).includes('react stuck'));
	let frame = await press(rendered, ctrl('w'), (text) => !filterLine(text).includes('stuck'));
	assert.match(filterLine(frame), /\/ react /);
	// ctrl-a, then text at the start; ctrl-e, then text at the end: all in one read.
	frame = await press(rendered, `${ctrl('a')}status:stuck ${ctrl('e')}upgrade`, (text) => filterLine(text).includes('status:stuck react upgrade'));
	assert.match(frame, /1 of 8/);
	frame = await press(rendered, ctrl('u'), (text) => text.includes('8 of 8'));
	assert.doesNotMatch(filterLine(frame), /react|upgrade/, 'the line is empty (its placeholder shows)');
	frame = await press(rendered, 'x', (text) => /\/ x/.test(filterLine(text)));
	assert.doesNotMatch(filterLine(frame), /ux|xu/, 'no letter u was typed by ctrl-u');
});

test('a bracketed paste is text for the field, and nothing at all in the list', async (t) => {
	const {rendered, quits} = await mount(t);
	// Pasted into the list: `q` would quit and `/` would open the filter if they were keys.
	rendered.stdin.write(paste('q/status'));
	// The / typed after it (keys are read in order) opens an empty filter: the paste was read, and opened nothing.
	const opened = await press(rendered, '/', (text) => text.includes('8 of 8'));
	assert.equal(quits(), 0, 'a pasted q is not a key');
	assert.match(filterLine(opened), /^\/ status:error sandbox:paused/, 'a pasted / opened nothing, and its text went nowhere: the new filter is empty (its placeholder shows)');
	// Pasted into the filter, in one read with the key that follows it.
	const frame = await press(rendered, `${paste('status:stuck\nq')}${backspace}${backspace}`, (text) => text.includes('1 of 8'));
	assert.match(filterLine(frame), /\/ status:stuck /);
	assert.equal(quits(), 0);
	// The markers may also come in reads of their own, the text split across them.
	await press(rendered, ctrl('u'), (text) => text.includes('8 of 8'));
	rendered.stdin.write('\u001B[200~stat');
	rendered.stdin.write('us:stuck\u001B[201~');
	await waitForFrame(rendered.lastFrame, (text) => text.includes('1 of 8'));
});

test('the message box edits like every field, and a message that fails to send stays in it', async (t) => {
	let fail = true;
	const controller = recordingController();
	const nudges: string[] = [];
	Object.assign(controller, {
		nudge: async (_key: string, text: string) => {
			nudges.push(text);
			if (fail) throw new Error('the sandbox is paused');
		},
	});
	const {rendered} = await mount(t, controller, (text) => /› .*Add retries/.test(text));
	await press(rendered, 'm', (text) => text.includes('message:'));
	await press(rendered, 'please rerun the tests', (text) => text.includes('please rerun the tests'));
	let frame = await press(rendered, `${ctrl('w')}${ctrl('w')}${ctrl('a')}${ctrl('k')}`, (text) => !text.includes('please'));
	assert.match(frame, /message: /);
	await press(rendered, 'run the whole suite', (text) => text.includes('run the whole suite'));
	frame = await press(rendered, keys.enter, (text) => text.includes('Message failed'), 'the failure');
	assert.match(frame, /message: run the whole suite/, 'the message is still in the field');
	assert.match(frame, /text is kept/);
	assert.deepEqual(nudges, ['run the whole suite']);
	fail = false;
	frame = await press(rendered, keys.enter, (text) => text.includes('Message sent to'), 'sent on retry');
	assert.doesNotMatch(frame, /message: run/, 'the prompt closed once sent');
	assert.deepEqual(nudges, ['run the whole suite', 'run the whole suite']);
});

test('the start form fields take ctrl-u and ctrl-w, and keys typed together', async (t) => {
	const {rendered} = await mount(t);
	await press(rendered, '+', (text) => text.includes('Start a conversation'));
	await press(rendered, 'Fix the failing tests', (text) => text.includes('Fix the failing tests'));
	let frame = await press(rendered, `${ctrl('w')}${backspace}${backspace}`, (text) => !text.includes('failing'));
	// ctrl-w took "tests", the two backspaces the space and the g.
	assert.match(frame, /Fix the failin(?!g)/);
	frame = await press(rendered, `${ctrl('u')}Upgrade`, (text) => text.includes('Upgrade') && !text.includes('Fix the'));
	assert.ok(frame.includes('Upgrade'));
});


test('/text, Enter and Enter in one read: the filter applied, then the row opened; a pasted line\'s rest after Enter is not keys', async (t) => {
	const {rendered, controller, quits} = await mount(t);
	const opened = () => controller.calls.filter((call) => call.method === 'openTimeline').length;
	// Typed fast, or read together on a loaded machine: the second Enter opens the row, as two
	// Enters typed apart do. (It was dropped as meant for the field the first Enter closed.)
	rendered.stdin.write('/status:stuck\r\r');
	await eventually(opened, 'the row opened by the second Enter', {until: (count) => count === 1, detail: () => rendered.lastFrame()});
	await press(rendered, '1', (text) => text.includes('[1 Conversations'), 'the list again');
	// Text after an Enter in a field is the rest of a pasted line: for the field that closed, never keys.
	const before = controller.calls.length;
	rendered.stdin.write('/status:stuck\rdq');
	const frame = await press(rendered, 'j', (text) => !text.includes('enter done'), 'a key after the chunk');
	assert.doesNotMatch(frame, /\[y\/n\]/);
	assert.deepEqual(controller.calls.slice(before).filter((call) => call.method !== 'setVisibleConversations').map((call) => call.method), [], 'd did nothing');
	assert.equal(quits(), 0, 'q did not quit');
});

test('Esc and q read together in a field: Esc closes the field, q quits', async (t) => {
	const {rendered, quits} = await mount(t);
	await press(rendered, '/', (text) => text.includes('8 of 8'));
	await press(rendered, 'status:stuck', (text) => text.includes('1 of 8'));
	rendered.stdin.write('\u001Bq');
	await eventually(quits, 'the quit', {until: (count) => count === 1, detail: () => rendered.lastFrame()});
});

test('keys in the kitty keyboard protocol: Esc, and ctrl keys in a field', async (t) => {
	const {rendered} = await mount(t);
	await press(rendered, '/', (text) => text.includes('8 of 8'));
	await press(rendered, 'react stuck', (text) => filterLine(text).includes('react stuck'));
	// ctrl-w as kitty sends it: the codepoint of w, modifiers 1 + ctrl (4).
	const frame = await press(rendered, '\u001B[119;5u', (text) => !filterLine(text).includes('stuck'));
	assert.match(filterLine(frame), /\/ react /);
	// Esc as kitty sends it: CSI 27 u.
	await press(rendered, '\u001B[27u', (text) => !/^\/ /m.test(text), 'the filter line closed');
});

test('Down Down Down in one read moves three rows in the list', async (t) => {
	const {rendered, frame} = await mount(t, undefined, (text) => selectedRow(text) !== '');
	const start = rowIndex(frame, selectedRow(frame));
	await press(rendered, keys.down.repeat(3), (text) => rowIndex(text, selectedRow(text)) === start + 3, 'three rows down');
});

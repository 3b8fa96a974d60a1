import {test} from 'node:test';
import assert from 'node:assert/strict';
import {Dashboard} from '../source/view/Dashboard.js';
import {SnoozeBook} from '../source/state/snooze-book.js';
import {withSnoozes} from '../source/state/snoozed-dashboard.js';
import {fixtureSnapshot, fixtureStore, hexId, recordingController} from './helpers/dashboard-fixture.js';
import {keys, press, renderSized, waitForFrame} from './helpers/ink.js';

/** `s` on a row or a cause group in `!`: out of the queue, marked `z` in the list, listed by the `snoozed` filter; `u` brings it back. */

const selected = (frame: string) => frame.split('\n').find((line) => line.startsWith('› ')) ?? '';
const rowOf = (frame: string, title: string) => frame.split('\n').find((line) => line.includes(title)) ?? '';

function mount() {
	const book = new SnoozeBook(null);
	const {store, controller} = withSnoozes({store: fixtureStore(fixtureSnapshot()), controller: recordingController()}, book);
	const rendered = renderSized(<Dashboard store={store} controller={controller} onQuit={() => undefined} />, {columns: 100, rows: 24});
	return {rendered, book};
}

test('s on a row, then s: it leaves the ! queue, keeps a z mark, and the snoozed filter lists it; u brings it back', async (t) => {
	const {rendered, book} = mount();
	t.after(() => rendered.unmount());
	let frame = await waitForFrame(rendered.lastFrame, (text) => /Add retries/.test(selected(text)));
	assert.match(rowOf(frame, 'Add retries'), /! approve\?/);
	frame = await press(rendered, '!', (text) => text.includes('waiting for approval'));
	await press(rendered, keys.escape, (text) => text.includes('AGENT'));

	frame = await press(rendered, 's', (text) => text.includes('until it changes') && text.includes('for a week'), 'the chooser');
	frame = await press(rendered, 's', (text) => /Snoozed Add retries/.test(text), 'snoozed');
	assert.match(rowOf(frame, 'Add retries'), /z approve\?/, 'the mark, readable without colour');
	assert.doesNotMatch(rowOf(frame, 'Add retries'), /! approve/);
	assert.equal(book.get(hexId(3))?.until, 'change');

	frame = await press(rendered, '!', (text) => text.includes('What needs you'));
	assert.doesNotMatch(frame, /^[› ] waiting for approval/m, 'out of the queue');
	assert.match(frame, /stuck/, 'the others are still there');
	await press(rendered, keys.escape, (text) => text.includes('AGENT'));

	frame = await press(rendered, '/snoozed\r', (text) => text.includes('esc clears'));
	assert.match(frame, /z approve\? .*Add retries/);
	assert.doesNotMatch(frame, /Upgrade React|Investigate memory/, 'only the snoozed row');
	assert.match(frame, /z snoozed until it changes \(u ends it\) · waiting for you/, 'the preview says it in words');
	frame = await press(rendered, 'u', (text) => /Unsnoozed Add retries/.test(text));
	assert.equal(book.get(hexId(3)), undefined);
	frame = await press(rendered, keys.escape, (text) => text.includes('Upgrade React'));
	assert.match(rowOf(frame, 'Add retries'), /! approve\?/, 'back');
});

test('s on a cause group in !, then a week: the group leaves the queue, which stays open', async (t) => {
	const {rendered, book} = mount();
	t.after(() => rendered.unmount());
	await waitForFrame(rendered.lastFrame, (text) => text.includes('Add retries'));
	let frame = await press(rendered, '!', (text) => /› waiting for approval/.test(text));
	frame = await press(rendered, 's', (text) => text.includes('for a week'), 'the chooser');
	assert.match(frame, /Snooze waiting for approval \(1\)/);
	await press(rendered, 'j', (text) => /› for 1 hour/.test(text));
	await press(rendered, 'j', (text) => /› for 1 day/.test(text));
	await press(rendered, 'j', (text) => /› for a week/.test(text));
	frame = await press(rendered, keys.enter, (text) => text.includes('What needs you') && /Snoozed/.test(text), 'back in the queue');
	assert.doesNotMatch(frame, /^[› ] waiting for approval/m, 'not a group of the queue any more');
	assert.match(frame, /^[› ] stuck/m);
	const until = book.get(hexId(3))?.until;
	assert.ok(typeof until === 'number' && until > Date.now() + 6 * 86_400_000, `a week: ${String(until)}`);
});

import {test} from 'node:test';
import assert from 'node:assert/strict';
import {Dashboard} from '../source/view/Dashboard.js';
import {conversationRow, fixtureSnapshot, fixtureStore, hexId, recordingController} from './helpers/dashboard-fixture.js';
import {press, renderSized, waitForFrame} from './helpers/ink.js';

function rowIndex(frame: string, title: string): number {
	return frame.split('\n').findIndex((line) => line.includes(title));
}

test('F holds the list still while rows change, counts the changes, and F again applies them', async () => {
	const store = fixtureStore(fixtureSnapshot());
	const rendered = renderSized(<Dashboard store={store} controller={recordingController()} onQuit={() => undefined} />, {columns: 100, rows: 30});
	const before = await waitForFrame(rendered.lastFrame, (frame) => frame.includes('Write the migration') && frame.includes('Add retries'));
	const finishedAt = rowIndex(before, 'Write the migration');
	await press(rendered, 'F', (frame) => frame.includes('frozen·0 new'));

	// The finished conversation errors (it would jump to the top) and a new one arrives.
	store.update((current) => {
		const conversations = new Map(current.conversations);
		conversations.set(hexId(4), conversationRow({id: hexId(4), title: 'Write the migration guide', execution: 'error', updatedMinutesAgo: 0}));
		conversations.set(hexId(9), conversationRow({id: hexId(9), title: 'A brand new conversation', execution: 'running'}));
		return {conversations};
	});
	const held = await waitForFrame(rendered.lastFrame, (frame) => frame.includes('frozen·2 new'));
	assert.equal(rowIndex(held, 'Write the migration'), finishedAt, 'the changed row stays where it was');
	assert.ok(!held.includes('A brand new conversation'), 'the new row waits');
	assert.match(held.split('\n')[finishedAt] ?? '', /finished/, 'the held row shows what it showed when frozen');

	const live = await press(rendered, 'F', (frame) => !frame.includes('frozen·') && frame.includes('A brand new conversation'));
	assert.ok(rowIndex(live, 'Write the migration') < finishedAt, 'the errored row moved up the attention queue');
	rendered.unmount();
});

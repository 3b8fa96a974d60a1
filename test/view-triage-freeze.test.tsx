import {test} from 'node:test';
import assert from 'node:assert/strict';
import {Dashboard} from '../source/view/Dashboard.js';
import {type ConversationSeed, conversationRow, fixtureSnapshot, fixtureStore, hexId, recordingController} from './helpers/dashboard-fixture.js';
import {keys, press, renderSized, waitForFrame} from './helpers/ink.js';

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

test('while frozen, what the user does to the list still applies to the held rows: a fold, a filter', async () => {
	const parent = hexId(1);
	const seeds: ConversationSeed[] = [
		{id: parent, title: 'Refactor payments', execution: 'running', updatedMinutesAgo: 2},
		{id: hexId(2), title: 'Write the unit tests', execution: 'running', parent, updatedMinutesAgo: 1},
		{id: hexId(3), title: 'Plan the refactor', execution: 'finished', parent, updatedMinutesAgo: 40},
		{id: hexId(4), title: 'Migrate the billing tables', execution: 'running', updatedMinutesAgo: 5},
		{id: hexId(5), title: 'Investigate the memory growth', execution: 'stuck', updatedMinutesAgo: 6},
	];
	const store = fixtureStore(fixtureSnapshot({}, seeds));
	const rendered = renderSized(<Dashboard store={store} controller={recordingController()} onQuit={() => undefined} />, {columns: 100, rows: 24});
	await waitForFrame(rendered.lastFrame, (frame) => frame.includes('Write the unit tests'));
	await press(rendered, 'F', (frame) => frame.includes('frozen·0 new'));
	// A row changes on the server meanwhile: held as it was.
	store.update((current) => {
		const conversations = new Map(current.conversations);
		conversations.set(hexId(4), conversationRow({id: hexId(4), title: 'Migrate the billing tables', execution: 'error', updatedMinutesAgo: 0}));
		return {conversations};
	});
	await waitForFrame(rendered.lastFrame, (frame) => frame.includes('frozen·1 new'));
	// Space on the parent folds its sub-agents now, not once unfrozen.
	await press(rendered, 'gj', (frame) => /^› .*Refactor payments/m.test(frame));
	const folded = await press(rendered, ' ', (frame) => !frame.includes('Write the unit tests'));
	assert.match(folded, /▸.*Refactor payments/);
	assert.match(folded, /frozen·1 new/, 'the server\'s change is still held');
	// A filter shows what it says: "1 of 5", and only that row.
	await press(rendered, '/', (frame) => frame.includes('/ '));
	const filtered = await press(rendered, 'billing', (frame) => frame.includes('1 of 5'));
	assert.match(filtered, /Migrate the billing tables/);
	assert.doesNotMatch(filtered, /Investigate the memory/);
	assert.match(filtered.split('\n').find((line) => line.includes('Migrate the billing')) ?? '', /running/, 'as held: not the error that came since');
	await press(rendered, keys.escape, (frame) => frame.includes('Investigate the memory'));
	const live = await press(rendered, 'F', (frame) => !frame.includes('frozen·'));
	assert.match(live.split('\n').find((line) => line.includes('Migrate the billing')) ?? '', /error/);
	rendered.unmount();
});

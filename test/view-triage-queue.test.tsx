import {test} from 'node:test';
import assert from 'node:assert/strict';
import {Dashboard} from '../source/view/Dashboard.js';
import {fixtureSnapshot, fixtureStore, hexId, recordingController} from './helpers/dashboard-fixture.js';
import {sampleRun} from './helpers/event-fixtures.js';
import {keys, press, renderSized, waitForFrame} from './helpers/ink.js';

const selected = (frame: string) => frame.split('\n').find((line) => line.startsWith('› ')) ?? '';

test('the attention queue is the default order, each row says why and since when', async () => {
	const rendered = renderSized(<Dashboard store={fixtureStore(fixtureSnapshot())} controller={recordingController()} onQuit={() => undefined} />, {columns: 100, rows: 24});
	const frame = await waitForFrame(rendered.lastFrame, (text) => text.includes('Add retries'));
	const lines = frame.split('\n');
	const at = (title: string) => lines.findIndex((line) => line.includes(title));
	assert.ok(at('Add retries') < at('Investigate memory'), 'waiting before error');
	assert.ok(at('Investigate memory') < at('Upgrade React'), 'error before stuck');
	assert.ok(at('Upgrade React') < at('Fix the flaky'), 'stuck before healthy');
	assert.match(lines[at('Add retries')] ?? '', /! approve\? \d+[smhd]/);
	assert.match(lines[at('Upgrade React')] ?? '', /! stuck \d+[smhd]/);
	rendered.unmount();
});

test('n and N jump through the queue from the timeline and from an event\'s details', async () => {
	const timeline = {conversationKey: hexId(1), events: sampleRun(), version: 1, stream: {state: 'live' as const, attempt: 0}, executionStatus: 'finished', gap: false};
	const rendered = renderSized(
		<Dashboard store={fixtureStore(fixtureSnapshot({timeline}))} controller={recordingController()} onQuit={() => undefined} initialView={{pane: 'timeline'}} />,
		{columns: 80, rows: 24},
	);
	await waitForFrame(rendered.lastFrame, (text) => text.includes('All tests pass now'));
	// From the timeline: n lands on the list, on the next conversation needing a person after the selection.
	let frame = await press(rendered, 'n', (text) => text.includes('AGENT') && /Investigate/.test(selected(text)));
	frame = await press(rendered, 'N', (text) => /Add retries/.test(selected(text)));
	// From the details of an event.
	await press(rendered, '3', (text) => text.includes('All tests pass now'));
	frame = await press(rendered, keys.enter, (text) => text !== frame && !text.includes('AGENT'));
	await waitForFrame(rendered.lastFrame, (text) => /esc back/.test(text));
	await press(rendered, 'n', (text) => text.includes('AGENT') && /Investigate/.test(selected(text)));
	rendered.unmount();
});

test('80x24: the footer leads with a approve and x reject while a waiting conversation is selected, not otherwise', async () => {
	const rendered = renderSized(<Dashboard store={fixtureStore(fixtureSnapshot())} controller={recordingController()} onQuit={() => undefined} />, {columns: 80, rows: 24});
	const footer = (text: string) => text.split('\n').find((line) => line.includes('? help')) ?? '';
	let frame = await waitForFrame(rendered.lastFrame, (text) => /Add retries/.test(selected(text)));
	assert.match(footer(frame), /^a approve {2}x reject {2}.*\? help$/);
	frame = await press(rendered, 'j', (text) => /Investigate/.test(selected(text)));
	assert.doesNotMatch(footer(frame), /approve|reject/);
	rendered.unmount();
});

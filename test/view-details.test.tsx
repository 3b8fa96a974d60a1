import {test} from 'node:test';
import assert from 'node:assert/strict';
import {cellWidth} from '../source/format/width.js';
import {EventDetails} from '../source/view/details/EventDetails.js';
import type {WireEvent} from '../source/wire/schemas/events.js';
import {keys, press as pressOnly, renderSized, settle, waitForFrame} from './helpers/ink.js';
import {message, terminalAction, terminalObservation, wire} from './helpers/event-fixtures.js';
import {KeyHarness} from './helpers/pane-harness.js';

async function press(...args: Parameters<typeof pressOnly>): Promise<string> {
	const frame = await pressOnly(...args);
	// Handlers register in effects, just after their frame is written.
	await settle(25);
	return frame;
}

function mount(event: WireEvent, events: readonly WireEvent[], size: {columns: number; rows: number}, onBack = () => {}) {
	const view = renderSized(
		<KeyHarness stack={['details', 'global', 'always']}>
			<EventDetails event={event} events={events} width={size.columns} height={size.rows} active onBack={onBack} />
		</KeyHarness>,
		{columns: size.columns, rows: size.rows + 1},
	);
	return view;
}

async function ready(view: ReturnType<typeof mount>, text: string): Promise<string> {
	const frame = await waitForFrame(view.lastFrame, (value) => value.includes(text));
	await settle(25);
	return frame;
}

function assertFits(frame: string, width: number, height: number): void {
	const lines = frame.split('\n');
	assert.ok(lines.length <= height, `${lines.length} lines for a height of ${height}`);
	for (const line of lines) assert.ok(cellWidth(line) <= width, `line wider than ${width}: ${JSON.stringify(line)}`);
}

test('a tool call with its observation scrolls with j/k, pgdn/pgup and g/G; esc goes back', async (t) => {
	const action = terminalAction('pytest -q');
	const output = Array.from({length: 60}, (_, index) => `test_${index} PASSED`).join('\n');
	const events = [message('user', 'run them'), action, terminalObservation(action, output, 0)];
	let backs = 0;
	const view = mount(action, events, {columns: 70, rows: 12}, () => backs++);
	t.after(() => view.unmount());
	let frame = await ready(view, 'ActionEvent · agent');
	assert.match(frame, /1–11 of \d+ · j\/k scroll/);
	assertFits(frame, 70, 12);
	frame = await press(view, 'j', (text) => text.includes('2–12 of'));
	assert.doesNotMatch(frame, /ActionEvent · agent/);
	frame = await press(view, keys.pageDown, (text) => text.includes('12–22 of'));
	frame = await press(view, 'G', (text) => text.includes('test_59 PASSED'));
	assertFits(frame, 70, 12);
	frame = await press(view, keys.pageUp, (text) => !text.includes('test_59 PASSED'));
	frame = await press(view, 'g', (text) => text.includes('ActionEvent · agent'));
	await press(view, 'k', (text) => text.includes('1–11 of'));
	view.stdin.write(keys.escape);
	await waitForFrame(() => String(backs), (value) => value === '1');
});

test('a condensation lists what it forgot when enter is pressed, and hides it again', async (t) => {
	const forgotten = [message('user', 'Fix the flaky test'), terminalAction('pytest -q -k flaky')];
	const condensation = wire({
		kind: 'Condensation',
		forgotten_event_ids: forgotten.map((event) => event.id),
		summary: 'The user wants the flaky test fixed.',
		summary_offset: 2,
		llm_response_id: 'r',
	});
	const view = mount(condensation, [...forgotten, condensation], {columns: 90, rows: 20});
	t.after(() => view.unmount());
	let frame = await ready(view, 'forgotten');
	assert.match(frame, /forgotten +2 events \(2 in the loaded log\)/);
	assert.match(frame, /summary offset +2: the summary is inserted at position 2/);
	assert.doesNotMatch(frame, /pytest -q -k flaky/);
	frame = await press(view, keys.enter, (text) => text.includes('pytest -q -k flaky'));
	assert.match(frame, /message +user: Fix the flaky test/);
	frame = await press(view, keys.enter, (text) => !text.includes('pytest -q -k flaky'));
	assertFits(frame, 90, 20);
});

test('a 5 MB observation opens and scrolls without rendering more than the viewport', async (t) => {
	const action = terminalAction('cat big.log');
	const body = Array.from({length: 100_000}, (_, index) => `log line ${index} ${'.'.repeat(40)}`).join('\n');
	const observation = terminalObservation(action, body, 0);
	const started = performance.now();
	const view = mount(observation, [action, observation], {columns: 80, rows: 24});
	t.after(() => view.unmount());
	let frame = await ready(view, 'ObservationEvent · env');
	const opened = performance.now() - started;
	assertFits(frame, 80, 24);
	const jumpStarted = performance.now();
	frame = await press(view, 'G', (text) => text.includes('log line 99999'));
	const jumped = performance.now() - jumpStarted;
	assertFits(frame, 80, 24);
	t.diagnostic(`opened in ${opened.toFixed(0)} ms, jumped to the end in ${jumped.toFixed(0)} ms`);
	assert.ok(opened < 1500, `opening took ${opened.toFixed(0)} ms`);
	// Rendering the whole observation takes seconds; the viewport, tens of ms (36 ms in CI). Loose
	// for a loaded machine.
	assert.ok(jumped < 1000, `G took ${jumped.toFixed(0)} ms`);
});

test('unknown kinds show their raw JSON, never encrypted_content, and hostile text stays escaped', async (t) => {
	const event = wire({
		kind: 'FutureEvent',
		payload: {note: 'hello \u001B]52;c;ZXZpbA==\u0007 world', reasoning: {encrypted_content: 'gAAAA-SECRET'}},
	});
	const view = mount(event, [event], {columns: 80, rows: 20});
	t.after(() => view.unmount());
	const frame = await ready(view, 'raw event');
	assert.match(frame, /unknown: FutureEvent/);
	assert.match(frame, /"note": "hello .*world"/);
	const raw = (view.stdout.frames.at(-1) ?? '').replaceAll(/\u001B\[[\d;]*m/g, '');
	assert.ok(!raw.includes('gAAAA-SECRET'));
	assert.ok(!raw.includes('\u001B') && !raw.includes('\u0007'));
	assertFits(frame, 80, 20);
});

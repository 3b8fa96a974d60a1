import {test} from 'node:test';
import assert from 'node:assert/strict';
import {cellWidth} from '../source/format/width.js';
import {eventDetails} from '../source/format/event-details.js';
import {EventDetails} from '../source/view/details/EventDetails.js';
import type {WireEvent} from '../source/wire/schemas/events.js';
import {keys, press as pressOnly, renderSized, waitForFrame} from './helpers/ink.js';
import {message, terminalAction, terminalObservation, wire} from './helpers/event-fixtures.js';
import {KeyHarness} from './helpers/pane-harness.js';

/** Press and wait for the frame (waitForFrame then lets React run the effects where handlers register). */
const press = pressOnly;

function mount(event: WireEvent, events: readonly WireEvent[], size: {columns: number; rows: number}, onBack = () => {}, document = eventDetails) {
	const view = renderSized(
		<KeyHarness stack={['details', 'global', 'always']}>
			<EventDetails event={event} events={events} width={size.columns} height={size.rows} active onBack={onBack} document={document} />
		</KeyHarness>,
		{columns: size.columns, rows: size.rows + 1},
	);
	return view;
}

async function ready(view: ReturnType<typeof mount>, text: string): Promise<string> {
	return waitForFrame(view.lastFrame, (value) => value.includes(text));
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

test('a 5 MB observation is a document of 100,000 rows cut out only where asked', () => {
	const action = terminalAction('cat big.log');
	const body = Array.from({length: 100_000}, (_, index) => `log line ${index} ${'.'.repeat(40)}`).join('\n');
	const document = eventDetails(terminalObservation(action, body, 0), 80, {});
	assert.ok(document.lineCount > 100_000, `${document.lineCount} lines`);
	// Any window is exactly what was asked for, each line within the width: the view renders only
	// the rows it asks for, so what it renders is bounded by its height, not by the text.
	for (const start of [0, 50_000, document.lineCount - 23]) {
		const lines = document.lines(start, start + 23);
		assert.equal(lines.length, 23);
		for (const line of lines) assert.ok(cellWidth(line.text) <= 80, `line wider than 80: ${JSON.stringify(line.text)}`);
	}
	assert.ok(document.lines(50_000, 50_023).some((line) => /log line 4\d{4} /.test(line.text)), 'the middle of the log is in the middle');
	assert.match(document.lines(document.lineCount - 1, document.lineCount)[0]!.text, /log line 99999 /);
});

test('a 5 MB observation opens and scrolls without rendering more than the viewport', async (t) => {
	const action = terminalAction('cat big.log');
	const body = Array.from({length: 100_000}, (_, index) => `log line ${index} ${'.'.repeat(40)}`).join('\n');
	const observation = terminalObservation(action, body, 0);
	// What the view asks of the document is what it renders: counted, not timed (a loaded machine
	// takes what it takes; the bench measures the time).
	const asked: number[] = [];
	const counting: typeof eventDetails = (...args) => {
		const document = eventDetails(...args);
		return {
			lineCount: document.lineCount,
			lines(start, end) {
				asked.push(end - start);
				return document.lines(start, end);
			},
		};
	};
	const started = performance.now();
	const view = mount(observation, [action, observation], {columns: 80, rows: 24}, () => {}, counting);
	t.after(() => view.unmount());
	let frame = await waitForFrame(view.lastFrame, (value) => value.includes('ObservationEvent · env'), {timeoutMs: 60_000});
	const opened = performance.now() - started;
	const total = /1–23 of ([\d,]+) · /.exec(frame)?.[1];
	assert.ok(total && Number(total.replaceAll(',', '')) > 100_000, `the position says 23 rows of the whole document: ${frame.split('\n').at(-1)}`);
	const jumpStarted = performance.now();
	frame = await pressOnly(view, 'G', (text) => text.includes('log line 99999'), 'the end of the log');
	const jumped = performance.now() - jumpStarted;
	assert.match(frame, new RegExp(`\\d+–${total.replaceAll(',', '')} of ${total} · `), 'the last 23 rows');
	for (const written of [frame, ...view.stdout.frames.map((output) => output.replaceAll(/\u001B\[[\d;?]*[A-Za-z]/g, ''))]) assertFits(written.replace(/\n$/, ''), 80, 24);
	assert.ok(asked.length >= 2, 'the view asked for its rows when it opened and after G');
	assert.ok(Math.max(...asked) <= 23, `at most the 23 rows of the viewport asked for at once: ${Math.max(...asked)}`);
	t.diagnostic(`opened in ${opened.toFixed(0)} ms, jumped to the end in ${jumped.toFixed(0)} ms`);
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

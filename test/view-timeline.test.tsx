import {test} from 'node:test';
import assert from 'node:assert/strict';
import type {TimelineState} from '../source/state/dashboard-types.js';
import type {LoggedEvent} from '../source/wire/schemas/events.js';
import {keys, press as pressOnly, renderSized, waitForFrame} from './helpers/ink.js';
import {message, sampleRun, stateUpdate, terminalAction, terminalObservation, wire} from './helpers/event-fixtures.js';
import {TimelineHarness, TimelineSource} from './helpers/pane-harness.js';
import {TimelineHeader} from '../source/view/timeline/TimelineHeader.js';
import {cellWidth} from '../source/format/width.js';
import {World} from '../source/simulator/world.js';
import {parseEvent, parseEventLater, validationsSoFar} from '../source/wire/schemas/events.js';

/** The timeline header says it follows the stream (`not following` is the other state). */
const following = (text: string) => /(?<!not )following\b/.test(text);

function timelineOf(events: readonly LoggedEvent[], change: Partial<TimelineState> = {}): TimelineState {
	return {
		conversationKey: 'c0ffee00c0ffee00c0ffee00c0ffee00',
		events,
		version: 1,
		stream: {state: 'live', attempt: 0},
		executionStatus: 'running',
		gap: false,
		...change,
	};
}

function mount(source: TimelineSource, columns = 80, rows = 16) {
	return renderSized(<TimelineHarness source={source} width={columns} height={rows} />, {columns, rows: rows + 2});
}

function assertFits(frame: string, width: number): void {
	for (const line of frame.split('\n')) assert.ok(cellWidth(line) <= width, `line wider than ${width}: ${JSON.stringify(line)}`);
}

/** Press and wait for the frame (waitForFrame then lets React run the effects where handlers register). */
const press = pressOnly;

/** Our own colours (SGR) are allowed through; nothing else from the data may be. */
const withoutColour = (frame: string) => frame.replaceAll(/\u001B\[[\d;]*m/g, '');

const selectedLine = (frame: string) => frame.split('\n').find((line) => line.startsWith('›')) ?? '';

test('one line per event with time, source, kind and summary; header with status, stream and counts', async (t) => {
	const events = sampleRun();
	const view = mount(new TimelineSource(timelineOf(events)));
	t.after(() => view.unmount());
	const frame = await waitForFrame(view.lastFrame, (text) => text.includes('All tests pass now.'));
	assert.match(frame, /^server-local · ▸ running · live · following · 12 events · oldest first/m);
	assert.match(frame, /\d\d:\d\d:\d\d user  message +user: Fix the failing tests in src\/app\.py/);
	assert.match(frame, /agent action +\$ pytest -q tests\/test_0\.py/);
	assert.match(frame, /env +observation exit 1 · 3 lines · F\./);
	assert.match(frame, /≡ .*condensed +── forgot 4 events · The user asked to fix tests/);
	assert.match(frame, /state +stats: \$0\.42/);
	// Following: the newest event is the selected one.
	assert.match(selectedLine(frame), /execution_status → finished/);
	assertFits(frame, 80);
	// Events the condensation forgot are marked in the gutter.
	assert.match(frame, /^· .*user: Fix the failing tests/m);
});

test('narrow panes keep every line within the width', async (t) => {
	for (const columns of [40, 52, 66]) {
		const view = mount(new TimelineSource(timelineOf(sampleRun())), columns, 12);
		const frame = await waitForFrame(view.lastFrame, (text) => text.includes('events'));
		assertFits(frame, columns);
		view.unmount();
	}

	t.diagnostic('checked 40, 52 and 66 columns');
});

test('scrolling up pauses follow and counts new events; f resumes and jumps to the newest', async (t) => {
	const source = new TimelineSource(timelineOf(sampleRun()));
	const view = mount(source);
	t.after(() => view.unmount());
	await waitForFrame(view.lastFrame, (text) => following(text));
	let frame = await press(view, 'k', (text) => text.includes('not following'));
	assert.match(selectedLine(frame), /All tests pass now\./);
	const more = [message('assistant', 'One more thing'), stateUpdate('execution_status', 'running')];
	source.update({events: [...source.get().events, ...more]});
	frame = await waitForFrame(view.lastFrame, (text) => text.includes('2 new'));
	assert.match(frame, /not following · 2 new/);
	// "paused" is an agent's status and a sandbox's: the timeline's scroll never says it.
	assert.doesNotMatch(frame.split('\n')[0] ?? '', /paused/);
	// The selection stays on the event it was on.
	assert.match(selectedLine(frame), /All tests pass now\./);
	frame = await press(view, 'f', (text) => following(text));
	assert.match(selectedLine(frame), /execution_status → running/);
	frame = await press(view, 'g', (text) => selectedLine(text).includes('Fix the failing tests'));
	frame = await press(view, 'j', (text) => selectedLine(text).includes('execution_status → running'));
	frame = await press(view, 'G', (text) => selectedLine(text).includes('execution_status → running') && text.includes('not following'));
	frame = await press(view, 'O', (text) => text.includes('newest first'));
	// Descending: the newest row is on top.
	const rows = frame.split('\n').slice(1);
	assert.match(rows[0] ?? '', /execution_status → running/);
});

test('following marks the newest row in the gutter only; a paused cursor is the inverse bar', async (t) => {
	const {default: chalk} = await import('chalk');
	const level = chalk.level;
	chalk.level = 1;
	t.after(() => {
		chalk.level = level;
	});
	const view = mount(new TimelineSource(timelineOf(sampleRun())));
	t.after(() => view.unmount());
	// With its colour codes (lastFrame strips them).
	const coloured = () => view.stdout.frames.at(-1) ?? '';
	const rowOf = (frame: string, text: string) => frame.split('\n').find((line) => line.includes(text)) ?? '';
	await waitForFrame(view.lastFrame, (text) => following(text) && text.includes('execution_status → finished'));
	let frame = coloured();
	const newest = rowOf(frame, 'execution_status → finished');
	assert.match(newest, /^\u001B\[1m\u001B\[36m›/, 'a bold cyan mark in the gutter');
	assert.ok(!frame.includes('\u001B[7m'), `no inverse bar while following: ${JSON.stringify(newest)}`);
	await press(view, 'k', (text) => text.includes('not following'));
	frame = coloured();
	assert.ok(rowOf(frame, 'All tests pass now.').includes('\u001B[7m'), 'moving the cursor shows it as the inverse bar');
	assert.ok(!rowOf(frame, 'execution_status → finished').includes('›'));
});

test('the filter line takes kind:, source: and words; the kind picker offers the kinds present', async (t) => {
	const view = mount(new TimelineSource(timelineOf(sampleRun())), 80, 18);
	t.after(() => view.unmount());
	await waitForFrame(view.lastFrame, (text) => following(text));
	let frame = await press(view, '/', (text) => text.includes('pick a kind'));
	view.stdin.write('source:agent ');
	frame = await waitForFrame(view.lastFrame, (text) => /\/ source:agent/.test(text) && text.includes('4 matches'));
	// ↓ opens the picker; choosing fills in `kind:…`.
	frame = await press(view, keys.down, (text) => text.includes('MessageEvent') && text.includes('ConversationStateUpdateEvent'));
	assert.match(frame, /ActionEvent/);
	frame = await press(view, keys.enter, (text) => text.includes('kind:ActionEvent'));
	frame = await waitForFrame(view.lastFrame, (text) => text.includes('3 matches'));
	frame = await press(view, keys.enter, (text) => !text.includes('pick a kind') && text.includes('3 of 12 events'));
	assert.match(frame, /\/ source:agent kind:ActionEvent/);
	assert.doesNotMatch(frame, /observation/);
	assert.equal((frame.match(/\$ pytest/g) ?? []).length, 3);
	// `/` opens with the filter selected: → keeps it and free text narrows further.
	frame = await press(view, '/', (text) => text.includes('pick a kind'));
	view.stdin.write('\u001B[C');
	view.stdin.write(' test_1');
	frame = await waitForFrame(view.lastFrame, (text) => text.includes('1 match'));
	assert.match(frame, /\/ source:agent kind:ActionEvent +test_1/);
	frame = await press(view, keys.enter, (text) => text.includes('1 of 12 events'));
	assert.match(frame, /\$ pytest -q tests\/test_1\.py/);
	// Typed straight away, the text replaces the filter instead of appending to it (`…test_1pytest`).
	frame = await press(view, '/', (text) => text.includes('pick a kind'));
	view.stdin.write('F.');
	frame = await waitForFrame(view.lastFrame, (text) => /\/ F\. /.test(text));
	assert.doesNotMatch(frame, /test_1F|source:agent/);
	frame = await press(view, keys.enter, (text) => !text.includes('pick a kind'));
	frame = await press(view, keys.escape, (text) => /live · (?:not )?following · 12 events ·/.test(text));
	assert.doesNotMatch(frame, /\/ source:agent|\/ F\./);
});

test('enter opens the details of the selected event in place; esc returns to the same row', async (t) => {
	const action = terminalAction('pytest -q');
	const events = [message('user', 'Run the tests'), action, terminalObservation(action, 'F.\nFAILED test_x\n1 failed', 1)];
	const view = mount(new TimelineSource(timelineOf(events)), 80, 20);
	t.after(() => view.unmount());
	await waitForFrame(view.lastFrame, (text) => following(text));
	await press(view, 'k', (text) => selectedLine(text).includes('$ pytest -q'));
	let frame = await press(view, keys.enter, (text) => text.includes('arguments'));
	assert.match(frame, /tool +terminal \(TerminalAction\)/);
	assert.match(frame, /thought/);
	frame = await press(view, 'G', (text) => text.includes('FAILED test_x'));
	assert.match(frame, /exit code +1/);
	assertFits(frame, 80);
	frame = await press(view, keys.escape, (text) => selectedLine(text).includes('$ pytest -q'));
	assert.match(frame, /not following/);
});

test('the zone of the rows\' times is on the header whatever else it says: at 80 columns and side by side at 140 and 160', async (t) => {
	const goal = {status: 'running', active: true, iteration: 4, maxIterations: 10, objective: 'all tests pass', verdict: null};
	const long = {executionStatus: 'waiting_for_confirmation', gap: true, total: 123_456, shown: 98_765, descending: true, goal, older: {state: 'loading' as const, pages: 3}, lag: {lagMs: 45_000, behindSince: null}} as const;
	const cases = [
		{name: 'following', props: {follow: true, newSincePause: 0}},
		{name: 'not following, new events', props: {...long, follow: false, newSincePause: 1234}},
		{name: 'stored history', props: {...long, follow: false, newSincePause: 0, stored: {sandboxStatus: 'STARTING'}}},
	];
	// 80x24 (the timeline is the whole width), 160x48 and 140 side by side (layout.ts: 79 and 69 cells).
	for (const width of [80, 79, 69]) {
		for (const {name, props} of cases) {
			for (const [zone, shown] of [['UTC+1', 'UTC+1'], ['UTC-3:30', 'UTC-3:30'], [null, 'server-local']] as const) {
				const view = renderSized(
					<TimelineHeader executionStatus="running" stream={{state: 'live', attempt: 0}} gap={false} width={width} total={40} shown={40} descending={false} eventZone={zone} {...props} />,
					{columns: width, rows: 3},
				);
				const frame = withoutColour(await waitForFrame(view.lastFrame, (text) => text.trim().length > 0));
				view.unmount();
				const line = frame.split('\n')[0] ?? '';
				assert.ok(line.startsWith(`${shown} · `), `${width} columns, ${name}: the zone first, whole: ${JSON.stringify(line)}`);
				assertFits(frame, width);
			}
		}
	}
	t.diagnostic('80, 79 and 69 columns; following, not following, stored history; a zone, a half-hour zone, none known');
});

test('stream health, gap marker and an unknown status show in the header', async (t) => {
	const source = new TimelineSource(timelineOf(sampleRun(), {stream: {state: 'reconnecting', attempt: 3, nextRetryInMs: 4000}, gap: true, executionStatus: 'waiting_for_confirmation'}));
	const view = mount(source, 120, 10);
	t.after(() => view.unmount());
	let frame = await waitForFrame(view.lastFrame, (text) => text.includes('reconnecting'));
	assert.match(frame, /waiting_for_confirmation · reconnecting \(attempt 3, retry in 4s\) · ⚠ gap: events may be missing/);
	source.update({stream: {state: 'failed', attempt: 9, lastError: 'HTTP 401: key rejected'}, gap: false, executionStatus: null});
	frame = await waitForFrame(view.lastFrame, (text) => text.includes('stream failed'));
	assert.match(frame, /status unknown · stream failed: HTTP 401: key rejected/);
	source.update({events: [], stream: {state: 'backfilling', attempt: 0}});
	await waitForFrame(view.lastFrame, (text) => text.includes('Loading events…'));
});

test('hostile event text is shown escaped: nothing reaches the terminal as a control sequence', async (t) => {
	const hostile = 'echo \u001B]52;c;ZXZpbA==\u0007 \u001B]0;pwned\u0007 \u001B[2J\rEVIL \u009B1A';
	const events = [terminalAction(hostile), wire({kind: 'Sneaky\u001B[5AKind', payload: 1})];
	const view = mount(new TimelineSource(timelineOf(events)));
	t.after(() => view.unmount());
	await waitForFrame(view.lastFrame, (text) => text.includes('EVIL'));
	const raw = withoutColour(view.stdout.frames.at(-1) ?? '');
	assert.ok(!raw.includes('\u001B'), 'an escape sequence reached the output');
	assert.ok(!raw.includes('\u001B]'), 'an OSC sequence reached the output');
	assert.ok(!raw.includes('\u0007'), 'a BEL reached the output');
	assert.ok(!raw.includes('\u009B'), 'a C1 CSI reached the output');
	assert.ok(!raw.includes('\u001B[2J'), 'a clear-screen reached the output');
	assert.ok(!raw.includes('\r'), 'a carriage return reached the output');
});

test('100,000 events: only the visible rows render; the rest are never even validated', async (t) => {
	const events: LoggedEvent[] = [];
	for (let index = 0; index < 50_000; index++) {
		const action = terminalAction(`step ${index}`);
		// As a live stream holds them (parseEventLater): validated when a row first needs one. How
		// many were is what the view rendered, whatever the machine's speed.
		for (const event of [action, terminalObservation(action, `ok ${index}`, 0)]) events.push(parseEventLater(JSON.parse(JSON.stringify(event))));
	}
	// Validated to draw a row (a summary keeps no validated event: peekEvent), or settled.
	const before = validationsSoFar();
	const validated = () => validationsSoFar() - before;

	const source = new TimelineSource(timelineOf(events));
	let started = performance.now();
	const view = mount(source, 100, 30);
	t.after(() => view.unmount());
	let frame = await waitForFrame(view.lastFrame, (text) => text.includes('100,000 events'), {timeoutMs: 60_000});
	const firstRender = performance.now() - started;
	assert.match(frame, /ok 49999/);
	assert.doesNotMatch(frame, /step 0\b/);
	assert.ok(frame.split('\n').length <= 32, `frame has ${frame.split('\n').length} lines`);
	const opened = validated();
	started = performance.now();
	frame = await press(view, 'g', (text) => text.includes('$ step 0'));
	const jump = performance.now() - started;
	started = performance.now();
	for (let index = 0; index < 5; index++) {
		frame = await press(view, keys.pageDown, (text) => text.includes(`$ step ${14 * (index + 1)}`) || text.includes(`ok ${14 * (index + 1)}`));
	}

	const paging = (performance.now() - started) / 5;
	// A live event while paused: the list is not rebuilt per event beyond one filter pass.
	started = performance.now();
	source.update({events: [...events, message('assistant', 'still here')]});
	frame = await waitForFrame(view.lastFrame, (text) => text.includes('1 new'));
	const append = performance.now() - started;
	t.diagnostic(`first render ${firstRender.toFixed(0)} ms, jump ${jump.toFixed(0)} ms, page ${paging.toFixed(0)} ms, append ${append.toFixed(0)} ms; ${opened} events validated to open, ${validated()} after g, 5 pages and an append`);
	// Seven screens of about 28 rows were shown (each row may read its answer too): a view that
	// rendered every row would have validated all 100,000. Time is the bench's to measure.
	assert.ok(opened > 0 && opened <= 2 * 30, `opening validated ${opened} events`);
	assert.ok(validated() <= 7 * 2 * 30, `${validated()} of 100,000 events validated`);
});

test('every conversation of the simulator (hostile text on) renders within the pane', async (t) => {
	const world = new World({seed: 11, conversations: 24, maxRunningSandboxes: 5, startTaskPhaseMs: 0, sandboxTransitionMs: 0});
	world.hostile = true;
	let rendered = 0;
	for (const conversation of world.conversationList()) {
		// Through JSON, as the client receives them.
		const events = world.events(conversation).map((event) => parseEvent(JSON.parse(JSON.stringify(event))));
		const view = mount(new TimelineSource(timelineOf(events)), 80, 20);
		const frame = await waitForFrame(view.lastFrame, (text) => text.includes(' events ·'));
		assertFits(frame, 80);
		assert.ok(frame.split('\n').length <= 22);
		const raw = withoutColour(view.stdout.frames.at(-1) ?? '');
		assert.ok(!/[\u0000-\u0009\u000B-\u001F\u007F-\u009F]/.test(raw), 'a control character reached the output');
		view.unmount();
		rendered++;
	}

	t.diagnostic(`${rendered} simulated conversations rendered`);
});

test('Down Down Down in one read moves three rows in the kind picker, as in the list', async (t) => {
	const view = mount(new TimelineSource(timelineOf(sampleRun())), 80, 18);
	t.after(() => view.unmount());
	await waitForFrame(view.lastFrame, (text) => following(text));
	await press(view, '/', (text) => text.includes('pick a kind'));
	let frame = await press(view, keys.down, (text) => text.includes('❯'));
	const picked = (text: string) => /❯ (\S+)/.exec(text)?.[1];
	// The picker's rows: one kind each, the highlighted one marked.
	const kinds = frame.split('\n').flatMap((line) => /^(?:❯ | {2})([A-Z]\w+)\s*$/.exec(line)?.slice(1) ?? []);
	const first = picked(frame);
	assert.ok(first && kinds.length >= 4, frame);
	const third = kinds[kinds.indexOf(first) + 3];
	frame = await press(view, keys.down + keys.down + keys.down, (text) => picked(text) === third, `three rows down: ${third}`);
	// And no further: an up, read after them, lands on the second.
	frame = await press(view, keys.up, (text) => picked(text) !== third, 'one row up');
	assert.equal(picked(frame), kinds[kinds.indexOf(first) + 2], frame);
});

test('a log that spans days shows the date on rows of an earlier day than its newest event; one day shows times only', async (t) => {
	const older = message('user', 'Yesterday\'s request', {timestamp: '2026-11-02T23:58:07.123456'});
	const newer = message('assistant', 'Today\'s answer', {timestamp: '2026-11-03T00:01:09.5'});
	const view = mount(new TimelineSource(timelineOf([older, newer])));
	t.after(() => view.unmount());
	const frame = await waitForFrame(view.lastFrame, (text) => text.includes('Today\'s answer'));
	assert.match(frame, /11-02 23:58 user +message +user: Yesterday's request/);
	assert.match(frame, / 00:01:09 +agent +message +assistant: Today's answer/);
	assert.doesNotMatch(frame, /11-03/, 'the newest day needs no date');
	assertFits(frame, 80);

	const sameDay = mount(new TimelineSource(timelineOf([message('user', 'Morning', {timestamp: '2026-11-03T09:00:00'}), newer])));
	t.after(() => sameDay.unmount());
	const plain = await waitForFrame(sameDay.lastFrame, (text) => text.includes('Today\'s answer'));
	assert.match(plain, / 09:00:00 user +message +user: Morning/);
	assert.doesNotMatch(plain, /11-0\d/);
});

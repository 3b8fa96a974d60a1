import {test} from 'node:test';
import assert from 'node:assert/strict';
import stringWidth from 'string-width';
import {Dashboard} from '../source/view/Dashboard.js';
import type {ViewState} from '../source/view/view-state.js';
import {conversationRow, fixtureSnapshot, fixtureStore, fleetSeeds, hexId, recordingController, sandboxRow} from './helpers/dashboard-fixture.js';
import {keys, press, renderSized, waitForFrame} from './helpers/ink.js';

function mount(size: {columns: number; rows: number}, options: {initialView?: Partial<ViewState>} = {}) {
	const store = fixtureStore(fixtureSnapshot());
	const controller = recordingController();
	let quits = 0;
	const rendered = renderSized(
		<Dashboard store={store} controller={controller} onQuit={() => quits++} {...(options.initialView ? {initialView: options.initialView} : {})} />,
		size,
	);
	return {store, controller, rendered, quits: () => quits};
}

function assertFits(frame: string, columns: number, rows: number) {
	const lines = frame.split('\n');
	assert.ok(lines.length <= rows - 1, `frame is ${lines.length} rows, must be at most ${rows - 1}`);
	for (const [index, line] of lines.entries()) {
		assert.ok(stringWidth(line) <= columns, `line ${index + 1} is ${stringWidth(line)} cells wide (max ${columns}): ${JSON.stringify(line)}`);
	}
}

/** Title of the selected conversation row (the one with the › marker; ▸ is the running symbol). */
function selectedLine(frame: string): string {
	return frame.split('\n').find((line) => line.startsWith('› ')) ?? '';
}

function rowOrder(frame: string, titles: string[]): string[] {
	const lines = frame.split('\n');
	return titles
		.map((title) => ({title, at: lines.findIndex((line) => line.includes(title))}))
		.filter((entry) => entry.at >= 0)
		.sort((a, b) => a.at - b.at)
		.map((entry) => entry.title);
}

/** `/`, then `text` typed in one chunk, until the filter line shows `shown` (e.g. "1 of 8"). */
async function typeFilter(rendered: ReturnType<typeof mount>['rendered'], text: string, shown: string) {
	await press(rendered, '/', (frame) => frame.includes('8 of 8'));
	rendered.stdin.write(text);
	await waitForFrame(rendered.lastFrame, (frame) => frame.includes(shown));
}

const shortTitles = ['Fix the flaky', 'Upgrade React', 'Add retries', 'Write the migration', 'Investigate memory', 'Refactor the CLI', '漢字', 'Bump dependencies'];

test('80x24: one pane, every line fits, header counts in words, no raw escape from data', async () => {
	const {rendered} = mount({columns: 80, rows: 24});
	const frame = await waitForFrame(rendered.lastFrame, (text) => text.includes('Upgrade React'));
	assertFits(frame, 80, 24);
	assert.match(frame, /app\.example\.test/);
	assert.match(frame, /live/);
	// At 80 columns the header keeps the need-you count and the counts that need a person; the
	// other counts go first when space runs out.
	const header = frame.split('\n')[0] ?? '';
	for (const word of ['! 3 need you', '1 waiting', '1 stuck', '1 error']) assert.ok(header.includes(word), `header lacks "${word}": ${header}`);
	assert.match(frame, /\[1 Conversations \(8\)\]/);
	// Two statuses, two columns: the agent's and its sandbox's.
	assert.match(frame, /AGENT +SANDBOX +TITLE/);
	assert.match(frame, /\? help/);
	// Only the conversations pane: the timeline placeholder is not drawn at this width.
	assert.doesNotMatch(frame, /No conversation open/);
	// The hostile title's OSC 52 never reaches the terminal as an escape sequence.
	const raw = rendered.stdout.frames.at(-1) ?? '';
	assert.ok(!raw.includes('\u001B]52'), 'raw OSC 52 in the output');
	rendered.unmount();
});

test('160x48: list and timeline side by side, every line fits', async () => {
	const {rendered} = mount({columns: 160, rows: 48});
	const frame = await waitForFrame(rendered.lastFrame, (text) => text.includes('Upgrade R') && text.includes('No conversation open'));
	assertFits(frame, 160, 48);
	const line = frame.split('\n').find((text) => text.includes('No conversation open')) ?? '';
	assert.ok(line.includes('│'), 'the timeline sits right of the list, behind a separator');
	// The list half has the 80-column layout: the title keeps its room, the repository is in the preview.
	assert.match(frame, /AGENT +SANDBOX +TITLE/);
	assert.match(frame, /acme\/etl/);
	rendered.unmount();
});

test('z zooms the focused pane to the whole width on a wide terminal, and z again shows both', async () => {
	const {rendered} = mount({columns: 160, rows: 48});
	await waitForFrame(rendered.lastFrame, (text) => text.includes('No conversation open'));
	let frame = await press(rendered, 'z', (text) => !text.includes('No conversation open'));
	assertFits(frame, 160, 48);
	assert.match(frame, /zoomed \(z\)/, 'the tab bar says the view is zoomed');
	assert.ok(!frame.split('\n').some((line) => line.includes('│ ') && line.includes('Upgrade R')), 'no separator beside the list');
	// The timeline alone, the full width, as at 80 columns.
	frame = await press(rendered, '3', (text) => text.includes('No conversation open') && !text.includes('SANDBOX'));
	assertFits(frame, 160, 48);
	frame = await press(rendered, 'z', (text) => text.includes('No conversation open') && text.includes('Upgrade R'));
	assert.doesNotMatch(frame, /zoomed \(z\)/);
	rendered.unmount();
});

test('z on a terminal too narrow for two panes says so and changes nothing', async () => {
	const {rendered} = mount({columns: 80, rows: 24});
	await waitForFrame(rendered.lastFrame, (text) => text.includes('Upgrade React'));
	const frame = await press(rendered, 'z', (text) => text.includes('One pane at a time already'));
	assert.match(frame, /from 140 columns/);
	// Widened later, the dashboard shows both panes: the refused z left no zoom behind.
	rendered.resize(160, 40);
	await waitForFrame(rendered.lastFrame, (text) => text.includes('No conversation open') && text.includes('Upgrade R'));
	rendered.unmount();
});

test('follows resizes in both directions', async () => {
	const {rendered} = mount({columns: 80, rows: 24});
	await waitForFrame(rendered.lastFrame, (text) => text.includes('Upgrade React'));
	rendered.resize(160, 40);
	let frame = await waitForFrame(rendered.lastFrame, (text) => text.includes('No conversation open'));
	assertFits(frame, 160, 40);
	rendered.resize(60, 15);
	frame = await waitForFrame(rendered.lastFrame, (text) => !text.includes('No conversation open') && text.split('\n').length <= 14);
	assertFits(frame, 60, 15);
	rendered.resize(30, 8);
	frame = await waitForFrame(rendered.lastFrame, (text) => text.includes('too small'));
	assertFits(frame, 30, 8);
	rendered.unmount();
});

test('attention first by default; o cycles the sort', async () => {
	const {rendered} = mount({columns: 100, rows: 30});
	let frame = await waitForFrame(rendered.lastFrame, (text) => text.includes('Upgrade React'));
	assert.deepEqual(rowOrder(frame, shortTitles).slice(0, 3), ['Add retries', 'Investigate memory', 'Upgrade React']);
	assert.match(frame, /sort: attention/);
	// Attention reasons are on the rows that need a person.
	assert.match(frame.split('\n').find((line) => line.includes('Upgrade React')) ?? '', /! stuck/);
	assert.match(frame.split('\n').find((line) => line.includes('Add retries')) ?? '', /! approve\?/);
	frame = await press(rendered, 'o', (text) => text.includes('sort: activity'));
	assert.deepEqual(rowOrder(frame, shortTitles).slice(0, 3), ['Fix the flaky', 'Bump dependencies', 'Add retries']);
	rendered.unmount();
});

test('the filter line: /status:stuck, enter keeps it, esc clears; q is typed, not quit', async () => {
	const {rendered, quits} = mount({columns: 80, rows: 24});
	await waitForFrame(rendered.lastFrame, (text) => text.includes('Upgrade React'));
	await press(rendered, '/', (text) => text.includes('0 of 8') || text.includes('8 of 8'));
	// Typed ahead in one chunk, as a fast typist over SSH or a paste of a few words arrives.
	rendered.stdin.write('status:stuck');
	let frame = await waitForFrame(rendered.lastFrame, (text) => text.includes('1 of 8'));
	assert.match(frame, /Upgrade React/);
	assert.doesNotMatch(frame, /Fix the flaky/);
	frame = await press(rendered, keys.enter, (text) => text.includes('esc clears'));
	assert.match(frame, /status:stuck/);
	frame = await press(rendered, keys.escape, (text) => text.includes('Fix the flaky'));
	assert.doesNotMatch(frame, /status:stuck/);

	await press(rendered, '/', (text) => text.includes('8 of 8'));
	rendered.stdin.write('q');
	frame = await waitForFrame(rendered.lastFrame, (text) => text.includes('/ q'));
	assert.equal(quits(), 0, 'q in the filter line is text');
	rendered.stdin.write(keys.escape);
	await waitForFrame(rendered.lastFrame, (text) => text.includes('Fix the flaky') && !text.includes('/ q'));
	rendered.stdin.write('q');
	await waitForFrame(() => String(quits()), (count) => count === '1');
	rendered.unmount();
});

test('the selection stays on the same conversation when rows move', async () => {
	const {rendered, store} = mount({columns: 100, rows: 30});
	await waitForFrame(rendered.lastFrame, (text) => text.includes('Upgrade React'));
	// Attention order: Add retries, Investigate, Upgrade, Fix the flaky, ...: move to "Fix the flaky".
	for (let step = 0; step < 3; step++) rendered.stdin.write('j');
	let frame = await waitForFrame(rendered.lastFrame, (text) => selectedLine(text).includes('Fix the flaky'));
	// The server now says it is stuck: it moves up the list, the selection goes with it.
	store.update((current) => {
		const conversations = new Map(current.conversations);
		conversations.set(hexId(1), conversationRow({...fleetSeeds()[0]!, execution: 'error', updatedMinutesAgo: 0}));
		return {conversations};
	});
	frame = await waitForFrame(rendered.lastFrame, (text) => rowOrder(text, shortTitles)[1] === 'Fix the flaky');
	assert.match(selectedLine(frame), /Fix the flaky/);
	rendered.unmount();
});

test('enter opens the timeline; the controller hears the visible rows', async () => {
	const {rendered, controller} = mount({columns: 80, rows: 24});
	await waitForFrame(rendered.lastFrame, (text) => text.includes('Upgrade React'));
	const visible = controller.calls.filter((call) => call.method === 'setVisibleConversations').at(-1);
	assert.ok(visible, 'setVisibleConversations was called');
	assert.equal((visible.args[0] as string[]).length, 8);
	await press(rendered, 'G', (text) => selectedLine(text).includes('Refactor the CLI'));
	await press(rendered, keys.enter, (text) => text.includes('[3 Timeline'));
	assert.deepEqual(controller.calls.filter((call) => call.method === 'openTimeline').map((call) => call.args[0]), [hexId(6)]);
	// esc with no filter goes back to the list.
	await press(rendered, keys.escape, (text) => text.includes('[1 Conversations'));
	rendered.unmount();
});

test('n jumps to the next conversation needing attention', async () => {
	const {rendered} = mount({columns: 100, rows: 30});
	await waitForFrame(rendered.lastFrame, (text) => selectedLine(text).includes('Add retries'));
	await press(rendered, 'n', (text) => selectedLine(text).includes('Investigate memory'));
	await press(rendered, 'n', (text) => selectedLine(text).includes('Upgrade React'));
	await press(rendered, 'n', (text) => selectedLine(text).includes('Add retries'));
	await press(rendered, 'N', (text) => selectedLine(text).includes('Upgrade React'));
	rendered.unmount();
});

test('sandboxes pane: pause and resume ask y/n first; pending, refusal and cap are shown', async () => {
	const {rendered, controller, store} = mount({columns: 100, rows: 30});
	await waitForFrame(rendered.lastFrame, (text) => text.includes('Upgrade React'));
	let frame = await press(rendered, '2', (text) => text.includes('[2 Sandboxes'));
	assert.match(frame, /Sandbox specs \(1\)/);
	assert.match(frame, /\/workspace/);
	assert.match(frame, /agent-server --port 8000/);
	const running = selectedLine(frame);
	assert.match(running, /running/);
	const sandboxKey = [...store.getSnapshot().sandboxes.values()].find((row) => running.includes(String(row.sandbox.id).slice(0, 10)))?.key;
	assert.ok(sandboxKey);

	frame = await press(rendered, 'p', (text) => text.includes('[y/n]'));
	assert.match(frame, /Pause sandbox .*\? \[y\/n\]/);
	frame = await press(rendered, 'n', (text) => text.includes('Cancelled.'));
	assert.equal(controller.calls.filter((call) => call.method === 'pauseSandbox').length, 0);

	await press(rendered, 'p', (text) => text.includes('[y/n]'));
	await press(rendered, 'y', (text) => !text.includes('[y/n]'));
	assert.deepEqual(controller.calls.filter((call) => call.method === 'pauseSandbox').map((call) => call.args[0]), [sandboxKey]);

	// The store reports the action in flight, then a refusal.
	const setRow = (change: Partial<ReturnType<typeof sandboxRow>>) =>
		store.update((current) => {
			const sandboxes = new Map(current.sandboxes);
			sandboxes.set(sandboxKey, {...current.sandboxes.get(sandboxKey)!, ...change});
			return {sandboxes};
		});
	setRow({pending: {kind: 'pausing', startedAt: Date.now()}});
	await waitForFrame(rendered.lastFrame, (text) => selectedLine(text).includes('pausing…'));
	frame = await press(rendered, 'p', (text) => text.includes('already pausing'));
	setRow({pending: {kind: 'pausing', startedAt: Date.now(), error: 'runtime API said no'}});
	await waitForFrame(rendered.lastFrame, (text) => selectedLine(text).includes('pause refused: runtime API'));

	// A paused sandbox: p explains, r asks and resumes; the cap marker is visible.
	const paused = sandboxRow({id: 'sb-paused-by-cap', status: 'PAUSED', users: [hexId(6)], pausedByCap: true, createdMinutesAgo: 1});
	store.update((current) => ({sandboxes: new Map([[paused.key, paused], ...current.sandboxes])}));
	await waitForFrame(rendered.lastFrame, (text) => text.includes('sb-paused'));
	frame = await press(rendered, 'g', (text) => selectedLine(text).includes('sb-paused'));
	assert.match(selectedLine(frame), /\[paused by cap\]/);
	assert.match(selectedLine(frame), /Refactor the CLI/);
	await press(rendered, 'p', (text) => text.includes('nothing to pause'));
	frame = await press(rendered, 'r', (text) => text.includes('Resume sandbox'));
	await press(rendered, 'y', (text) => !text.includes('[y/n]'));
	assert.deepEqual(controller.calls.filter((call) => call.method === 'resumeSandbox').map((call) => call.args[0]), ['sb-paused-by-cap']);
	rendered.unmount();
});

test('p on a conversation asks about its sandbox; ctrl-c quits even from the question', async () => {
	const {rendered, controller, quits} = mount({columns: 80, rows: 24});
	await waitForFrame(rendered.lastFrame, (text) => text.includes('Upgrade React'));
	// A pause on the key alone would have been called before the question was drawn.
	await press(rendered, 'p', (text) => text.includes('Pause sandbox'));
	assert.equal(controller.calls.filter((call) => call.method === 'pauseSandbox').length, 0);
	rendered.stdin.write(keys.ctrlC);
	await waitForFrame(() => String(quits()), (count) => count === '1');
	rendered.unmount();
});

test('? opens help generated from the keymap; esc closes it', async () => {
	const {rendered} = mount({columns: 80, rows: 24});
	await waitForFrame(rendered.lastFrame, (text) => text.includes('Upgrade React'));
	let frame = await press(rendered, '?', (text) => text.includes('Keys (? or esc closes)'));
	assertFits(frame, 80, 24);
	assert.match(frame, /Quit, from anywhere/);
	frame = await press(rendered, keys.escape, (text) => text.includes('Upgrade React'));
	rendered.unmount();
});

test('connection trouble is in the header in words', async () => {
	const {rendered, store} = mount({columns: 100, rows: 30});
	await waitForFrame(rendered.lastFrame, (text) => text.includes('live'));
	store.update((current) => ({connection: {...current.connection, health: 'stale', lastSuccessAt: Date.now() - 125_000, lastError: 'connect ECONNREFUSED 127.0.0.1:9'}}));
	let frame = await waitForFrame(rendered.lastFrame, (text) => text.includes('stale 2m'));
	assert.match(frame, /ECONNREFUSED/);
	store.update((current) => ({connection: {...current.connection, keyRejected: true}}));
	frame = await waitForFrame(rendered.lastFrame, (text) => text.includes('key rejected'));
	assert.match(frame, /key rejected \(check OPENHANDS_API_KEY\)/, 'where the key came from unknown: the usual place');
	// The key came from somewhere else: the header names it, not a variable that was never set.
	store.update(() => ({keySource: 'key from --api-key-file ~/.oh-key'}));
	frame = await waitForFrame(rendered.lastFrame, (text) => text.includes('key from --api-key-file ~/.oh-key'));
	assert.doesNotMatch(frame, /check OPENHANDS_API_KEY/);
	store.update(() => ({demo: true}));
	frame = await waitForFrame(rendered.lastFrame, (text) => text.includes('DEMO'));
	rendered.unmount();
});

test('keys typed ahead in one chunk run in order; a question they open is not answered by them', async () => {
	const {rendered, controller} = mount({columns: 80, rows: 24});
	await waitForFrame(rendered.lastFrame, (text) => text.includes('Upgrade React'));
	// `/` opens the filter, and the text after it lands in the field; the final enter keeps it.
	await press(rendered, '/react\r', (text) => text.includes('esc clears') && text.includes('1 of 8'));
	await press(rendered, keys.escape, (text) => text.includes('Fix the flaky'));
	// `p` asks about the sandbox; the `y` that came with it must not answer.
	// The keys of one read are handled before the next read: by the time the question is drawn
	// the `y` has been read, and a `y` that had answered would count below (1 pause, not 2).
	await press(rendered, 'py', (text) => text.includes('[y/n]'));
	assert.equal(controller.calls.filter((call) => call.method === 'pauseSandbox').length, 0);
	// A `y` and a `2` typed together after the question was on screen: both run.
	await press(rendered, 'y2', (text) => text.includes('[2 Sandboxes') && !text.includes('[y/n]'));
	assert.equal(controller.calls.filter((call) => call.method === 'pauseSandbox').length, 1);
	rendered.unmount();
});

test('a key typed right after enter closes the filter goes to the list, not into the filter', async () => {
	const {rendered} = mount({columns: 80, rows: 24});
	await waitForFrame(rendered.lastFrame, (text) => text.includes('Upgrade React'));
	await typeFilter(rendered, 'react', '1 of 8');
	// Enter and the next key back to back, before React has run the effects of closing the field.
	rendered.stdin.write('\r');
	rendered.stdin.write('g');
	const frame = await waitForFrame(rendered.lastFrame, (text) => text.includes('esc clears'));
	assert.match(frame, /\/ react /);
	assert.doesNotMatch(frame, /reactg/);
	rendered.unmount();
});

test('Esc and a key read together (Alt+key to Ink) are Esc, then the key: the filter closes and o sorts', async () => {
	const {rendered} = mount({columns: 100, rows: 30});
	await waitForFrame(rendered.lastFrame, (text) => text.includes('Upgrade React'));
	await typeFilter(rendered, 'status:stuck', '1 of 8');
	await press(rendered, keys.enter, (text) => text.includes('esc clears'));
	const frame = await press(rendered, '\u001Bo', (text) => text.includes('sort: activity') && !text.includes('esc clears'));
	assert.match(frame, /Fix the flaky/);
	rendered.unmount();
});

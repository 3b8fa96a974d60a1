import assert from 'node:assert/strict';
import {test} from 'node:test';
import stringWidth from 'string-width';
import {Dashboard} from '../source/view/Dashboard.js';
import type {WireEvent} from '../source/wire/schemas/events.js';
import {fixtureNow, fixtureSnapshot, fixtureStore, hexId, liveConnection, recordingController} from './helpers/dashboard-fixture.js';
import {message, resetFixtureClock, terminalAction, terminalObservation} from './helpers/event-fixtures.js';
import {keys, press, renderSized, waitForFrame} from './helpers/ink.js';

/**
 * Checklist items 1-13 (docs/security-checklist.md) on the rendered screen: the hostile text goes
 * through the real parser, store shape and Dashboard at 160x48 (list and timeline side by side),
 * and the checks read what Ink wrote. format-sanitize.test.ts checks the sanitizer itself; this
 * checks that every path to the screen goes through it and that the layout survives it.
 */

const ESC = '\u001B';
const BEL = '\u0007';
const ST = `${ESC}\\`;

/** Each item's text, short enough that its start fits a timeline row. */
const hostile: Array<{item: number; text: string; shown: string[]}> = [
	{item: 1, text: `copy ${ESC}]52;c;aGk=${BEL} done`, shown: ['␛]52;c;aGk=␇']},
	{item: 2, text: `title ${ESC}]0;pwned${BEL} and ${ESC}]2;again${ST}`, shown: ['␛]0;pwned␇']},
	{item: 3, text: `link ${ESC}]8;;https://evil.example/x${ST}https://github.com${ESC}]8;;${ST}`, shown: ['evil.example/x']},
	{item: 4, text: `c1 \u009B2J \u009D0;t\u009C end`, shown: ['⟨U+009B⟩2J']},
	{item: 5, text: `clear ${ESC}[2J${ESC}[5A${ESC}[?1049h${ESC}c`, shown: ['␛[2J␛[5A']},
	{item: 7, text: `dcs ${ESC}P$qm${ST} apc ${ESC}_x${ST} tmux ${ESC}Ptmux;${ESC}${ESC}]52;c;eA==${BEL}${ST}`, shown: ['␛P$qm']},
	{item: 9, text: 'safe\rEVIL', shown: ['safe', 'EVIL']},
	{item: 10, text: 'ctl \u0000\b\u0007\u000B\u000C\u007F end', shown: ['^@^H^G^K^L^?']},
	{item: 11, text: 'path src/\u202Egnp.exe', shown: ['⟨U+202E⟩gnp.exe']},
	{item: 12, text: 'tabs a\tb\tc', shown: ['tabs a']},
	{item: 13, text: `wide ${'漢字👩‍👩‍👧é e\u0301 '.repeat(30)}`, shown: ['wide 漢字']},
	// Item 6 last: an unterminated string must not swallow what comes after it.
	{item: 6, text: `open ${ESC}]0;never terminated`, shown: ['␛]0;never terminated']},
];

function hostileEvents(): WireEvent[] {
	resetFixtureClock();
	const events: WireEvent[] = [];
	for (const {text} of hostile) events.push(message('user', text));
	const action = terminalAction(`echo ${ESC}]52;c;ZXZpbA==${BEL}; printf 'a\\tb'`);
	events.push(action, terminalObservation(action, `out ${ESC}[2J\r\nline2\u009B31m red ${ESC}]0;t${BEL}`, 0));
	events.push(message('assistant', 'after-unterminated'));
	return events;
}

/** Same count and kinds, plain text: the layout every hostile frame must keep. */
function benignEvents(): WireEvent[] {
	resetFixtureClock();
	const events: WireEvent[] = [];
	for (const {item} of hostile) events.push(message('user', `plain text of item ${item}`));
	const action = terminalAction('echo plain');
	events.push(action, terminalObservation(action, 'plain output', 0));
	events.push(message('assistant', 'after-unterminated'));
	return events;
}

function mount(events: WireEvent[]) {
	const timeline = {conversationKey: hexId(1), events, version: 1, stream: {state: 'live' as const, attempt: 0}, executionStatus: 'running', gap: false};
	const controller = recordingController();
	// Both frames compared below are drawn at the fixture's own moment (half a minute past it, so
	// the dashboard's 5 s clock never crosses a minute of any age): drawn a minute apart on a loaded
	// machine, `59m` became `1h` between them.
	const connection = {...liveConnection, lastSuccessAt: Date.now(), clockOffsetMs: fixtureNow + 30_000 - Date.now()};
	const rendered = renderSized(
		<Dashboard store={fixtureStore(fixtureSnapshot({timeline, connection}))} controller={controller} onQuit={() => undefined} initialView={{pane: 'timeline'}} />,
		{columns: 160, rows: 48},
	);
	return {rendered, controller};
}

/** What Ink wrote for the last frame, escapes included. */
const rawFrame = (rendered: ReturnType<typeof renderSized>) => rendered.stdout.frames.at(-1) ?? '';

/** Only SGR colour sequences (from our own Ink props) may be in the output, and no other control. */
function assertNothingButColour(raw: string, where: string) {
	const withoutSgr = raw.replaceAll(/\u001B\[[\d;]*m/g, '');
	const control = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F]/.exec(withoutSgr);
	assert.equal(control, null, `${where}: control U+${control?.[0].codePointAt(0)?.toString(16).padStart(4, '0')} reached the terminal near ${JSON.stringify(withoutSgr.slice(Math.max(0, (control?.index ?? 0) - 30), (control?.index ?? 0) + 10))}`);
	assert.ok(!/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(withoutSgr), `${where}: a split surrogate pair`);
}

/** The grapheme drawn at a cell column of a line, by cell widths. */
function cellAt(line: string, column: number): string {
	let at = 0;
	for (const {segment} of new Intl.Segmenter().segment(line)) {
		if (at === column) return segment;
		at += stringWidth(segment);
		if (at > column) return '';
	}
	return ' ';
}

/** Rows whose separator between list and timeline sits at `column`. */
function separatorRows(frame: string, column: number): number[] {
	return frame.split('\n').flatMap((line, index) => (cellAt(line, column) === '│' ? [index] : []));
}

function assertFits(frame: string, where: string) {
	const lines = frame.split('\n');
	assert.ok(lines.length <= 47, `${where}: ${lines.length} rows for a 48-row terminal`);
	for (const [index, line] of lines.entries()) assert.ok(stringWidth(line) <= 160, `${where}: row ${index + 1} is ${stringWidth(line)} cells wide`);
}

test('1-13 on screen: hostile text in timeline rows and details is shown escaped, nothing but colour reaches the terminal, the layout is the benign one', async (t) => {
	const benign = mount(benignEvents());
	t.after(() => benign.rendered.unmount());
	const benignFrame = await waitForFrame(benign.rendered.lastFrame, (text) => text.includes('after-unterminated'));
	const separator = stringWidth(benignFrame.split('\n').find((line) => line.includes('plain text of item 1'))!.split('│')[0]!);
	const benignRows = separatorRows(benignFrame, separator);
	assert.ok(benignRows.length > 30, `the split is drawn (${benignRows.length} rows)`);

	const {rendered} = mount(hostileEvents());
	t.after(() => rendered.unmount());
	// 6: the event after the unterminated string renders.
	const frame = await waitForFrame(rendered.lastFrame, (text) => text.includes('after-unterminated'));
	assertNothingButColour(rawFrame(rendered), 'timeline');
	assertFits(frame, 'timeline');
	for (const {item, shown} of hostile) for (const text of shown) assert.ok(frame.includes(text), `item ${item}: "${text}" is on screen`);
	// 9, 12 and 13: the separator is on the same rows at the same column as with plain text.
	assert.deepEqual(separatorRows(frame, separator), benignRows, 'the border between the panes is intact');
	// 5: nothing moved elsewhere: the list pane (left of the separator) is the benign one, row by row.
	const left = (text: string) => text.split('\n').map((line) => leftOf(line, separator));
	assert.deepEqual(left(frame).slice(2, -3), left(benignFrame).slice(2, -3));

	// The details of each hostile event: full text, wrapped, still nothing but colour.
	const selectedTime = (text: string) => text.split('\n').find((line) => line.includes('│› '))?.match(/│› (\d\d:\d\d:\d\d)/)?.[1];
	await press(rendered, 'g', (text) => selectedTime(text) === '10:00:01');
	for (let index = 0; index < hostile.length + 3; index++) {
		const id = `ev-${String(index + 1).padStart(6, '0')}`;
		const details = await press(rendered, keys.enter, (text) => new RegExp(`id\\s+${id}`).test(text), `the details of ${id}`);
		assertNothingButColour(rawFrame(rendered), `details of ${id}`);
		assertFits(details, `details of ${id}`);
		const item = hostile[index];
		if (item) for (const text of item.shown) assert.ok(details.includes(text), `item ${item.item} in the details: "${text}"`);
		await press(rendered, keys.escape, (text) => text.includes('enter details'));
		await press(rendered, 'j', (text) => selectedTime(text) === `10:00:${String(index + 2).padStart(2, '0')}` || index === hostile.length + 2);
	}
});

function leftOf(line: string, column: number): string {
	let at = 0;
	let text = '';
	for (const {segment} of new Intl.Segmenter().segment(line)) {
		if (at >= column) break;
		text += segment;
		at += stringWidth(segment);
	}
	return text;
}

test('8. on screen: terminal replies (OSC 11, cursor report, DA) typed at the dashboard fire no action and change nothing', async (t) => {
	const {rendered, controller} = mount(benignEvents());
	t.after(() => rendered.unmount());
	await waitForFrame(rendered.lastFrame, (text) => text.includes('after-unterminated'));
	const calls = controller.calls.length;
	const panes = (text: string) => text.split('\n').slice(1).join('\n');
	const before = panes(rendered.lastFrame());
	for (const reply of [`${ESC}]11;rgb:0000/0000/0000${ST}`, `${ESC}]11;rgb:ffff/ffff/ffff${BEL}`, `${ESC}[12;1R`, `${ESC}[?62;22c`, `${ESC}P1$r0m${ST}`]) {
		rendered.stdin.write(reply);
		// What arrives in the reply's own I/O turn is taken as its payload: the probe comes a turn later.
		await new Promise((resolve) => setImmediate(resolve));
		// Keys are read in order: once help, opened after the reply, is drawn and closed again,
		// the reply has been read; the keys themselves answer (the positive half).
		await press(rendered, '?', (text) => text.includes('Keys (? or esc closes)'), 'help after the reply');
		await press(rendered, keys.escape, (text) => !text.includes('Keys (? or esc closes)') && text.includes('after-unterminated'), 'help closed');
	}
	assert.equal(controller.calls.length, calls, `no action ran: ${JSON.stringify(controller.calls.slice(calls).map((call) => call.method))}`);
	assert.equal(panes(rendered.lastFrame()), before, 'the screen below the header is unchanged');
});

import {test} from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {FrameDiff} from '../source/terminal/frame-diff.js';
import {lineUpdate} from '../source/terminal/line-diff.js';
import {findScrollShift, widenShift} from '../source/terminal/scroll-shift.js';
import {VirtualScreen} from './helpers/virtual-screen.js';

/**
 * The frame differ between Ink and the terminal: whatever sequence of frames Ink writes (its
 * standard renderer: erase the previous frame's lines, write the new one), the screen must end
 * up showing exactly the last frame, with no line of an earlier one left behind, while writing
 * only the lines that changed.
 */

const columns = 40;
const rows = 12;

/** What Ink 6.8's standard renderer writes for one frame (log-update.js, ansi-escapes eraseLines). */
function inkWrite(previousLineCount: number, frame: string): string {
	let erase = '';
	for (let index = 0; index < previousLineCount; index++) erase += `\u001B[2K${index < previousLineCount - 1 ? '\u001B[1A' : ''}`;
	if (previousLineCount > 0) erase += '\u001B[G';
	return `${erase}${frame}\n`;
}

const plain = (frame: string) => frame.replaceAll(/\u001B\[[\d;]*m/g, '');

/** Chalk-style segments from a small alphabet, so successive lines often share a prefix or suffix. */
const styles = [
	['', ''],
	['\u001B[36m', '\u001B[39m'],
	['\u001B[1m', '\u001B[22m'],
	['\u001B[2m\u001B[33m', '\u001B[39m\u001B[22m'],
	['\u001B[7m', '\u001B[27m'],
] as const;
const segment = fc
	.tuple(fc.stringMatching(/^[ab c|]{0,8}$/), fc.integer({min: 0, max: styles.length - 1}))
	.map(([text, style]) => (text ? `${styles[style]![0]}${text}${styles[style]![1]}` : ''));
const line = fc.array(segment, {maxLength: 5}).map((parts) => parts.join(''));
const frame = fc.array(line, {minLength: 1, maxLength: rows - 1}).map((lines) => lines.join('\n'));

test('any sequence of frames leaves exactly the last one on screen, colours included', () => {
	fc.assert(
		fc.property(fc.array(frame, {minLength: 1, maxLength: 12}), (frames) => {
			const screen = new VirtualScreen(columns, rows);
			const diff = new FrameDiff();
			let previousLines = 0;
			for (const next of frames) {
				screen.write(diff.transform(inkWrite(previousLines, next)));
				// Ink counts the lines of what it wrote, the final newline included.
				previousLines = next.split('\n').length + 1;
			}
			const expected = plain(frames.at(-1)!).split('\n').map((text) => text.trimEnd()).join('\n').replace(/\n+$/, '');
			assert.equal(screen.text(), expected);
			// The same cells in the same colours as painting the last frame whole.
			const whole = new VirtualScreen(columns, rows);
			whole.write(inkWrite(0, frames.at(-1)!));
			assert.equal(screen.styledText(), whole.styledText());
		}),
		{numRuns: 400},
	);
});

test('a line whose right half moved is rewritten from its first changed cell only', () => {
	const diff = new FrameDiff();
	const left = `\u001B[36m${'list row '.repeat(8)}\u001B[39m│`;
	diff.transform(inkWrite(0, `${left}\u001B[2mevent one\u001B[22m`));
	const update = diff.transform(inkWrite(2, `${left}\u001B[2mevent two\u001B[22m`));
	assert.ok(update.startsWith(`\u001B[1;${'list row '.length * 8 + 1 + 7}H`), JSON.stringify(update));
	assert.ok(update.length < 30, `${update.length} bytes: ${JSON.stringify(update)}`);
});

test('an unchanged frame writes nothing; one changed line writes about one line', () => {
	const diff = new FrameDiff();
	const lines = Array.from({length: 20}, (_, index) => `row ${index} ${'x'.repeat(50)}`);
	const first = diff.transform(inkWrite(0, lines.join('\n')));
	assert.ok(first.length > 20 * 50);
	assert.equal(diff.transform(inkWrite(21, lines.join('\n'))), '');
	lines[7] = 'row 7 changed';
	const changed = diff.transform(inkWrite(21, lines.join('\n')));
	assert.ok(changed.length < 40, `${changed.length} bytes: ${JSON.stringify(changed)}`);
	// Only from the first cell that differs: "row 7 " is already on screen.
	assert.ok(changed.startsWith('\u001B[8;7Hchanged\u001B[K'), JSON.stringify(changed));
});

test('cursor switches pass through without forcing a repaint', () => {
	const diff = new FrameDiff();
	diff.transform(inkWrite(0, 'a\nb'));
	assert.equal(diff.transform('\u001B[?25l'), '\u001B[?25l');
	assert.equal(diff.transform(inkWrite(3, 'a\nb')), '');
});

const syncBegin = '\u001B[?2026h';
const syncEnd = '\u001B[?2026l';

/** What reaches the terminal for one frame Ink brackets with synchronized output. */
function bracketed(diff: FrameDiff, write: string): string {
	return diff.transform(syncBegin) + diff.transform(write) + diff.transform(syncEnd);
}

test('synchronized output brackets a change to several rows, a repaint or a scroll, and nothing smaller', () => {
	const screen = new VirtualScreen(columns, rows);
	const diff = new FrameDiff();
	const first = bracketed(diff, inkWrite(0, 'clock 1\nrow a\nrow b'));
	assert.ok(first.startsWith(syncBegin) && first.endsWith(syncEnd), `the first frame is a repaint: ${JSON.stringify(first)}`);
	screen.write(first);
	// The idle dashboard's clock: one row, so no bracket (it was 16 of ~40 bytes).
	const tick = bracketed(diff, inkWrite(4, 'clock 2\nrow a\nrow b'));
	assert.equal(tick, '\u001B[1;7H2\u001B[4;1H');
	screen.write(tick);
	// Two rows change: the terminal must show them together.
	const two = bracketed(diff, inkWrite(4, 'clock 3\nrow a\nrow c'));
	assert.ok(two.startsWith(syncBegin) && two.endsWith(syncEnd), JSON.stringify(two));
	assert.equal(two.split(syncBegin).length, 2, 'one begin');
	screen.write(two);
	// Nothing changed at all: neither switch is written.
	assert.equal(bracketed(diff, inkWrite(4, 'clock 3\nrow a\nrow c')), '');
	// One row erased is one row; a frame that lost two rows erases two.
	const erased = bracketed(diff, inkWrite(4, 'clock 3\nrow a'));
	assert.ok(erased.length > 0 && !erased.includes(syncBegin), JSON.stringify(erased));
	screen.write(erased);
	assert.equal(screen.text(), 'clock 3\nrow a');
	const lines = Array.from({length: 8}, (_, index) => `line ${index}`);
	diff.transform(inkWrite(3, lines.join('\n')));
	const scrolled = bracketed(diff, inkWrite(9, [...lines.slice(1), 'line 8'].join('\n')));
	assert.ok(scrolled.includes('r') && scrolled.startsWith(syncBegin) && scrolled.endsWith(syncEnd), `a scroll moves many rows: ${JSON.stringify(scrolled)}`);
});

test('a synchronized-output begin written with other switches goes out as it came, and so does its end', () => {
	const diff = new FrameDiff();
	diff.transform(inkWrite(0, 'a\nb'));
	assert.equal(diff.transform(`${syncBegin}\u001B[?25l`), `${syncBegin}\u001B[?25l`);
	assert.equal(diff.transform(inkWrite(3, 'a\nc')), '\u001B[2;1Hc\u001B[3;1H');
	assert.equal(diff.transform(syncEnd), syncEnd, 'the terminal must not be left holding its updates');
});

test('anything else passes through and the next frame is painted whole', () => {
	const screen = new VirtualScreen(columns, rows);
	const diff = new FrameDiff();
	screen.write(diff.transform(inkWrite(0, 'one\ntwo\nthree')));
	// Something we do not model (a scroll region, say) must not be swallowed or diffed.
	assert.equal(diff.transform('\u001B[2;5r'), '\u001B[2;5r');
	const repaint = diff.transform(inkWrite(4, 'one\ntwo\nthree'));
	assert.match(repaint, /^\u001B\[H\u001B\[J/);
	screen.write(repaint);
	assert.equal(screen.text(), 'one\ntwo\nthree');
	diff.invalidate();
	assert.match(diff.transform(inkWrite(4, 'one\ntwo\nthree')), /^\u001B\[H\u001B\[J/, 'after a resize: whole');
});

test('a frame erased without a new one clears its rows', () => {
	const screen = new VirtualScreen(columns, rows);
	const diff = new FrameDiff();
	screen.write(diff.transform(inkWrite(0, 'one\ntwo')));
	screen.write(diff.transform(inkWrite(3, '').slice(0, -1)));
	assert.equal(screen.text(), '');
});

/** A full-width pane over a growing log, between a header and a footer that change too. */
function followingFrame(log: readonly string[], end: number, height: number, header: string, footer: string, mark?: string): string {
	const window = log.slice(Math.max(0, end - height), end).map((line) => (mark === undefined ? line : `  ${line}`));
	// The following cursor: the newest row carries a mark in its gutter (TimelineRow's `following`).
	if (mark !== undefined && window.length > 0) window[window.length - 1] = `${mark} ${window.at(-1)!.slice(2)}`;
	while (window.length < height) window.push('');
	return [header, ...window, footer].join('\n');
}

type FollowStep = {grow: number; header: string; footer: string};

/** Feeds the differ a log growing by each step's rows, then checks the screen against the last frame painted whole. */
function assertFollowSteps(log: readonly string[], steps: readonly FollowStep[], mark?: string): void {
	const screen = new VirtualScreen(columns, rows);
	const diff = new FrameDiff();
	let end = 3;
	let previousLines = 0;
	let last = '';
	for (const step of steps) {
		end = Math.min(log.length, end + step.grow);
		last = followingFrame(log, end, rows - 3, step.header, step.footer, mark);
		screen.write(diff.transform(inkWrite(previousLines, last)));
		previousLines = last.split('\n').length + 1;
	}
	const whole = new VirtualScreen(columns, rows);
	whole.write(inkWrite(0, last));
	assert.equal(screen.styledText(), whole.styledText());
}

test('lines that moved up as a block are scrolled by the terminal, and the screen still shows exactly the last frame', () => {
	const logLine = fc.tuple(fc.stringMatching(/^[ab c]{0,6}$/), fc.integer({min: 0, max: styles.length - 1})).map(([text, style]) => `${styles[style]![0]}event ${text}${styles[style]![1]}`);
	fc.assert(
		fc.property(
			fc.array(logLine, {minLength: 30, maxLength: 60}),
			fc.array(fc.record({grow: fc.integer({min: 0, max: 9}), header: fc.constantFrom('head', 'head 2', '\u001B[1mhead\u001B[22m'), footer: fc.constantFrom('', 'foot', 'keys')}), {minLength: 2, maxLength: 10}),
			(log, steps) => assertFollowSteps(log, steps),
		),
		{numRuns: 400},
	);
});

test('following a full-width stream: one new event writes about one line, not the pane', () => {
	const diff = new FrameDiff();
	const screen = new VirtualScreen(80, 24);
	const log = Array.from({length: 60}, (_, index) => `  06:${String(index).padStart(2, '0')}:00 agent action      $ make test --shard ${index} \u001B[2m· 3 lines\u001B[22m`);
	screen.write(diff.transform(inkWrite(0, followingFrame(log, 30, 20, 'timeline · 30 events', 'keys'))));
	const frame = followingFrame(log, 31, 20, 'timeline · 31 events', 'keys');
	const update = diff.transform(inkWrite(23, frame));
	screen.write(update);
	// The scroll (region, one line feed, reset), the new row, the header's changed digit.
	assert.match(update, /\u001B\[2;21r\u001B\[21;1H\n\u001B\[r/);
	assert.ok(update.length < 120, `${update.length} bytes: ${JSON.stringify(update)}`);
	const whole = new VirtualScreen(80, 24);
	whole.write(inkWrite(0, frame));
	assert.equal(screen.styledText(), whole.styledText());
});

test('side-by-side panes never scroll the whole line: the left one would move too', () => {
	const diff = new FrameDiff();
	const log = Array.from({length: 40}, (_, index) => `event ${index}`);
	const frameAt = (end: number) => log.slice(end - 10, end).map((event, row) => `list row ${row} │ ${event}`).join('\n');
	diff.transform(inkWrite(0, frameAt(20)));
	assert.doesNotMatch(diff.transform(inkWrite(11, frameAt(21))), /r\u001B/);
});

const marks = ['›', '\u001B[1m\u001B[36m›\u001B[39m\u001B[22m'] as const;

test('a stream whose newest row carries the cursor mark: any steps leave exactly the last frame', () => {
	const logLine = fc.tuple(fc.stringMatching(/^[ab c]{0,6}$/), fc.integer({min: 0, max: styles.length - 1})).map(([text, style]) => `${styles[style]![0]}event ${text}${styles[style]![1]}`);
	fc.assert(
		fc.property(
			fc.array(logLine, {minLength: 30, maxLength: 60}),
			fc.constantFrom(...marks),
			fc.array(fc.record({grow: fc.integer({min: 0, max: 9}), header: fc.constantFrom('head', 'head 2'), footer: fc.constantFrom('', 'foot', 'keys')}), {minLength: 2, maxLength: 10}),
			(log, mark, steps) => assertFollowSteps(log, steps, mark),
		),
		{numRuns: 400},
	);
});

test('following with the cursor mark: the row the mark left scrolls with the block and only its gutter is rewritten', () => {
	const log = Array.from({length: 60}, (_, index) => `06:${String(index).padStart(2, '0')}:00 agent action      $ make test --shard ${index} \u001B[2m· 3 lines\u001B[22m`);
	const mark = marks[1];
	const diff = new FrameDiff();
	const screen = new VirtualScreen(80, 24);
	screen.write(diff.transform(inkWrite(0, followingFrame(log, 30, 20, 'timeline · 30 events', 'keys', mark))));
	const frame = followingFrame(log, 31, 20, 'timeline · 31 events', 'keys', mark);
	const update = diff.transform(inkWrite(23, frame));
	screen.write(update);
	// The block reaches the newest log row (terminal row 21), so the row above it arrives holding
	// the old newest event, and only its mark is rewritten (one blank cell).
	assert.match(update, /\u001B\[2;21r\u001B\[21;1H\n\u001B\[r/);
	assert.match(update, /\u001B\[20;1H \u001B\[21;1H/);
	const newRow = frame.split('\n')[20]!;
	assert.ok(update.length < newRow.length + 70, `${update.length} bytes for a row of ${newRow.length}: ${JSON.stringify(update)}`);
	const whole = new VirtualScreen(80, 24);
	whole.write(inkWrite(0, frame));
	assert.equal(screen.styledText(), whole.styledText());
});

test('widenShift grows the block only when patching beats writing blank rows', () => {
	const cost = (onScreen: string, wanted: string, row: number) => lineUpdate(onScreen, wanted, row).length;
	const e = 'e 06:00:01 agent action $ npm test -- --shard 5';
	const before = ['head', 'a', 'b', 'c', 'd', `› ${e}`, 'foot'];
	const after = ['head', 'b', 'c', 'd', `  ${e}`, '› f 06:00:02 env observation exit 0', 'foot'];
	const found = findScrollShift(before, after)!;
	assert.deepEqual(found, {top: 1, bottom: 4, by: 1}, 'identical lines only: the marked row is left out');
	assert.deepEqual(widenShift(before, after, found, cost), {top: 1, bottom: 5, by: 1}, 'the marked row comes up and loses its mark');
	// A footer that did not change is never pulled into the block: it would have to be written again.
	const still = ['head', 'b', 'c', 'd', 'e', 'completely different text', 'foot'];
	const plainBefore = ['head', 'a', 'b', 'c', 'd', 'e', 'foot'];
	assert.deepEqual(widenShift(plainBefore, still, findScrollShift(plainBefore, still)!, cost), {top: 1, bottom: 5, by: 1});
	const short = ['head', 'b', 'c'];
	assert.equal(widenShift(['head', 'a', 'b', 'c', 'd', 'e', 'f', 'g'], short, {top: 1, bottom: 2, by: 1}, cost).bottom <= 2, true, 'never past the rows both frames hold');
});

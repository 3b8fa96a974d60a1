/**
 * Turns Ink's whole-frame writes into writes of the lines that changed.
 *
 * Ink's standard renderer repaints every line of the frame on every render (erase the previous
 * frame, write the new one: boundary/ink-frames.ts says exactly how). Its incremental mode
 * rewrites changed lines relative to where it believes the cursor is. On the alternate screen the frame always
 * starts at the top-left cell, so absolute positions are exact: each changed line is written at
 * its own row, from its first to its last changed cell (line-diff.ts), unchanged lines cost nothing, rows
 * the new frame no longer uses are erased, and the cursor is left where Ink believes it is (just
 * below its frame), so anything written around us still lands where Ink meant.
 *
 * When a block of whole lines moved up (a full-width timeline following its stream, a list
 * scrolled by a page), the terminal moves them itself: a scroll region around the block and one
 * line feed per line moved (scroll-shift.ts), then only the lines that came in are written. Over
 * SSH at 80x24 a new event then costs one row instead of the whole pane.
 *
 * A write that is not a plain frame (Ink clearing the terminal, a cursor or mode switch) passes
 * through untouched and makes the next frame a full repaint, so the screen can never drift.
 *
 * Ink brackets every frame that changed with synchronized output (begin, frame, end), so the
 * terminal shows it whole. A change to one row cannot tear across rows, and on an idle dashboard
 * the bracket (16 bytes) was most of what a frame cost (the clock's one digit: ~25 bytes): the
 * begin is held back until the frame's changes are known, and the pair is written only around
 * changes to more than one row, a scroll or a repaint.
 */

import {inkErasePrefix as erasePrefix, inkModeSwitch as harmlessMode, inkSyncBegin, inkSyncEnd} from '../boundary/ink-frames.js';
import {cellWidth} from '../format/width.js';
import {lineUpdate} from './line-diff.js';
import {findScrollShift, shownAfterShift, widenShift} from './scroll-shift.js';

const escape = '\u001B';
/** A frame's own content may hold colours (SGR) and nothing else that moves or erases. */
const foreignSequence = /\u001B(?!\[[\d;]*m)/;

export class FrameDiff {
	#lines: string[] = [];
	/** False until a frame was painted whole, and again after anything we did not understand. */
	#trusted = false;

	/** Ink began a synchronized update and we have not written the begin yet. */
	#syncHeld = false;
	/** We wrote the begin of a synchronized update: its end goes out too. */
	#syncOpen = false;
	/** Rows the frame being transformed writes or erases (a scroll or a repaint counts as many). */
	#rowsWritten = 0;

	/** What to write to the terminal instead of `chunk`. */
	transform(chunk: string): string {
		// Ink writes an empty string to learn when earlier writes have gone out: no frame.
		if (chunk === '') return chunk;
		if (chunk === inkSyncBegin) {
			this.#syncHeld = true;
			return '';
		}
		if (chunk === inkSyncEnd) {
			const open = this.#syncOpen;
			this.#syncHeld = false;
			this.#syncOpen = false;
			return open ? chunk : '';
		}
		if (harmlessMode.test(chunk)) {
			// A begin that came with other switches in one write goes out as it came: so does its end.
			if (chunk.includes(inkSyncBegin) || chunk.includes(inkSyncEnd)) this.#syncOpen = chunk.lastIndexOf(inkSyncBegin) > chunk.lastIndexOf(inkSyncEnd);
			return chunk;
		}
		this.#rowsWritten = 0;
		const out = this.#frame(chunk);
		if (!this.#syncHeld) return out;
		this.#syncHeld = false;
		if (out.length === 0 || this.#rowsWritten <= 1) return out;
		this.#syncOpen = true;
		return inkSyncBegin + out;
	}

	#frame(chunk: string): string {
		const prefix = erasePrefix.exec(chunk)?.[0] ?? '';
		const body = chunk.slice(prefix.length);
		if (foreignSequence.test(body)) return this.#passThrough(chunk);
		if (body.length === 0) {
			// Ink erased its frame without drawing a new one (clear before a resize, unmount).
			const out = this.#trusted ? this.#eraseRows(0, this.#lines.length) + home : this.#passThrough(chunk);
			this.#lines = [];
			return out;
		}
		const trailingNewline = body.endsWith('\n');
		const lines = (trailingNewline ? body.slice(0, -1) : body).split('\n');
		let out = '';
		if (this.#trusted) out += this.#scroll(lines);
		for (let index = 0; index < lines.length; index++) {
			const line = lines[index]!;
			const previous = this.#lines[index];
			if (this.#trusted && previous === line) continue;
			this.#rowsWritten++;
			// A row that was on screen changes only where it differs (line-diff.ts).
			out += this.#trusted && previous !== undefined ? lineUpdate(previous, line, index) : `${moveTo(index)}${line}${escape}[K`;
		}
		if (this.#trusted) out += this.#eraseRows(lines.length, this.#lines.length);
		else {
			out = `${home}${escape}[J${out}`;
			this.#rowsWritten = Number.POSITIVE_INFINITY;
		}
		if (out.length === 0) return '';
		// Where Ink's own renderer would have left the cursor: after the last line, or below it.
		out += trailingNewline ? moveTo(lines.length) : moveTo(lines.length - 1, cellsOf(lines.at(-1) ?? '') + 1);
		this.#lines = lines;
		this.#trusted = true;
		return out;
	}

	/** The lines of the last frame (the bench reads them to measure what each frame brought in). */
	get lines(): readonly string[] {
		return this.#lines;
	}

	/** The terminal was resized (it may have reflowed or cleared the screen): repaint whole next time. */
	invalidate(): void {
		this.#trusted = false;
	}

	/**
	 * Scrolls a block of lines that moved up as a whole, and updates what we believe is on screen
	 * to match: the block's lines moved, the lines scrolled in blank.
	 */
	#scroll(lines: readonly string[]): string {
		const found = findScrollShift(this.#lines, lines);
		if (!found) return '';
		const shift = widenShift(this.#lines, lines, found, (onScreen, wanted, row) => lineUpdate(onScreen, wanted, row).length);
		const {top, bottom, by} = shift;
		this.#rowsWritten = Number.POSITIVE_INFINITY;
		// DECSTBM, the cursor to the region's last row, one line feed per line (each scrolls the
		// region), then the whole screen back as the region (which homes the cursor). Colours are
		// reset first: the lines scrolled in take the current background.
		const out = `${escape}[m${escape}[${top + 1};${bottom + 1}r${moveTo(bottom)}${'\n'.repeat(by)}${escape}[r`;
		const moved = this.#lines.slice();
		for (let row = top; row <= bottom; row++) moved[row] = shownAfterShift(this.#lines, shift, row)!;
		this.#lines = moved;
		return out;
	}

	#passThrough(chunk: string): string {
		this.#trusted = false;
		this.#rowsWritten = Number.POSITIVE_INFINITY;
		return chunk;
	}

	#eraseRows(from: number, to: number): string {
		let out = '';
		for (let row = from; row < to; row++) out += `${moveTo(row)}${escape}[2K`;
		this.#rowsWritten += Math.max(0, to - from);
		return out;
	}
}

const home = `${escape}[H`;

function moveTo(row: number, column = 1): string {
	return `${escape}[${row + 1};${column}H`;
}

/** Visible cells of a line, for the cursor column after a frame without a final newline. */
function cellsOf(line: string): number {
	return cellWidth(line.replaceAll(/\u001B\[[\d;]*m/g, ''));
}

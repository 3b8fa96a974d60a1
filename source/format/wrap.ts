import {ClusterCursor} from './graphemes.js';
import {cellWidth, truncateSpan, truncateToWidth} from './width.js';

/**
 * Wrapping and windowed views of long sanitized text. Ink's own wrapping is superlinear
 * (wrap-ansi: a 100 KB word took 4.4 s; docs/security-checklist.md §2), so views give `<Text>`
 * only rows made here, and only the visible ones. One greedy pass over the clusters, each
 * measured once: a 1 MB word costs the same per character as a short one.
 *
 * Lines are separated by `\n`; a final `\n` does not start another (empty) line, and the empty
 * string has no lines. Widths below 1 cell fit nothing and give no rows.
 */

export type WrapOptions = {
	/** Break after the last space that fits instead of at the exact width (prose); default false. */
	words?: boolean;
};

/** Return false to stop. `cells` exceeds the width only for a single cluster wider than it. */
type RowVisitor = (start: number, end: number, cells: number) => boolean;

/**
 * The shown form of an indexed row: a cluster too wide for the whole row (a CJK character in a
 * 1-cell column) becomes `…`, since splitting it is not possible and overflowing breaks the layout.
 */
function showRow(text: string, start: number, end: number, width: number): string {
	const row = text.slice(start, end);
	return cellWidth(row) > width ? '…' : row;
}

function contentEnd(text: string): number {
	return text.endsWith('\n') ? text.length - 1 : text.length;
}

function forEachRow(text: string, width: number, words: boolean, visit: RowVisitor): void {
	if (width < 1 || text.length === 0) return;
	const end = contentEnd(text);
	for (let lineStart = 0; lineStart <= end; ) {
		let lineEnd = text.indexOf('\n', lineStart);
		if (lineEnd === -1 || lineEnd > end) lineEnd = end;
		if (!breakLine(text, lineStart, lineEnd, width, words, visit)) return;
		lineStart = lineEnd + 1;
	}
}

function breakLine(text: string, start: number, end: number, width: number, words: boolean, visit: RowVisitor): boolean {
	if (start === end) return visit(start, end, 0);
	let rowStart = start;
	let rowCells = 0;
	let rows = 0;
	// Words mode: the end of the row's last space, and the row's width up to there.
	let breakAt = -1;
	let cellsAtBreak = 0;
	const cursor = new ClusterCursor(text, start, end);
	while (cursor.next()) {
		const {start: clusterStart, end: clusterEnd, width: cells} = cursor;
		const isSpace = words && clusterEnd === clusterStart + 1 && text.charCodeAt(clusterStart) === 0x20;
		if (rowCells + cells > width && clusterStart > rowStart) {
			if (isSpace) {
				// The space that would overflow is taken by the break itself.
				rows++;
				if (!visit(rowStart, clusterStart, rowCells)) return false;
				rowStart = clusterEnd;
				rowCells = 0;
				breakAt = -1;
				continue;
			}

			if (breakAt > rowStart) {
				rows++;
				if (!visit(rowStart, breakAt, cellsAtBreak)) return false;
				rowCells -= cellsAtBreak;
				rowStart = breakAt;
			}

			breakAt = -1;
			if (rowCells + cells > width && clusterStart > rowStart) {
				rows++;
				if (!visit(rowStart, clusterStart, rowCells)) return false;
				rowStart = clusterStart;
				rowCells = 0;
			}
		}

		rowCells += cells;
		if (isSpace) {
			breakAt = clusterEnd;
			cellsAtBreak = rowCells;
		}
	}

	// After a break that took a final space nothing is left; do not add an empty row for it.
	if (rowStart === end && rows > 0) return true;
	return visit(rowStart, end, rowCells);
}

/**
 * Rows of at most `width` cells. With `maxLines`, text beyond it is cut and the last row ends
 * with `…`.
 */
export function wrapToWidth(text: string, width: number, maxLines = Number.POSITIVE_INFINITY, options: WrapOptions = {}): string[] {
	const rows: string[] = [];
	let more = false;
	forEachRow(text, width, options.words ?? false, (start, end, cells) => {
		if (rows.length >= maxLines) {
			more = true;
			return false;
		}

		rows.push(cells > width ? '…' : text.slice(start, end));
		return true;
	});
	if (more && rows.length > 0) {
		const last = rows.length - 1;
		rows[last] = `${truncateToWidth(rows[last] ?? '', width - 1, '')}…`;
	}

	return rows;
}

/** Row boundaries of a text wrapped at a width: built once (linear), then any window is cheap. */
export type RowIndex = {
	readonly text: string;
	readonly width: number;
	readonly count: number;
	readonly starts: Int32Array;
	readonly ends: Int32Array;
};

export function indexRows(text: string, width: number, options: WrapOptions = {}): RowIndex {
	let starts: Int32Array = new Int32Array(64);
	let ends: Int32Array = new Int32Array(64);
	let count = 0;
	forEachRow(text, width, options.words ?? false, (start, end) => {
		if (count === starts.length) {
			starts = grow(starts);
			ends = grow(ends);
		}

		starts[count] = start;
		ends[count] = end;
		count++;
		return true;
	});
	return {text, width, count, starts: starts.subarray(0, count), ends: ends.subarray(0, count)};
}

/** Rows [start, start + count) of an index; costs only what it returns. */
export function sliceRows(index: RowIndex, start: number, count: number): string[] {
	const rows: string[] = [];
	const from = Math.max(0, Math.floor(start));
	const to = Math.min(index.count, from + Math.max(0, Math.floor(count)));
	for (let row = from; row < to; row++) {
		rows.push(showRow(index.text, index.starts[row] ?? 0, index.ends[row] ?? 0, index.width));
	}

	return rows;
}

/** Offsets where each line starts (same line rules as above): one indexOf pass. */
export function indexLines(text: string): Int32Array {
	let starts: Int32Array = new Int32Array(64);
	let count = 0;
	const end = contentEnd(text);
	if (text.length === 0) return starts.subarray(0, 0);
	for (let lineStart = 0; lineStart <= end; ) {
		if (count === starts.length) starts = grow(starts);
		starts[count++] = lineStart;
		const newline = text.indexOf('\n', lineStart);
		if (newline === -1 || newline >= end) break;
		lineStart = newline + 1;
	}

	return starts.subarray(0, count);
}

/**
 * Lines [start, start + count), each cut to `width` cells with `…`: the unwrapped view. With a
 * `lineStarts` index from indexLines the cost is the visible rows only; without one, the text is
 * scanned for line feeds up to the last requested line and no further.
 */
export function sliceLines(text: string, start: number, count: number, width: number, lineStarts?: Int32Array): string[] {
	const lines: string[] = [];
	const first = Math.max(0, Math.floor(start));
	const last = first + Math.max(0, Math.floor(count));
	if (text.length === 0 || last === first) return lines;
	const end = contentEnd(text);
	let lineStart: number;
	if (lineStarts) {
		if (first >= lineStarts.length) return lines;
		lineStart = lineStarts[first] ?? 0;
	} else {
		lineStart = 0;
		for (let line = 0; line < first; line++) {
			const newline = text.indexOf('\n', lineStart);
			if (newline === -1 || newline >= end) return lines;
			lineStart = newline + 1;
		}
	}

	for (let line = first; line < last && lineStart <= end; line++) {
		let lineEnd = text.indexOf('\n', lineStart);
		if (lineEnd === -1 || lineEnd > end) lineEnd = end;
		lines.push(truncateSpan(text, lineStart, lineEnd, width));
		if (lineEnd >= end) break;
		lineStart = lineEnd + 1;
	}

	return lines;
}

function grow(array: Int32Array): Int32Array {
	const bigger = new Int32Array(array.length * 2);
	bigger.set(array);
	return bigger;
}

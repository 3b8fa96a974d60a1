import {ClusterCursor} from '../format/graphemes.js';
import {attributeClosedBy, attributeOf} from './sgr-attributes.js';

/**
 * The bytes that turn one rendered line into another on the terminal: only the span of cells
 * that differ, drawn in the colours each cell had in Ink's line. In the wide layout a line is the
 * list on the left and the timeline on the right; when only the timeline moves (following a
 * stream) this writes the right half instead of the whole line.
 *
 * Lines hold printable text and SGR sequences only (frame-diff.ts passes anything else through).
 */

const escape = '\u001B';

type Cell = {
	/** The grapheme cluster; '' for the second column of a wide character. */
	text: string;
	/** The SGR parameters in force, in order, as one string (`36;1`); '' for none. */
	style: string;
};

/** Applies one SGR sequence's parameters to the active set (attribute → its parameters). */
function applySgr(active: Map<string, string>, parameters: string): void {
	const codes = parameters === '' ? [0] : parameters.split(';').map(Number);
	for (let index = 0; index < codes.length; index++) {
		const code = codes[index]!;
		if (code === 0) {
			active.clear();
			continue;
		}
		if (code === 38 || code === 48) {
			// Extended colour: 38;5;N or 38;2;R;G;B.
			const length = codes[index + 1] === 5 ? 2 : codes[index + 1] === 2 ? 4 : 0;
			active.set(code === 38 ? 'fg' : 'bg', codes.slice(index, index + 1 + length).join(';'));
			index += length;
			continue;
		}
		const closes = attributeClosedBy(code);
		if (closes) {
			active.delete(closes);
			continue;
		}
		const attribute = attributeOf(code);
		if (attribute) active.set(attribute, String(code));
	}
}

const sgr = /\u001B\[([\d;]*)m/g;

export function styledCells(line: string): Cell[] {
	const cells: Cell[] = [];
	const active = new Map<string, string>();
	let style = '';
	let at = 0;
	const addText = (end: number) => {
		const cursor = new ClusterCursor(line, at, end);
		while (cursor.next()) {
			cells.push({text: line.slice(cursor.start, cursor.end), style});
			for (let extra = 1; extra < cursor.width; extra++) cells.push({text: '', style});
		}
	};
	sgr.lastIndex = 0;
	for (let match = sgr.exec(line); match; match = sgr.exec(line)) {
		if (match.index > at) addText(match.index);
		applySgr(active, match[1] ?? '');
		style = [...active.values()].join(';');
		at = match.index + match[0].length;
	}
	if (at < line.length) addText(line.length);
	return cells;
}

/**
 * Cursor movement and text that change `previous` into `next` on `row` (0-based), or '' when
 * they look the same. Falls back to the whole line when the span is most of it anyway.
 */
export function lineUpdate(previous: string, next: string, row: number): string {
	if (previous === next) return '';
	const before = styledCells(previous);
	const after = styledCells(next);
	const same = (a: Cell | undefined, b: Cell | undefined) => a !== undefined && b !== undefined && a.text === b.text && a.style === b.style;
	let first = 0;
	while (first < after.length && same(before[first], after[first])) first++;
	if (first === after.length && before.length <= after.length) return '';
	// Never start on the second column of a wide character.
	while (first > 0 && after[first]?.text === '') first--;
	let lastAfter = after.length - 1;
	let lastBefore = before.length - 1;
	if (before.length === after.length) {
		while (lastAfter >= first && same(before[lastBefore], after[lastAfter])) {
			lastAfter--;
			lastBefore--;
		}
		// End on a whole character: include the second column of a wide one.
		while (lastAfter + 1 < after.length && after[lastAfter + 1]?.text === '') lastAfter++;
	}
	const erasesTail = before.length > after.length;
	let out = `${escape}[${row + 1};${first + 1}H`;
	let style = '';
	for (let index = first; index <= lastAfter; index++) {
		const cell = after[index]!;
		if (cell.text === '') continue;
		if (cell.style !== style) {
			out += `${escape}[0${cell.style ? `;${cell.style}` : ''}m`;
			style = cell.style;
		}
		out += cell.text;
	}
	if (style !== '') out += `${escape}[0m`;
	if (erasesTail) out += `${escape}[K`;
	return out;
}

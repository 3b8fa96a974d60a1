import {standaloneWidth} from '../format/graphemes.js';

/**
 * The width of a string made only of the dashboard's usual characters, from the glyph table,
 * without string-width's full measure. The cached line builder (terminal/cached-output.ts) asks this
 * first for every line and character it measures.
 *
 * Why: any string holding one of the dashboard's glyphs (│ ● ▸ ◆ ✓ …) takes string-width's slow
 * path: Intl.Segmenter, then per cluster the `\p{RGI_Emoji}` and Default_Ignorable regexes.
 * Cold, the first frame paid about 60 ms compiling and running those (profiled at start-up);
 * warm, a few microseconds per string on every frame. A string made only of characters from the
 * standalone table (format/graphemes.ts: always a cluster on its own, width checked against
 * string-width for every entry by test/format-width.test.ts) and SGR colour sequences has the
 * table's width. Anything else (other escapes, marks, emoji, controls) gets -1, and the caller
 * goes on to string-width, so the result is string-width's in every case
 * (test/format-table-width.test.ts).
 */

const esc = 0x1b;
const leftBracket = 0x5b;
const letterM = 0x6d;
const semicolon = 0x3b;

/** Width from the table, skipping SGR sequences, or -1 when some character is not in it. */
export function tableWidth(text: string): number {
	let width = 0;
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		if (code === esc) {
			const end = sgrEnd(text, index);
			if (end === -1) return -1;
			index = end;
			continue;
		}

		const cells = standaloneWidth(code);
		if (cells === 0) return -1;
		width += cells;
	}

	return width;
}

/** Index of the `m` ending the SGR sequence (ESC [ digits/semicolons m) at `start`, or -1. */
export function sgrEnd(text: string, start: number): number {
	if (text.charCodeAt(start + 1) !== leftBracket) return -1;
	for (let index = start + 2; index < text.length; index++) {
		const code = text.charCodeAt(index);
		if (code === letterM) return index;
		if (code !== semicolon && (code < 0x30 || code > 0x39)) return -1;
	}

	return -1;
}

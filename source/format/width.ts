import {ClusterCursor} from './graphemes.js';

/**
 * Cell widths of display text, as Ink measures them (string-width), without ever cutting a
 * surrogate pair, a grapheme cluster (ZWJ emoji, flags, combining marks) or a wide character.
 * Inputs are sanitized text (see sanitize.ts): escape sequences and controls are not expected.
 * Every function costs time proportional to what it returns, or one linear pass at most: a
 * 5 MB observation must not freeze the keyboard. Wrapping and slicing into rows, built on these,
 * are wrap.ts.
 */

const printableAscii = /^[\u0020-\u007E]*$/;

export function cellWidth(text: string): number {
	if (text.length <= 4096 && printableAscii.test(text)) return text.length;
	let width = 0;
	const cursor = new ClusterCursor(text);
	while (cursor.next()) width += cursor.width;
	return width;
}

/**
 * `text` if it fits in `width` cells, else its longest cluster-aligned prefix that fits together
 * with `ellipsis`. If even the ellipsis does not fit, the prefix is cut without one. Stops reading
 * as soon as the width is exceeded, so truncating a 5 MB line costs a row's worth of work.
 */
export function truncateToWidth(text: string, width: number, ellipsis = '…'): string {
	if (width <= 0) return '';
	if (text.length <= width && printableAscii.test(text)) return text;
	return truncateSpan(text, 0, text.length, width, ellipsis);
}

/**
 * truncateToWidth for text[start, end) without copying it first (a line of a 5 MB text). `start`
 * must be a cluster boundary and `end` the text's end or a line feed.
 */
export function truncateSpan(text: string, start: number, end: number, width: number, ellipsis = '…'): string {
	if (width <= 0) return '';
	const ellipsisWidth = cellWidth(ellipsis);
	const suffix = ellipsisWidth <= width ? ellipsis : '';
	const budget = width - (suffix === '' ? 0 : ellipsisWidth);
	let used = 0;
	let cut = start;
	const cursor = new ClusterCursor(text, start, end);
	while (cursor.next()) {
		used += cursor.width;
		if (used > width) return text.slice(start, cut) + suffix;
		if (used <= budget) cut = cursor.end;
	}

	return text.slice(start, end);
}

/** Exactly `width` cells: truncated with an ellipsis if longer, padded with spaces if shorter. */
export function padToWidth(text: string, width: number): string {
	if (width <= 0) return '';
	const fitted = truncateToWidth(text, width);
	// A wide character that did not fit can leave the truncated text one cell short.
	const missing = width - cellWidth(fitted);
	return missing > 0 ? fitted + ' '.repeat(missing) : fitted;
}

/** Like padToWidth, with the text against the right edge (numbers, ages, costs). */
export function padStartToWidth(text: string, width: number): string {
	if (width <= 0) return '';
	const fitted = truncateToWidth(text, width);
	const missing = width - cellWidth(fitted);
	if (missing <= 0) return fitted;
	const padded = ' '.repeat(missing) + fitted;
	// Text that starts with a combining character would merge into the last space: pad the other side.
	return cellWidth(padded) === width ? padded : fitted + ' '.repeat(missing);
}

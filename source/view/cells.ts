import {cellWidth, padToWidth, truncateToWidth} from '../format/width.js';

/**
 * Fixed-width cells for table rows, measured in terminal cells (CJK and emoji are two wide), so
 * columns line up and no row is wider than its pane. Text must already be sanitized.
 */

export function cellLeft(text: string, width: number): string {
	if (width <= 0) return '';
	return padToWidth(truncateToWidth(text, width), width);
}

export function cellRight(text: string, width: number): string {
	if (width <= 0) return '';
	const cut = truncateToWidth(text, width);
	return ' '.repeat(Math.max(0, width - cellWidth(cut))) + cut;
}

/** A whole line cut to the width (never wraps, never splits a wide character). */
export function line(text: string, width: number): string {
	return truncateToWidth(text, Math.max(0, width));
}

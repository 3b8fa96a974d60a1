/**
 * Where everything goes for a terminal size. The frame is one row shorter than the terminal: on
 * Ink 6.8 a frame as tall as the terminal makes every render clear the whole screen.
 */

/** Rows above the panes (header, tab bar) and below them (key hints, notice line). */
export const headerRows = 2;
export const footerRows = 2;

/** From this width on, the list and the timeline sit side by side. */
export const wideColumns = 140;

export const minColumns = 40;
export const minRows = 10;

export type Layout = {
	columns: number;
	rows: number;
	/** Height of the root box: rows - 1. */
	frameHeight: number;
	/** Rows left for the pane area. */
	paneHeight: number;
	/** Two columns: list on the left, timeline (or details) on the right. */
	wide: boolean;
	leftWidth: number;
	/** 0 when not wide. */
	rightWidth: number;
	tooSmall: boolean;
	/** Wide enough for two columns, whether or not a zoom shows one. */
	roomForTwo: boolean;
};

/** `zoomed` (the `z` key): one pane at a time at any width, as below `wideColumns`. */
export function computeLayout(columns: number, rows: number, zoomed = false): Layout {
	const frameHeight = Math.max(1, rows - 1);
	const paneHeight = Math.max(1, frameHeight - headerRows - footerRows);
	const tooSmall = columns < minColumns || rows < minRows;
	const roomForTwo = !tooSmall && columns >= wideColumns;
	const wide = roomForTwo && !zoomed;
	// Half each: below ~80 columns the list's titles shrink to a few words once an attention
	// reason shares their cell, and the timeline's summaries read fine in 80.
	const leftWidth = wide ? Math.min(110, Math.max(70, Math.floor(columns * 0.5))) : columns;
	// One column of gap between the two sides.
	const rightWidth = wide ? columns - leftWidth - 1 : 0;
	return {columns, rows, frameHeight, paneHeight, wide, leftWidth, rightWidth, tooSmall, roomForTwo};
}

/**
 * Finds a block of lines that moved up between two frames, so the terminal can scroll it
 * (frame-diff.ts) instead of having each of its lines written again.
 *
 * The block is rows [top, bottom] of the screen: after scrolling it up `by` lines, rows
 * top..bottom-by show what rows top+by..bottom showed, and the last `by` rows are blank. Chosen
 * to save the most lines that would otherwise be rewritten; null when scrolling saves fewer than
 * `minimumSaved`, or nothing moved.
 */

export type ScrollShift = {top: number; bottom: number; by: number};

/** Below this, the scroll sequence (about 20 bytes) and the blank lines are not worth it. */
const minimumSaved = 3;

export function findScrollShift(before: readonly string[], after: readonly string[], maxShift = Math.floor(after.length / 2)): ScrollShift | null {
	// Where each non-empty line was, to find for each new line the earlier rows below it that held it.
	const rowsOf = new Map<string, number[]>();
	for (let row = 0; row < before.length; row++) {
		const line = before[row]!;
		if (line === '') continue;
		const rows = rowsOf.get(line);
		if (rows) rows.push(row);
		else rowsOf.set(line, [row]);
	}

	// Runs of consecutive new rows whose lines sat the same distance `by` further down before.
	// For each shift: where its current run started, where it last matched, and the rows it saves.
	const runs = new Map<number, {start: number; last: number; saved: number}>();
	let best: (ScrollShift & {saved: number}) | null = null;
	for (let row = 0; row < after.length; row++) {
		const line = after[row]!;
		const candidates = line === '' ? undefined : rowsOf.get(line);
		if (!candidates) continue;
		const changed = before[row] !== line;
		for (const from of candidates) {
			const by = from - row;
			if (by <= 0 || by > maxShift) continue;
			let run = runs.get(by);
			if (!run || run.last !== row - 1) {
				run = {start: row, last: row, saved: 0};
				runs.set(by, run);
			}
			run.last = row;
			if (changed) run.saved++;
			if (run.saved > (best?.saved ?? minimumSaved - 1)) best = {top: run.start, bottom: row + by, by, saved: run.saved};
		}
	}

	if (!best) return null;
	return {top: best.top, bottom: best.bottom, by: best.by};
}

/**
 * What `row` shows once the terminal has scrolled `before` by `shift`: inside the block, the line
 * `by` rows further down, or blank at its foot; outside it, what was there.
 */
export function shownAfterShift(before: readonly string[], shift: ScrollShift, row: number): string | undefined {
	if (row < shift.top || row > shift.bottom) return before[row];
	return row + shift.by <= shift.bottom ? (before[row + shift.by] ?? '') : '';
}

/** Bytes that turn the line on screen into the wanted one (line-diff.ts's `lineUpdate`). */
export type LineCost = (onScreen: string, wanted: string, row: number) => number;

/**
 * Grows a shift's block down by up to `reach` rows when the lines it then brings up are cheaper
 * to patch than the blank ones it leaves are to fill: the row the following cursor just left
 * (only its gutter mark differs from the line below it before), a pane's last row whose count
 * changed. findScrollShift matches identical lines only, so without this such a row stays out
 * of the block and is written whole every frame.
 */
export function widenShift(before: readonly string[], after: readonly string[], shift: ScrollShift, cost: LineCost, reach = 3): ScrollShift {
	const last = Math.min(before.length, after.length) - 1;
	// Rows that can differ between the candidates: those the shift leaves blank, and below.
	const from = Math.max(shift.top, shift.bottom - shift.by + 1);
	const to = Math.min(last, shift.bottom + reach);
	const total = (candidate: ScrollShift) => {
		let bytes = 0;
		for (let row = from; row <= to; row++) {
			const onScreen = shownAfterShift(before, candidate, row)!;
			const wanted = after[row]!;
			if (onScreen !== wanted) bytes += cost(onScreen, wanted, row);
		}
		return bytes;
	};
	let best = shift;
	let bestBytes = total(shift);
	for (let bottom = shift.bottom + 1; bottom <= to; bottom++) {
		const candidate = {...shift, bottom};
		const bytes = total(candidate);
		if (bytes < bestBytes) {
			best = candidate;
			bestBytes = bytes;
		}
	}
	return best;
}

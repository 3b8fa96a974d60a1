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

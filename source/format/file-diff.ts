import {structuredPatch, type StructuredPatchHunk} from 'diff';
import {lineHunks} from './line-diff.js';
import {sanitizeLine} from './sanitize.js';

/**
 * One file's change as display rows: unified hunks (jsdiff's, from `lineHunks`, which makes the
 * hunks `structuredPatch` of the `diff` package makes, faster; the package itself when a change is
 * too large for it) with the old and new line number of every row, and the added and removed line counts.
 * The texts are agent output, so every row is sanitized here, once: an escape sequence in a file
 * becomes visible text (`␛]0;pwned␇`) and never reaches the terminal. Pure; the caller caches it.
 */

export type DiffRowKind = 'hunk' | 'context' | 'added' | 'removed' | 'no-newline';

export type DiffRow = {
	kind: DiffRowKind;
	/** Line number in the original (context and removed rows), else null. */
	oldLine: number | null;
	/** Line number in the modified text (context and added rows), else null. */
	newLine: number | null;
	/** Sanitized, one terminal row's worth of logical text (the view truncates it to the width). */
	text: string;
	/** Index of the hunk the row belongs to. */
	hunk: number;
};

export type FileDiff = {
	rows: readonly DiffRow[];
	/** Row index of each hunk's header, in order: next/previous hunk jump between them. */
	hunkStarts: readonly number[];
	added: number;
	removed: number;
	/** Original and modified are the same text (or both absent): nothing to show. */
	identical: boolean;
	/** The file is new (no original) or gone (no modified): an empty one has no rows to show. */
	side: 'added' | 'deleted' | 'both' | 'neither';
};

export type DiffOptions = {
	/** Unchanged lines shown around each change (git's default is 3). */
	context?: number;
	/** Give up on a minimal diff after this long and show the file as replaced whole. */
	timeoutMs?: number;
	/** How many search steps `lineHunks` may keep before it hands the texts to jsdiff (tests lower it). */
	maxSteps?: number;
};

/** The hunks of two texts (null: the file does not exist on that side). */
export function diffHunks(original: string | null, modified: string | null, options: DiffOptions = {}): StructuredPatchHunk[] {
	const before = original ?? '';
	const after = modified ?? '';
	if (before === after) return [];
	const context = options.context ?? 3;
	const timeout = options.timeoutMs ?? 2000;
	const hunks = lineHunks(before, after, {context, timeoutMs: timeout, ...(options.maxSteps === undefined ? {} : {maxSteps: options.maxSteps})});
	if (hunks === 'timeout') return replacedWhole(before, after);
	if (hunks !== 'too-big') return hunks;
	const patch = structuredPatch('a', 'b', before, after, undefined, undefined, {context, timeout});
	return patch ? patch.hunks : replacedWhole(before, after);
}

/** When the minimal diff takes too long (two unrelated large texts): every old line out, every new line in. */
function replacedWhole(before: string, after: string): StructuredPatchHunk[] {
	const lines = (text: string, sign: string) => {
		if (text === '') return [];
		const parts = text.split('\n');
		const last = parts.pop();
		const out = parts.map((part) => sign + part);
		if (last !== '') out.push(sign + last, '\\ No newline at end of file');
		return out;
	};
	const removed = lines(before, '-');
	const added = lines(after, '+');
	const count = (rows: string[]) => rows.filter((row) => !row.startsWith('\\')).length;
	return [{oldStart: 1, oldLines: count(removed), newStart: 1, newLines: count(added), lines: [...removed, ...added]}];
}

export function computeFileDiff(original: string | null, modified: string | null, options: DiffOptions = {}): FileDiff {
	const hunks = diffHunks(original, modified, options);
	const rows: DiffRow[] = [];
	const hunkStarts: number[] = [];
	let added = 0;
	let removed = 0;
	hunks.forEach((hunk, index) => {
		hunkStarts.push(rows.length);
		rows.push({kind: 'hunk', oldLine: null, newLine: null, text: hunkHeader(hunk), hunk: index});
		let oldLine = hunk.oldStart;
		let newLine = hunk.newStart;
		for (const line of hunk.lines) {
			const sign = line[0];
			const text = sanitizeLine(line.slice(1));
			if (sign === '+') {
				rows.push({kind: 'added', oldLine: null, newLine: newLine++, text, hunk: index});
				added++;
			} else if (sign === '-') {
				rows.push({kind: 'removed', oldLine: oldLine++, newLine: null, text, hunk: index});
				removed++;
			} else if (sign === '\\') {
				rows.push({kind: 'no-newline', oldLine: null, newLine: null, text: sanitizeLine(line), hunk: index});
			} else {
				rows.push({kind: 'context', oldLine: oldLine++, newLine: newLine++, text, hunk: index});
			}
		}
	});
	const side = original === null ? (modified === null ? 'neither' : 'added') : modified === null ? 'deleted' : 'both';
	return {rows, hunkStarts, added, removed, identical: hunks.length === 0, side};
}

/** `@@ -12,7 +12,9 @@`, as git writes it: a count of 1 is left out, an empty side starts one line earlier. */
export function hunkHeader(hunk: Pick<StructuredPatchHunk, 'oldStart' | 'oldLines' | 'newStart' | 'newLines'>): string {
	const side = (start: number, lines: number) => {
		const shown = lines === 0 ? start - 1 : start;
		return lines === 1 ? `${shown}` : `${shown},${lines}`;
	};
	return `@@ -${side(hunk.oldStart, hunk.oldLines)} +${side(hunk.newStart, hunk.newLines)} @@`;
}

/** The row index of the next (direction 1) or previous (-1) hunk header from `row`, or null at the end. */
export function neighbourHunk(diff: Pick<FileDiff, 'hunkStarts'>, row: number, direction: 1 | -1): number | null {
	if (direction === 1) return diff.hunkStarts.find((start) => start > row) ?? null;
	for (let index = diff.hunkStarts.length - 1; index >= 0; index--) {
		if (diff.hunkStarts[index]! < row) return diff.hunkStarts[index]!;
	}
	return null;
}

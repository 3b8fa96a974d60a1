import type {StructuredPatchHunk} from 'diff';

/**
 * The unified hunks of two texts, line by line: the same hunks `structuredPatch` of the `diff`
 * package (jsdiff 9) makes, from the same search, in typed arrays.
 *
 * Why not call jsdiff: its search (Myers' O(ND) algorithm with its own edge pruning, in
 * `libesm/diff/base.js` `diffWithOptionsObj`) makes an object per step of every path it tries;
 * for a 5,000-line file changed in 12 places that was ~9 ms (15 under memory saver mode), most
 * of it those objects and their collection, and the Changes view's first frame waited on it.
 * Here the steps live in one Int32Array and each choice is jsdiff's (the same diagonal order,
 * tie-break and pruning), so the hunks equal jsdiff's; a test holds them to that on random texts.
 * The hunks are cut as `structuredPatch` (`libesm/patch/create.js`) cuts them: `context` lines
 * around each change, changes closer than twice that in one hunk, `\ No newline at end of file`
 * after a last line without one.
 *
 * Returns 'timeout' when `timeoutMs` passed first (jsdiff's answer then is no patch) and
 * 'too-big' when the search would keep more than `maxSteps` steps (the caller hands it to jsdiff).
 */

export type LineDiffOptions = {context: number; timeoutMs: number; maxSteps?: number};

const none = -1;
const add = 1;
const remove = 2;
/** A step is [previous step, old position, new position, kind]: jsdiff's path object, flattened. */
const stride = 4;
/** 1,000,000 steps are 16 MB; jsdiff would need more than a million path objects for such a change. */
const defaultMaxSteps = 1_000_000;

export function lineHunks(before: string, after: string, options: LineDiffOptions): StructuredPatchHunk[] | 'timeout' | 'too-big' {
	const oldTokens = lineTokens(before);
	const newTokens = lineTokens(after);
	const end = search(oldTokens, newTokens, options);
	if (typeof end === 'string') return end;
	return cutHunks(runs(end.steps, end.last), oldTokens, newTokens, options.context);
}

/** Lines with their line break ("a\r\n" keeps its \r), as jsdiff's line tokenizer splits them. */
function lineTokens(text: string): string[] {
	const tokens: string[] = [];
	let start = 0;
	while (start < text.length) {
		const newline = text.indexOf('\n', start);
		const stop = newline === -1 ? text.length : newline + 1;
		tokens.push(text.slice(start, stop));
		start = stop;
	}
	return tokens;
}

type SearchEnd = {steps: Int32Array; last: number};

/**
 * jsdiff's `diffWithOptionsObj`, step for step; positions are jsdiff's (the last line taken, -1
 * before the first), lines are compared as strings as jsdiff compares them.
 */
function search(oldTokens: string[], newTokens: string[], options: LineDiffOptions): SearchEnd | 'timeout' | 'too-big' {
	const oldLen = oldTokens.length;
	const newLen = newTokens.length;
	const maxSteps = options.maxSteps ?? defaultMaxSteps;
	let steps = new Int32Array(stride * Math.min(maxSteps, 4096));
	const maxEditLength = oldLen + newLen;
	const offset = maxEditLength + 1;
	// best[diagonal + offset]: the furthest step on that diagonal (old position minus new), or none.
	const best = new Int32Array(2 * offset + 1).fill(none);
	let oldPos = followEqual(oldTokens, newTokens, -1, 0);
	let newPos = oldPos;
	steps[0] = none;
	steps[1] = oldPos;
	steps[2] = newPos;
	steps[3] = 0;
	let count = 1;
	if (oldPos + 1 >= oldLen && newPos + 1 >= newLen) return {steps, last: 0};
	best[offset] = 0;
	const abortAt = Date.now() + options.timeoutMs;
	// jsdiff's -Infinity and Infinity: integers beyond every diagonal keep the loop in small integers.
	let minDiagonal = -offset;
	let maxDiagonal = offset;
	for (let editLength = 1; editLength <= maxEditLength && Date.now() <= abortAt; editLength++) {
		for (let diagonal = Math.max(minDiagonal, -editLength); diagonal <= Math.min(maxDiagonal, editLength); diagonal += 2) {
			const removeFrom = best[diagonal - 1 + offset]!;
			const addFrom = best[diagonal + 1 + offset]!;
			if (removeFrom !== none) best[diagonal - 1 + offset] = none;
			const addOld = addFrom === none ? 0 : steps[addFrom * stride + 1]!;
			const removeOld = removeFrom === none ? 0 : steps[removeFrom * stride + 1]!;
			const canAdd = addFrom !== none && addOld - diagonal >= 0 && addOld - diagonal < newLen;
			const canRemove = removeFrom !== none && removeOld + 1 < oldLen;
			if (!canAdd && !canRemove) {
				best[diagonal + offset] = none;
				continue;
			}
			if (count === maxSteps) return 'too-big';
			if ((count + 1) * stride > steps.length) {
				const grown = new Int32Array(Math.min(steps.length * 2, maxSteps * stride));
				grown.set(steps);
				steps = grown;
			}
			// jsdiff's choice: the path further along the old text; on a tie, the removal.
			const adding = !canRemove || (canAdd && removeOld < addOld);
			oldPos = followEqual(oldTokens, newTokens, adding ? addOld : removeOld + 1, diagonal);
			newPos = oldPos - diagonal;
			const step = count++;
			steps[step * stride] = adding ? addFrom : removeFrom;
			steps[step * stride + 1] = oldPos;
			steps[step * stride + 2] = newPos;
			steps[step * stride + 3] = adding ? add : remove;
			if (oldPos + 1 >= oldLen && newPos + 1 >= newLen) return {steps, last: step};
			best[diagonal + offset] = step;
			if (oldPos + 1 >= oldLen) maxDiagonal = Math.min(maxDiagonal, diagonal - 1);
			if (newPos + 1 >= newLen) minDiagonal = Math.max(minDiagonal, diagonal + 1);
		}
	}
	return 'timeout';
}

/** jsdiff's `extractCommon`: from `oldPos` along `diagonal` while the lines are equal; the old position reached. */
function followEqual(oldTokens: readonly string[], newTokens: readonly string[], oldPos: number, diagonal: number): number {
	let newPos = oldPos - diagonal;
	while (newPos + 1 < newTokens.length && oldPos + 1 < oldTokens.length && oldTokens[oldPos + 1] === newTokens[newPos + 1]) {
		newPos++;
		oldPos++;
	}
	return oldPos;
}

type Run = {kind: 'common' | 'added' | 'removed'; oldStart: number; newStart: number; count: number};

/** The path as jsdiff's change objects: equal lines, and edits of one kind in a row merged. */
function runs(steps: Int32Array, last: number): Run[] {
	const path: number[] = [];
	for (let step = last; step !== none; step = steps[step * stride]!) path.push(step);
	path.reverse();
	const out: Run[] = [];
	let oldPos = -1;
	let newPos = -1;
	for (const step of path) {
		const kind = steps[step * stride + 3]!;
		if (kind !== 0) {
			const name = kind === add ? 'added' : 'removed';
			const previous = out.at(-1);
			if (previous?.kind === name) previous.count++;
			else out.push({kind: name, oldStart: oldPos + 1, newStart: newPos + 1, count: 1});
			if (kind === add) newPos++;
			else oldPos++;
		}
		const common = steps[step * stride + 1]! - oldPos;
		if (common > 0) out.push({kind: 'common', oldStart: oldPos + 1, newStart: newPos + 1, count: common});
		oldPos += common;
		newPos += common;
	}
	return out;
}

/** jsdiff's `structuredPatch` hunk cutting (`diffLinesResultToPatch`), over runs instead of strings. */
function cutHunks(changes: Run[], oldTokens: string[], newTokens: string[], context: number): StructuredPatchHunk[] {
	const linesOf = (run: Run) => (run.kind === 'removed' ? oldTokens.slice(run.oldStart, run.oldStart + run.count) : newTokens.slice(run.newStart, run.newStart + run.count));
	const contextOf = (lines: string[]) => lines.map((line) => ` ${line}`);
	// An empty run at the end closes the last hunk, as jsdiff's appended empty change does.
	const all: Run[] = [...changes, {kind: 'common', oldStart: oldTokens.length, newStart: newTokens.length, count: 0}];
	const hunks: StructuredPatchHunk[] = [];
	let oldRangeStart = 0;
	let newRangeStart = 0;
	let current: string[] = [];
	let oldLine = 1;
	let newLine = 1;
	for (let index = 0; index < all.length; index++) {
		const run = all[index]!;
		if (run.kind !== 'common') {
			if (!oldRangeStart) {
				const previous = all[index - 1];
				oldRangeStart = oldLine;
				newRangeStart = newLine;
				if (previous) {
					current = context > 0 ? contextOf(linesOf(previous).slice(-context)) : [];
					oldRangeStart -= current.length;
					newRangeStart -= current.length;
				}
			}
			const sign = run.kind === 'added' ? '+' : '-';
			for (const line of linesOf(run)) current.push(sign + line);
			if (run.kind === 'added') newLine += run.count;
			else oldLine += run.count;
			continue;
		}
		if (oldRangeStart) {
			if (run.count <= context * 2 && index < all.length - 2) {
				current.push(...contextOf(linesOf(run)));
			} else {
				const contextSize = Math.min(run.count, context);
				current.push(...contextOf(linesOf(run).slice(0, contextSize)));
				hunks.push({oldStart: oldRangeStart, oldLines: oldLine - oldRangeStart + contextSize, newStart: newRangeStart, newLines: newLine - newRangeStart + contextSize, lines: current});
				oldRangeStart = 0;
				newRangeStart = 0;
				current = [];
			}
		}
		oldLine += run.count;
		newLine += run.count;
	}
	for (const hunk of hunks) {
		const lines: string[] = [];
		for (const line of hunk.lines) {
			if (line.endsWith('\n')) lines.push(line.slice(0, -1));
			else lines.push(line, '\\ No newline at end of file');
		}
		hunk.lines = lines;
	}
	return hunks;
}

import assert from 'node:assert/strict';
import {test} from 'node:test';
import {structuredPatch} from 'diff';
import fc from 'fast-check';
import {diffHunks} from '../source/format/file-diff.js';
import {lineHunks} from '../source/format/line-diff.js';
import {largeFilePath, workspaceFor} from '../source/simulator/git-workspace.js';

/**
 * `lineHunks` claims the hunks of jsdiff's `structuredPatch`, from the same search: held to that
 * on random texts built from few distinct lines (so many alignments are equally short and the
 * tie-break and jsdiff's edge pruning decide), with and without a last newline, CRLF lines, and
 * every context from 0 to 4.
 */

const jsdiff = (before: string, after: string, context: number) => structuredPatch('a', 'b', before, after, undefined, undefined, {context, timeout: 60_000})!.hunks;

const lineArb = fc.constantFrom('a', 'b', 'c', '', 'a\r', ' a', 'ünï');
const textArb = fc.tuple(fc.array(lineArb, {maxLength: 24}), fc.boolean()).map(([lines, newline]) => (lines.length === 0 ? '' : lines.join('\n') + (newline ? '\n' : '')));

test('property: the hunks jsdiff makes, line for line', {timeout: 120_000}, () => {
	fc.assert(
		fc.property(textArb, textArb, fc.integer({min: 0, max: 4}), (before, after, context) => {
			fc.pre(before !== after);
			assert.deepEqual(lineHunks(before, after, {context, timeoutMs: 60_000}), jsdiff(before, after, context));
		}),
		{numRuns: 3000},
	);
});

test('property: an edit of a longer text (insert, delete, replace runs) gives jsdiff\'s hunks', {timeout: 120_000}, () => {
	const base = Array.from({length: 120}, (_, index) => `line ${index % 17}`);
	const editArb = fc.array(fc.tuple(fc.nat({max: 119}), fc.nat({max: 6}), fc.array(fc.constantFrom('line 3', 'new', 'line 16', ''), {maxLength: 6})), {minLength: 1, maxLength: 8});
	fc.assert(
		fc.property(editArb, fc.boolean(), (edits, newline) => {
			const lines = [...base];
			for (const [at, remove, insert] of edits) lines.splice(at, remove, ...insert);
			const before = base.join('\n') + '\n';
			const after = lines.join('\n') + (newline ? '\n' : '');
			fc.pre(before !== after);
			assert.deepEqual(lineHunks(before, after, {context: 3, timeoutMs: 60_000}), jsdiff(before, after, 3));
		}),
		{numRuns: 400},
	);
});

test('the simulator\'s 5,000-line file changed in 12 places: jsdiff\'s 12 hunks', () => {
	const file = workspaceFor('acme/ledger')!.files.find((candidate) => candidate.path === largeFilePath)!;
	const hunks = lineHunks(file.original!, file.modified!, {context: 3, timeoutMs: 60_000});
	assert.ok(Array.isArray(hunks));
	assert.equal(hunks.length, 12);
	assert.deepEqual(hunks, jsdiff(file.original!, file.modified!, 3));
});

test('too many steps to keep: lineHunks says so, and diffHunks hands the texts to jsdiff', () => {
	const before = Array.from({length: 60}, (_, index) => `old ${index}`).join('\n');
	const after = Array.from({length: 60}, (_, index) => `new ${index}`).join('\n');
	assert.equal(lineHunks(before, after, {context: 3, timeoutMs: 60_000, maxSteps: 50}), 'too-big');
	const full = lineHunks(before, after, {context: 3, timeoutMs: 60_000});
	assert.ok(Array.isArray(full) && full.length === 1 && full[0]!.lines.length === 122, 'a whole replacement: 60 out, 60 in, a no-newline marker after each side');
	assert.deepEqual(diffHunks(before, after, {maxSteps: 50}), jsdiff(before, after, 3));
	assert.deepEqual(diffHunks(before, after), jsdiff(before, after, 3));
});

test('out of time: no hunks from the search (as jsdiff gives none), and the file shows replaced whole', () => {
	const before = 'one\ntwo\nthree\n';
	const after = 'one\nTWO\nthree';
	assert.equal(structuredPatch('a', 'b', before, after, undefined, undefined, {context: 3, timeout: -1}), undefined);
	assert.equal(lineHunks(before, after, {context: 3, timeoutMs: -1}), 'timeout');
	assert.deepEqual(diffHunks(before, after, {timeoutMs: -1}), [{oldStart: 1, oldLines: 3, newStart: 1, newLines: 3, lines: ['-one', '-two', '-three', '+one', '+TWO', '+three', '\\ No newline at end of file']}]);
	// The same texts with time: one line changed, the last newline gone.
	assert.deepEqual(diffHunks(before, after), jsdiff(before, after, 3));
});

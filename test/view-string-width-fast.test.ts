import assert from 'node:assert/strict';
import {test} from 'node:test';
import fc from 'fast-check';
import stringWidth, {setFastWidth} from 'string-width';
import {installInkPatches} from '../source/ink-patches/index.js';
import {tableWidth} from '../source/ink-patches/string-width-fast.js';

/**
 * installInkPatches puts tableWidth in front of string-width's full measure for Ink and its
 * helpers (patches/string-width+8.3.0.patch): string-width must give the same answer for every
 * string, whichever path it takes.
 */

installInkPatches();

/** string-width's full measure, the fast path set aside for one call. */
function realStringWidth(value: string, options?: Parameters<typeof stringWidth>[1]): number {
	const fast = setFastWidth(undefined);
	try {
		return stringWidth(value, options);
	} finally {
		setFastWidth(fast);
	}
}

const pieces = [
	'a', 'status', ' ', '~', '│', '…', '▸', '◆', '✓', '✗', '‖', '∅', '◌', '●', '›', '→', 'é', 'ß', 'Ω', 'Ж', '漢字', 'ｱ', '가',
	// Not in the table: emoji, marks, joiners, variation selectors, controls, Hangul jamo, flags.
	'👍', '👨\u200D👩\u200D👧', '\u0301', 'e\u0301', '\u200D', '\uFE0F', '▶\uFE0F', '©', '\t', '\u0007', '\u1100\u1161', '🇫🇷', '\uD800',
	// Escape sequences: SGR (the fast path skips them) and others (string-width strips them).
	'\u001B[1m', '\u001B[38;5;208m', '\u001B[0m', '\u001B[m', '\u001B[38:2::1:2:3m', '\u001B]8;;https://x\u0007', '\u001B[2K', '\u001B[', '\u001B', '\u009B31m',
];

const text = fc.array(fc.constantFrom(...pieces), {maxLength: 12}).map((parts) => parts.join(''));

test('string-width-fast answers what string-width answers, for any mix of glyphs, marks, emoji and escapes', () => {
	fc.assert(
		fc.property(text, (value) => {
			assert.equal(stringWidth(value), realStringWidth(value), JSON.stringify(value));
		}),
		{numRuns: 3000},
	);
});

test('options that change the rules go to string-width itself', () => {
	// U+00B1 is East Asian ambiguous: narrow by default, wide when ambiguous characters are wide.
	assert.equal(stringWidth('±', {ambiguousIsNarrow: false}), realStringWidth('±', {ambiguousIsNarrow: false}));
	assert.equal(stringWidth('±', {ambiguousIsNarrow: false}), 2);
	assert.equal(stringWidth('\u001B[1mab', {countAnsiEscapeCodes: true}), realStringWidth('\u001B[1mab', {countAnsiEscapeCodes: true}));
	assert.equal(stringWidth('ab', {ambiguousIsNarrow: true}), 2);
});

test('installInkPatches put the fast path in: string-width answers from the table when it can', () => {
	const row = '\u001B[1m◆ waiting\u001B[22m │ …';
	const calls: string[] = [];
	const fast = setFastWidth(undefined);
	assert.equal(fast, tableWidth);
	setFastWidth((value) => {
		calls.push(value);
		return tableWidth(value);
	});
	try {
		assert.equal(stringWidth(row), 13);
		assert.equal(stringWidth('thumbs 👍'), 9);
		assert.deepEqual(calls, [row, 'thumbs 👍']);
	} finally {
		setFastWidth(fast);
	}
});

test('the table path takes the dashboard’s rows and leaves the rest to string-width', () => {
	const row = '\u001B[1m\u001B[36m◆ waiting\u001B[39m\u001B[22m │ … ▸ 漢字';
	assert.equal(tableWidth(row), 20);
	assert.equal(tableWidth(row), realStringWidth(row));
	assert.equal(tableWidth('thumbs 👍'), -1);
	assert.equal(tableWidth('e\u0301'), -1);
	assert.equal(tableWidth('\u001B]8;;x\u0007'), -1);
});

import assert from 'node:assert/strict';
import {test} from 'node:test';
import fc from 'fast-check';
import stringWidth from 'string-width';
import {tableWidth} from '../source/format/table-width.js';

/**
 * The cached line builder (source/terminal/cached-output.ts) asks tableWidth before string-width:
 * wherever the table answers, it must answer what string-width does.
 */

const pieces = [
	'a', 'status', ' ', '~', '│', '…', '▸', '◆', '✓', '✗', '‖', '∅', '◌', '●', '›', '→', 'é', 'ß', 'Ω', 'Ж', '漢字', 'ｱ', '가',
	// Not in the table: emoji, marks, joiners, variation selectors, controls, Hangul jamo, flags.
	'👍', '👨\u200D👩\u200D👧', '\u0301', 'e\u0301', '\u200D', '\uFE0F', '▶\uFE0F', '©', '\t', '\u0007', '\u1100\u1161', '🇫🇷', '\uD800',
	// Escape sequences: SGR (the fast path skips them) and others (string-width strips them).
	'\u001B[1m', '\u001B[38;5;208m', '\u001B[0m', '\u001B[m', '\u001B[38:2::1:2:3m', '\u001B]8;;https://x\u0007', '\u001B[2K', '\u001B[', '\u001B', '\u009B31m',
];

const text = fc.array(fc.constantFrom(...pieces), {maxLength: 12}).map((parts) => parts.join(''));

test('the table answers what string-width answers, or -1, for any mix of glyphs, marks, emoji and escapes', () => {
	let answered = 0;
	fc.assert(
		fc.property(text, (value) => {
			const width = tableWidth(value);
			if (width === -1) return;
			answered++;
			assert.equal(width, stringWidth(value), JSON.stringify(value));
		}),
		{numRuns: 3000},
	);
	// Not a test that passes by answering -1 to everything.
	assert.ok(answered > 100, `the table answered ${answered} of 3000`);
});

test('the table path takes the dashboard’s rows and leaves the rest to string-width', () => {
	const row = '\u001B[1m\u001B[36m◆ waiting\u001B[39m\u001B[22m │ … ▸ 漢字';
	assert.equal(tableWidth(row), 20);
	assert.equal(tableWidth(row), stringWidth(row));
	assert.equal(tableWidth('thumbs 👍'), -1);
	assert.equal(tableWidth('e\u0301'), -1);
	assert.equal(tableWidth('\u001B]8;;x\u0007'), -1);
});

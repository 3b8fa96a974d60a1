import {test} from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import stringWidth from 'string-width';
import {ClusterCursor, standaloneWidth} from '../source/format/graphemes.js';
import {sanitizeLine, sanitizeText} from '../source/format/sanitize.js';
import {cellWidth, padStartToWidth, padToWidth, truncateSpan, truncateToWidth} from '../source/format/width.js';
import {indexLines, indexRows, sliceLines, sliceRows, wrapToWidth} from '../source/format/wrap.js';

const segmenter = new Intl.Segmenter(undefined, {granularity: 'grapheme'});
const family = '👨\u200D👩\u200D👧\u200D👦';

function clusters(text: string): string[] {
	const out: string[] = [];
	const cursor = new ClusterCursor(text);
	while (cursor.next()) out.push(text.slice(cursor.start, cursor.end));
	return out;
}

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

test('every entry of the standalone table is a lone cluster with string-width’s width', () => {
	// A character may skip the segmenter only if no UAX #29 rule can join it to another such character.
	const risky =
		/\p{Extended_Pictographic}|\p{Grapheme_Extend}|\p{Default_Ignorable_Code_Point}|\p{Cc}|\p{Cf}|\p{Mc}|\p{Cn}|\p{Regional_Indicator}|\p{Zl}|\p{Zp}/u;
	const problems: string[] = [];
	let count = 0;
	for (let code = 0; code < 0x1_00_00; code++) {
		const width = standaloneWidth(code);
		if (width === 0) continue;
		count++;
		const char = String.fromCharCode(code);
		if (risky.test(char)) problems.push(`${code.toString(16)} class`);
		if (stringWidth(char) !== width) problems.push(`${code.toString(16)} width`);
		if ([...segmenter.segment(`${char}${char}a${char}`)].length !== 4) problems.push(`${code.toString(16)} joins`);
	}

	assert.deepEqual(problems, []);
	assert.ok(count > 40_000);
});

// Characters that exercise every grapheme rule: marks, ZWJ sequences, modifiers, flags,
// Hangul jamo, Indic conjuncts, prepend, CR LF, variation selectors, plus table characters.
const alphabet = [
	'a', 'é', 'e', '\u0301', '\u0308', '\u200D', '\u200C', '👨', '👩', '❤', '\uFE0F', '\uFE0E', '🏽', '🇯', '🇵', '🇺',
	'\u1100', '\u1161', '\u11A8', '가', '각', 'क', '्', 'ष', 'ि', '\u0600', '\u0903', '\r', '\n', '漢', 'ｶ', 'ﾞ',
	' ', '\u00AD', '©', '‼', '␛', '⟨', '\uD800', '\uDC00', '\u0000', '\u3099', '\u302A', '~',
];
const mixed = fc.array(fc.constantFrom(...alphabet), {maxLength: 40}).map((chars) => chars.join(''));

test('property: cluster boundaries equal Intl.Segmenter and widths equal string-width', () => {
	fc.assert(
		fc.property(mixed, (text) => {
			const ours = clusters(text);
			const theirs = [...segmenter.segment(text)].map((segment) => segment.segment);
			assert.deepEqual(ours, theirs);
			assert.equal(cellWidth(text), stringWidth(text));
		}),
		{numRuns: 500},
	);
});

test('property: clusters are found the same across window edges (long runs of marks and emoji)', () => {
	const piece = fc.constantFrom('e\u0301', family, '🇯🇵', 'x', '漢', 'क्षि', '\u0301'.repeat(50));
	fc.assert(
		fc.property(fc.array(piece, {minLength: 50, maxLength: 200}), (pieces) => {
			const text = pieces.join('');
			assert.deepEqual(clusters(text), [...segmenter.segment(text)].map((segment) => segment.segment));
		}),
		{numRuns: 40},
	);
	const zalgo = `a${'\u0301'.repeat(5000)}b`;
	assert.deepEqual(clusters(zalgo), [`a${'\u0301'.repeat(5000)}`, 'b']);
});

test('cellWidth matches what Ink measures', () => {
	assert.equal(cellWidth(''), 0);
	assert.equal(cellWidth('abc'), 3);
	assert.equal(cellWidth('漢字'), 4);
	assert.equal(cellWidth('e\u0301'), 1);
	assert.equal(cellWidth(family), 2);
	assert.equal(cellWidth('❤\uFE0F'), 2);
	assert.equal(cellWidth('①'), 1);
	assert.equal(cellWidth('␛]52;c;x␇ ⟨U+202E⟩ ⏎ ␍'), stringWidth('␛]52;c;x␇ ⟨U+202E⟩ ⏎ ␍'));
});

test('truncateToWidth: never splits a pair, cluster or wide character', () => {
	const cases: Array<[text: string, width: number, expected: string, ellipsis?: string]> = [
		['hello world', 5, 'hell…'],
		['hello', 5, 'hello'],
		['hello', 0, ''],
		['hello', 1, '…'],
		['漢字漢字', 3, '漢…'],
		['漢字漢字', 2, '…'],
		['漢字', 1, '…'],
		[`ab${family}cd`, 4, 'ab…'],
		['a\uD83D\uDE00b', 2, 'a…'],
		['abcdef', 4, 'a...', '...'],
		// An ellipsis that does not fit is left out rather than overflowing.
		['abcdef', 2, 'ab', '...'],
		['漢字', 3, '漢', ''],
	];
	for (const [text, width, expected, ellipsis] of cases) assert.equal(truncateToWidth(text, width, ellipsis), expected, `${text} at ${width}`);
});

test('truncating a 5 MB line reads only the start of it', (t) => {
	const huge = `${'漢'.repeat(100)}${'x'.repeat(5 * 1024 * 1024)}`;
	const started = performance.now();
	for (let index = 0; index < 1000; index++) truncateToWidth(huge, 80);
	t.diagnostic(`1000 truncations of a 5 MB line: ${(performance.now() - started).toFixed(0)} ms`);
	assert.equal(truncateToWidth(huge, 80), `${'漢'.repeat(39)}…`);
	assert.equal(truncateSpan(`ab\n${huge}`, 3, 13, 6), '漢漢…');
});

test('property: truncation fits, keeps a prefix, never leaves a lone surrogate', () => {
	fc.assert(
		fc.property(fc.oneof(mixed, fc.string({unit: 'binary'})), fc.integer({min: 0, max: 20}), (raw, width) => {
			const text = sanitizeLine(raw);
			const out = truncateToWidth(text, width);
			assert.ok(stringWidth(out) <= width);
			assert.ok(!loneSurrogate.test(out));
			if (out !== text) assert.ok(text.startsWith(out.endsWith('…') ? out.slice(0, -1) : out));
			const padded = padToWidth(text, width);
			assert.equal(stringWidth(padded), width);
			assert.equal(stringWidth(padStartToWidth(text, width)), width);
		}),
	);
});

test('padToWidth pads, truncates, and fills the cell a wide character left', () => {
	assert.equal(padToWidth('ab', 4), 'ab  ');
	assert.equal(padToWidth('abcdef', 4), 'abc…');
	assert.equal(padToWidth('漢字漢', 4), '漢… ');
	assert.equal(padStartToWidth('42', 5), '   42');
	assert.equal(padToWidth('x', 0), '');
});

test('wrapToWidth hard-wraps at exact widths', () => {
	assert.deepEqual(wrapToWidth('abcdefgh', 3), ['abc', 'def', 'gh']);
	assert.deepEqual(wrapToWidth('ab\n\ncd\n', 5), ['ab', '', 'cd']);
	assert.deepEqual(wrapToWidth('', 5), []);
	assert.deepEqual(wrapToWidth('\n', 5), ['']);
	assert.deepEqual(wrapToWidth('abc\n', 3), ['abc']);
	assert.deepEqual(wrapToWidth('漢字漢字漢', 3), ['漢', '字', '漢', '字', '漢']);
	assert.deepEqual(wrapToWidth(`a${family}${family}`, 3), [`a${family}`, family]);
	// A cluster wider than the whole row cannot be shown: a marker takes its place.
	assert.deepEqual(wrapToWidth('a漢b', 1), ['a', '…', 'b']);
	assert.deepEqual(wrapToWidth('abc', 0), []);
});

test('wrapToWidth with maxLines marks the cut', () => {
	assert.deepEqual(wrapToWidth('abcdefghij', 3, 2), ['abc', 'de…']);
	assert.deepEqual(wrapToWidth('abcdef', 3, 2), ['abc', 'def']);
	assert.deepEqual(wrapToWidth('a\nb\nc', 3, 2), ['a', 'b…']);
	assert.deepEqual(wrapToWidth('漢字漢字', 2, 1), ['…']);
});

test('wrapToWidth in words mode breaks after spaces', () => {
	const words = {words: true};
	assert.deepEqual(wrapToWidth('hello world foo bar', 7, undefined, words), ['hello ', 'world ', 'foo bar']);
	assert.deepEqual(wrapToWidth('hello world', 5, undefined, words), ['hello', 'world']);
	assert.deepEqual(wrapToWidth('a verylongword', 5, undefined, words), ['a ', 'veryl', 'ongwo', 'rd']);
	assert.deepEqual(wrapToWidth('hello ', 5, undefined, words), ['hello']);
	assert.deepEqual(wrapToWidth('漢字 漢字', 4, undefined, words), ['漢字', '漢字']);
});

test('property: hard wrapping loses nothing and every row fits', () => {
	// Clusters no wider than 2 cells, so every one fits a row of 2 or more.
	const narrow = fc.array(fc.constantFrom('a', ' ', '漢', 'e\u0301', family, '🇯🇵', '\n', '␛', 'क्षि'), {maxLength: 60}).map((chars) => chars.join(''));
	fc.assert(
		fc.property(narrow, fc.integer({min: 2, max: 12}), (text, width) => {
			const rows = wrapToWidth(text, width);
			for (const row of rows) assert.ok(stringWidth(row) <= width);
			const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text === '' ? [] : text.split('\n');
			// Re-joining the rows of each line gives the line back (rows never end inside a line unless full).
			let row = 0;
			for (const line of lines) {
				let rebuilt = rows[row++] ?? '';
				while (rebuilt.length < line.length) rebuilt += rows[row++] ?? '';
				assert.equal(rebuilt, line);
			}

			assert.equal(row, rows.length);
		}),
	);
});

test('property: indexRows + sliceRows and sliceLines agree with the direct functions', () => {
	const text = fc.array(fc.constantFrom('ab', 'c ', '漢', '\n', family, 'e\u0301', '  '), {maxLength: 60}).map((parts) => parts.join(''));
	fc.assert(
		fc.property(text, fc.integer({min: 1, max: 10}), fc.boolean(), fc.nat(20), fc.nat(8), (input, width, words, start, count) => {
			const all = wrapToWidth(input, width, undefined, {words});
			const index = indexRows(input, width, {words});
			assert.equal(index.count, all.length);
			assert.deepEqual(sliceRows(index, start, count), all.slice(start, start + count));
			const lines = input.endsWith('\n') ? input.slice(0, -1).split('\n') : input === '' ? [] : input.split('\n');
			const expected = lines.slice(start, start + count).map((line) => truncateToWidth(line, width));
			assert.deepEqual(sliceLines(input, start, count, width), expected);
			assert.deepEqual(sliceLines(input, start, count, width, indexLines(input)), expected);
			assert.equal(indexLines(input).length, lines.length);
		}),
	);
});

test('property: rows of sanitized binary text fit (words and hard mode)', () => {
	fc.assert(
		fc.property(fc.string({unit: 'binary', maxLength: 100}), fc.integer({min: 1, max: 20}), (raw, width) => {
			const text = sanitizeText(raw);
			for (const words of [false, true]) {
				for (const row of wrapToWidth(text, width, undefined, {words})) assert.ok(stringWidth(row) <= width);
			}
		}),
	);
});

function fastest(run: () => void): number {
	let best = Number.POSITIVE_INFINITY;
	for (let attempt = 0; attempt < 3; attempt++) {
		const started = performance.now();
		run();
		best = Math.min(best, performance.now() - started);
	}

	return best;
}

test('wrapping a 1 MB single word is linear (ASCII, CJK, emoji)', (t) => {
	const makers: Array<[string, (length: number) => string]> = [
		['ASCII', (length) => 'x'.repeat(length)],
		['CJK', (length) => '漢字'.repeat(length / 2)],
		['mixed clusters', (length) => `e\u0301${family}ab🇯🇵`.repeat(Math.ceil(length / 16))],
	];
	for (const [name, make] of makers) {
		const small = make(256 * 1024);
		const large = make(1024 * 1024);
		const smallMs = fastest(() => wrapToWidth(small, 80));
		const largeMs = fastest(() => wrapToWidth(large, 80));
		t.diagnostic(`wrap ${name}: 256 K chars ${smallMs.toFixed(0)} ms, 1 M chars ${largeMs.toFixed(0)} ms`);
		// Linear is about 4x; the quadratic segmenter path was 16x and more, whole seconds at 1 M.
		// The floor is for a loaded machine: 51 ms against 3 ms once failed a 50 ms floor.
		assert.ok(largeMs < Math.max(12 * smallMs, 400), `${name}: ${largeMs.toFixed(0)} ms vs ${smallMs.toFixed(0)} ms`);
		for (const row of wrapToWidth(large, 80).slice(0, 50)) assert.ok(stringWidth(row) <= 80);
	}
});

test('a 5 MB one-line observation: indexed once, then any window is cheap', (t) => {
	const text = sanitizeText(`${'output 漢字 '.repeat(400_000)}\nlast line`);
	let started = performance.now();
	const index = indexRows(text, 80);
	t.diagnostic(`indexRows over ${(text.length / 1024 / 1024).toFixed(1)} M chars: ${(performance.now() - started).toFixed(0)} ms, ${index.count} rows`);
	started = performance.now();
	let rows: string[] = [];
	for (let page = 0; page < 1000; page++) rows = sliceRows(index, (page * 997) % index.count, 40);
	t.diagnostic(`1000 windows of 40 rows: ${(performance.now() - started).toFixed(0)} ms`);
	assert.equal(rows.length, 40);
	assert.deepEqual(sliceRows(index, index.count - 1, 5), ['last line']);
	for (const row of sliceRows(index, 12_345, 40)) assert.ok(stringWidth(row) <= 80);
	const lines = indexLines(text);
	assert.equal(lines.length, 2);
	assert.deepEqual(sliceLines(text, 0, 2, 20, lines), ['output 漢字 output …', 'last line']);
});

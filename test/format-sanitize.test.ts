import {test} from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import stringWidth from 'string-width';
import {sanitizeLine, sanitizeText} from '../source/format/sanitize.js';
import {truncateToWidth} from '../source/format/width.js';
import {wrapToWidth} from '../source/format/wrap.js';

/**
 * docs/security-checklist.md checklist items 1–13, as far as they concern text: hostile sequences
 * are shown, never passed to the terminal and never deleted.
 */

const ESC = '\u001B';
const BEL = '\u0007';
const ST = `${ESC}\\`;

/** C0 except line feed, DEL, C1, the bidi controls and lone surrogates: nothing of this may reach Ink. */
const forbiddenInText = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const forbiddenInLine = new RegExp(`${forbiddenInText.source}|\\n`);

function assertClean(output: string, oneLine = false) {
	const found = (oneLine ? forbiddenInLine : forbiddenInText).exec(output);
	assert.equal(found, null, `control U+${found?.[0].charCodeAt(0).toString(16)} survived in ${JSON.stringify(output)}`);
}

function both(input: string, expected: string) {
	assert.equal(sanitizeText(input), expected);
	assert.equal(sanitizeLine(input), expected.replaceAll('\n', '⏎'));
}

test('1. OSC 52 clipboard write is shown escaped, not emitted', () => {
	both(`copy ${ESC}]52;c;aGk=${BEL} done`, 'copy ␛]52;c;aGk=␇ done');
	both(`${ESC}]52;p;Y3VybCBldmlsLnNoIHwgc2g=${ST}`, '␛]52;p;Y3VybCBldmlsLnNoIHwgc2g=␛\\');
});

test('2. OSC 0 and OSC 2 title changes are shown', () => {
	both(`${ESC}]0;you have been pwned${BEL}`, '␛]0;you have been pwned␇');
	both(`${ESC}]2;title${ST}rest`, '␛]2;title␛\\rest');
});

test('3. OSC 8 hyperlink: both the label and the real URL are visible', () => {
	const link = `${ESC}]8;;https://evil.example/x${ST}https://github.com/openhands${ESC}]8;;${ST}`;
	const shown = sanitizeLine(link);
	assert.equal(shown, '␛]8;;https://evil.example/x␛\\https://github.com/openhands␛]8;;␛\\');
	assert.ok(shown.includes('https://evil.example/x') && shown.includes('https://github.com/openhands'));
});

test('4. C1 controls: 8-bit CSI and OSC … ST are escaped', () => {
	both('\u009B2J', '⟨U+009B⟩2J');
	both('\u009D0;title\u009C after', '⟨U+009D⟩0;title⟨U+009C⟩ after');
	both('a\u0085b\u0090q\u009Cc', 'a⟨U+0085⟩b⟨U+0090⟩q⟨U+009C⟩c');
	assertClean(sanitizeText('\u0080\u0081\u009F'));
});

test('5. screen-clearing, cursor-moving and mode-switching sequences are shown', () => {
	both(`${ESC}[2J${ESC}[5A${ESC}[?1049h${ESC}c`, '␛[2J␛[5A␛[?1049h␛c');
	both(`${ESC}[38;5;196mred${ESC}[0m`, '␛[38;5;196mred␛[0m');
	both(`${ESC}(B${ESC}7${ESC}#8`, '␛(B␛7␛#8');
});

test('6. unterminated ESC ] hides nothing: the rest and the next line stay visible', () => {
	const input = `${ESC}]52;c;${'x'.repeat(1000)} the rest of the line\nnext event`;
	const shown = sanitizeText(input);
	assert.ok(shown.startsWith('␛]52;c;xxx'));
	assert.ok(shown.endsWith(' the rest of the line\nnext event'));
	both(`${ESC}]`, '␛]');
	both(ESC, '␛');
	both(`${ESC}[`, '␛[');
	both(`${ESC}[12;`, '␛[12;');
	both(`${ESC}P`, '␛P');
});

test('7. DCS (DECRQSS), APC and tmux passthrough are shown', () => {
	both(`${ESC}P$qm${ST}`, '␛P$qm␛\\');
	both(`${ESC}_hidden payload${ST}`, '␛_hidden payload␛\\');
	both(`${ESC}Ptmux;${ESC}${ESC}]52;c;aGk=${BEL}${ST}`, '␛Ptmux;␛␛]52;c;aGk=␇␛\\');
	both(`${ESC}Xsos${ST}${ESC}^pm${ST}`, '␛Xsos␛\\␛^pm␛\\');
});

test('8. terminal queries (OSC 11 ?, DSR 6n) cannot reach the terminal, so no reply reaches the keymap', () => {
	both(`${ESC}]11;?${BEL}`, '␛]11;?␇');
	both(`${ESC}[6n`, '␛[6n');
	both(`${ESC}[c${ESC}[>c`, '␛[c␛[>c');
	assertClean(sanitizeText(`${ESC}]11;?${ST}${ESC}[6n`));
});

test('9. carriage return: both halves visible; CRLF is a line break', () => {
	both('safe\rEVIL', 'safe␍EVIL');
	both('a\r\nb', 'a\nb');
	both('a\r\r\nb', 'a␍\nb');
	both('\r', '␍');
});

test('10. NUL, BS, BEL, VT, FF, DEL in caret notation (no bell)', () => {
	both('a\u0000b\u0008c\u0007d\u000Be\u000Cf\u007Fg', 'a^@b^Hc^Gd^Ke^Lf^?g');
	both('\u0001\u001A\u001C\u001F', '^A^Z^\\^_');
});

test('11. bidi controls show as markers and keep logical order', () => {
	both('src/\u202Eexe.txt', 'src/⟨U+202E⟩exe.txt');
	both('\u2066a\u2069\u200E\u200F\u061C', '⟨U+2066⟩a⟨U+2069⟩⟨U+200E⟩⟨U+200F⟩⟨U+061C⟩');
});

test('12. tabs expand to 8-cell stops counted in cells', () => {
	both('a\tb', `a${' '.repeat(7)}b`);
	both('abcdefgh\tx', `abcdefgh${' '.repeat(8)}x`);
	both('\t\tx', `${' '.repeat(16)}x`);
	both('漢\tx', `漢${' '.repeat(6)}x`);
	both('👍\tx', `👍${' '.repeat(6)}x`);
	assert.equal(sanitizeText('ab\nc\td'), `ab\nc${' '.repeat(7)}d`);
	// In one-line mode the line goes on after the ⏎ marker, so the stop is counted from the start.
	assert.equal(sanitizeLine('ab\nc\td'), `ab⏎c${' '.repeat(4)}d`);
	// A tab inside a string command is part of what the terminal would consume: shown, not expanded.
	both(`${ESC}]0;a\tb${BEL}\tc`, `␛]0;a^Ib␇${' '.repeat(7)}c`);
});

test('13. CJK, emoji, ZWJ and combining marks truncate to width without splitting', () => {
	const family = '👨\u200D👩\u200D👧\u200D👦';
	const cases: Array<[string, number, string]> = [
		['漢字漢字漢字', 5, '漢字…'],
		['漢字漢字漢字', 4, '漢…'],
		[`${family}${family}abc`, 5, `${family}${family}…`],
		[`${family}${family}abc`, 4, `${family}…`],
		['e\u0301e\u0301e\u0301e\u0301', 3, 'e\u0301e\u0301…'],
		['🇯🇵🇺🇸🇫🇷', 5, '🇯🇵🇺🇸…'],
		['👍🏽👍🏽👍🏽', 3, '👍🏽…'],
	];
	for (const [input, width, expected] of cases) {
		const out = truncateToWidth(sanitizeLine(input), width);
		assert.equal(out, expected, `${input} at ${width}`);
		assert.ok(stringWidth(out) <= width);
	}
});

test('lone surrogates become U+FFFD; valid pairs stay', () => {
	both('a\uD800b\uDC00c\uD83D\uDE00', 'a\uFFFDb\uFFFDc😀');
	both('\uDBFF', '\uFFFD');
});

test('odd corners of the parser', () => {
	// A control inside a CSI ends it (terminals execute it): shown in place.
	both(`${ESC}[3\n1m`, '␛[3\n1m');
	// CAN and SUB abort a string command in terminals.
	both(`${ESC}]0;ti\u0018tle`, '␛]0;ti^Xtle');
	// ESC inside a string command starts a new sequence.
	both(`${ESC}]0;a${ESC}[2Jb`, '␛]0;a␛[2Jb');
	both(`${ESC}${ESC}${ESC}`, '␛␛␛');
	both(`${ESC}é`, '␛é');
	// Printable text passes untouched, including characters that look like our markers.
	both('plain ␛ ^G ⟨U+202E⟩ text', 'plain ␛ ^G ⟨U+202E⟩ text');
});

test('JSON-escaped sequences are not decoded (arguments are parsed first, then sanitized)', () => {
	both(String.raw`"\u001b]52;c;x\u0007"`, String.raw`"\u001b]52;c;x\u0007"`);
});

// Property tests.

const pieces = [
	ESC,
	`${ESC}[`,
	`${ESC}]`,
	`${ESC}P`,
	`${ESC}_`,
	`${ESC}]52;c;`,
	`${ESC}]8;;`,
	ST,
	BEL,
	'\u009B',
	'\u009C',
	'\u009D',
	'\u0090',
	'\u0085',
	'\r',
	'\n',
	'\r\n',
	'\t',
	'\u0000',
	'\u007F',
	'\u0018',
	'\u202E',
	'\u2066',
	'\uD800',
	'\uDC00',
	'漢',
	'👨\u200D👩\u200D👧',
	'e\u0301',
	'\u0301',
	'🇯',
	'🇯🇵',
	'\u1100\u1161',
	'क्ष',
	'\uFE0F',
	'␛',
	'⏎',
	'^',
];

/** Text built from hostile sequences, controls, clusters and plain strings. */
const hostile = fc.array(fc.oneof(fc.constantFrom(...pieces), fc.string({maxLength: 8}), fc.string({unit: 'binary', maxLength: 4})), {maxLength: 30}).map((parts) => parts.join(''));
const binary = fc.string({unit: 'binary', maxLength: 80});
const json = fc.jsonValue({maxDepth: 3}).map((value) => JSON.stringify(value) ?? '');
const jsonBinary = fc.jsonValue({maxDepth: 3, stringUnit: 'binary'}).map((value) => JSON.stringify(value) ?? '');
const jsonDecodedStrings = fc.jsonValue({maxDepth: 3, stringUnit: 'binary'}).map((value) => collectStrings(value).join('\n'));

function collectStrings(value: unknown): string[] {
	if (typeof value === 'string') return [value];
	if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => [key, ...collectStrings(item)]);
	return [];
}

const sources: Array<[string, fc.Arbitrary<string>]> = [
	['binary strings', binary],
	['JSON text', json],
	['JSON text with binary strings', jsonBinary],
	['decoded JSON strings', jsonDecodedStrings],
	['escape-sequence mixes', hostile],
];

for (const [name, arbitrary] of sources) {
	test(`property (${name}): no control survives, and sanitizing is idempotent`, () => {
		fc.assert(
			fc.property(arbitrary, (input) => {
				const text = sanitizeText(input);
				const line = sanitizeLine(input);
				assertClean(text);
				assertClean(line, true);
				assert.equal(sanitizeText(text), text);
				assert.equal(sanitizeLine(line), line);
			}),
		);
	});

	test(`property (${name}): wrapped and truncated rows fit their width as Ink measures it`, () => {
		fc.assert(
			fc.property(arbitrary, fc.integer({min: 1, max: 30}), (input, width) => {
				for (const row of wrapToWidth(sanitizeText(input), width)) assert.ok(stringWidth(row) <= width, `${JSON.stringify(row)} > ${width}`);
				for (const row of wrapToWidth(sanitizeText(input), width, undefined, {words: true})) assert.ok(stringWidth(row) <= width);
				const cut = truncateToWidth(sanitizeLine(input), width);
				assert.ok(stringWidth(cut) <= width, `${JSON.stringify(cut)} > ${width}`);
				assertClean(cut, true);
			}),
		);
	});
}

test('property: nothing is deleted (plain words around controls all survive, in order)', () => {
	const word = fc.stringMatching(/^[a-z]{1,6}$/);
	fc.assert(
		fc.property(fc.array(fc.tuple(fc.constantFrom(...pieces.filter((piece) => !/[a-z]/.test(piece))), word), {maxLength: 12}), (pairs) => {
			const input = pairs.map(([piece, text]) => piece + text).join('');
			const shown = sanitizeText(input);
			let from = 0;
			for (const [, text] of pairs) {
				const at = shown.indexOf(text, from);
				assert.ok(at >= 0, `${text} missing from ${JSON.stringify(shown)}`);
				from = at + text.length;
			}
		}),
	);
});

test('5 MB of mixed hostile text sanitizes in linear time', (t) => {
	const chunk = `line ${ESC}[31mred${ESC}[0m\ttab 漢字 👍🏽 ${ESC}]8;;http://x${ST}link${ESC}]8;;${ST} safe\rEVIL \u202E ${'z'.repeat(40)}\n`;
	const input = chunk.repeat(Math.ceil((5 * 1024 * 1024) / chunk.length));
	const plain = 'plain text of an observation, nothing hostile in it at all\n'.repeat(Math.ceil((5 * 1024 * 1024) / 60));
	const oneLine = `${ESC}]52;c;${'A'.repeat(5 * 1024 * 1024)}`;
	for (const [name, text] of [['mixed', input], ['plain', plain], ['one unterminated OSC', oneLine]] as const) {
		const started = performance.now();
		const output = sanitizeText(text);
		const ms = performance.now() - started;
		t.diagnostic(`sanitizeText ${name}: ${(text.length / 1024 / 1024).toFixed(1)} M chars in ${ms.toFixed(0)} ms`);
		assert.ok(output.length >= text.length - 1);
		if (name === 'one unterminated OSC') assert.ok(output.startsWith('␛]52;c;AAAA'));
	}

	const started = performance.now();
	sanitizeLine(input);
	t.diagnostic(`sanitizeLine mixed: ${(performance.now() - started).toFixed(0)} ms`);
});

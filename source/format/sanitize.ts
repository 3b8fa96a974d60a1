import {cellWidth} from './width.js';

/**
 * THE sanitizer: every string that came over the wire goes through `sanitizeText` (multi-line)
 * or `sanitizeLine` (one row) before it becomes display text. Ink 6.8 passes OSC (clipboard
 * writes, titles, hyperlinks), C0 controls and bidi overrides straight to the terminal
 * (docs/security-checklist.md §1), and string-width counts them as zero cells, so one hostile tool
 * output could rewrite the clipboard, spoof a link, move the cursor over other rows, or make the
 * terminal type a reply into our keymap. Nothing is deleted: hiding text is itself an attack
 * (an unterminated `ESC]` would swallow the rest), so every byte stays visible:
 *
 * - ESC is shown as `␛`; escape sequences are parsed (ECMA-48: CSI, OSC/DCS/SOS/PM/APC string
 *   commands, other ESC sequences) and shown as text, e.g. `␛]52;c;aGk=␇`, `␛[2J`, `␛c`. A BEL
 *   ending a string command is shown as `␇`, a C1 ST as `⟨U+009C⟩`.
 * - Other C0 controls and DEL use caret notation: NUL `^@`, BEL `^G`, BS `^H`, VT `^K`, DEL `^?`.
 * - C1 controls (U+0080–U+009F) have no caret form (`cat -v`'s `M-^[` is about bytes), so they are
 *   shown as code points, `⟨U+009B⟩`, the same way as the bidi controls below.
 * - `\r\n` becomes `\n`; a lone `\r` is shown as `␍` (so `safe\rEVIL` shows both halves).
 * - Tabs become spaces up to the next 8-cell stop, counted in terminal cells.
 * - Bidi controls U+202A–202E, U+2066–2069, U+200E/200F, U+061C (Trojan Source) are shown as
 *   `⟨U+202E⟩`; the text keeps its logical order.
 * - Lone surrogates become U+FFFD.
 * - `sanitizeLine` also shows line breaks as `⏎`.
 * The output holds no C0 (but `\n` in sanitizeText), DEL, C1, bidi control or lone surrogate, and
 * is its own fixed point: sanitizing it again changes nothing. One regex-driven pass, linear time.
 */

const ESC = 0x1b;
const BEL = 0x07;
const LF = 0x0a;
const CR = 0x0d;
const CAN = 0x18;
const SUB = 0x1a;
const C1_CSI = 0x9b;
const C1_ST = 0x9c;

export const escapeGlyph = '␛';
export const bellGlyph = '␇';
export const carriageReturnGlyph = '␍';
export const newlineGlyph = '⏎';

/**
 * Where the main pass stops: C0 but tab (expanded afterwards) and line feed, DEL, C1, the bidi
 * controls, and any surrogate (a pair is skipped whole, a lone one replaced). The one-line
 * variant stops at line feeds too. Plain text between stops is copied in slices, so ordinary
 * output costs one regex scan.
 */
const textStops = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]/g;
const lineStops = /[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]/g;

/** Bidi controls that reorder what is displayed without showing themselves. */
const bidiSource = String.raw`\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069`;
const loneSurrogateSource = String.raw`[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]`;
/** Inside an escape sequence, tabs are shown too (they are part of what the terminal would eat). */
const sequenceSpecial = new RegExp(String.raw`[\x00-\x1f\x7f-\x9f${bidiSource}]|${loneSurrogateSource}`, 'g');

export function sanitizeText(input: string): string {
	return expandTabs(escapeControls(input, textStops, false));
}

export function sanitizeLine(input: string): string {
	return expandTabs(escapeControls(input, lineStops, true));
}

/** `⟨U+202E⟩`: how code points without a glyph or caret form are shown. */
export function codePointMarker(code: number): string {
	return `⟨U+${code.toString(16).toUpperCase().padStart(4, '0')}⟩`;
}

/** Visible form of one special character outside an escape sequence (never ESC: see below). */
function visible(char: string): string {
	const code = char.charCodeAt(0);
	if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
	if (code === 0x7f) return '^?';
	if (code >= 0xd8_00 && code <= 0xdf_ff) return '\uFFFD';
	return codePointMarker(code); // C1 and bidi controls.
}

function isHighSurrogate(code: number): boolean {
	return code >= 0xd8_00 && code <= 0xdb_ff;
}

function isLowSurrogate(code: number): boolean {
	return code >= 0xdc_00 && code <= 0xdf_ff;
}

function escapeControls(input: string, stops: RegExp, oneLine: boolean): string {
	const parts: string[] = [];
	let last = 0;
	stops.lastIndex = 0;
	for (let match = stops.exec(input); match !== null; match = stops.exec(input)) {
		const index = match.index;
		const code = input.charCodeAt(index);
		let next = index + 1;
		if (isHighSurrogate(code) && isLowSurrogate(input.charCodeAt(next))) {
			stops.lastIndex = next + 1;
			continue;
		}

		// From here on the character is shown differently; a low surrogate reaching this point is
		// unpaired, because pairs are skipped whole above.
		if (index > last) parts.push(input.slice(last, index));
		if (code === ESC || isC1Introducer(code)) {
			next = sequenceEnd(input, index);
			parts.push(showSequence(input.slice(index, next)));
		} else if (code === CR) {
			if (input.charCodeAt(next) === LF) {
				parts.push(oneLine ? newlineGlyph : '\n');
				next++;
			} else {
				parts.push(carriageReturnGlyph);
			}
		} else if (code === LF) {
			parts.push(newlineGlyph); // Only reached in one-line mode.
		} else {
			parts.push(visible(match[0]));
		}

		last = next;
		stops.lastIndex = next;
	}

	if (last === 0) return input;
	if (last < input.length) parts.push(input.slice(last));
	return parts.join('');
}

/** C1 controls that open a sequence: CSI, and the string commands DCS, SOS, OSC, PM, APC. */
function isC1Introducer(code: number): boolean {
	return code === C1_CSI || code === 0x90 || code === 0x98 || code === 0x9d || code === 0x9e || code === 0x9f;
}

function isStringIntroducer(char: number): boolean {
	// After ESC: ] OSC, P DCS, X SOS, ^ PM, _ APC.
	return char === 0x5d || char === 0x50 || char === 0x58 || char === 0x5e || char === 0x5f;
}

/**
 * End (exclusive) of the escape sequence starting at `start` (ESC or a C1 introducer). Where the
 * parse stops only decides grouping: everything after is still shown, so a sequence the
 * terminal would have kept consuming cannot hide text from us.
 */
function sequenceEnd(input: string, start: number): number {
	const first = input.charCodeAt(start);
	if (first === C1_CSI) return csiEnd(input, start + 1);
	if (first !== ESC) return stringEnd(input, start + 1);
	const second = input.charCodeAt(start + 1);
	if (second === 0x5b) return csiEnd(input, start + 2); // ESC [
	if (isStringIntroducer(second)) return stringEnd(input, start + 2);
	// Other sequences: intermediates 0x20–0x2F, then a final byte 0x30–0x7E (ESC c, ESC ( B, ESC 7).
	let index = start + 1;
	while (inRange(input.charCodeAt(index), 0x20, 0x2f)) index++;
	return inRange(input.charCodeAt(index), 0x30, 0x7e) ? index + 1 : index;
}

/** CSI: parameter bytes 0x30–0x3F, intermediate bytes 0x20–0x2F, final byte 0x40–0x7E. */
function csiEnd(input: string, index: number): number {
	while (inRange(input.charCodeAt(index), 0x30, 0x3f)) index++;
	while (inRange(input.charCodeAt(index), 0x20, 0x2f)) index++;
	return inRange(input.charCodeAt(index), 0x40, 0x7e) ? index + 1 : index;
}

/**
 * String command body: ends after BEL (xterm), ESC \ or C1 ST; ends before another ESC or C1
 * (terminals start a new sequence there), CAN/SUB (terminals abort the string) or a line break.
 * Terminals keep reading across line breaks, but nothing is hidden from us either way, and
 * stopping there keeps the rest of a multi-line output readable and tab-expanded.
 */
function stringEnd(input: string, index: number): number {
	for (; index < input.length; index++) {
		const code = input.charCodeAt(index);
		if (code === BEL || code === C1_ST) return index + 1;
		if (code === ESC) return input.charCodeAt(index + 1) === 0x5c ? index + 2 : index;
		if (code === CAN || code === SUB || code === LF || code === CR || inRange(code, 0x80, 0x9f)) return index;
	}

	return index;
}

/**
 * The visible form of one sequence: `␛` (or the C1 introducer's marker), the body with any
 * control in it made visible, and the terminator as `␇`, `␛\\` or `⟨U+009C⟩`. By construction of
 * the parse, a body holds no ESC, BEL, C1, CR or LF, so only the rare tab or other C0 in a string
 * command needs the slower replace.
 */
function showSequence(sequence: string): string {
	const first = sequence.charCodeAt(0);
	const head = first === ESC ? escapeGlyph : codePointMarker(first);
	let end = sequence.length;
	let tail = '';
	const last = sequence.charCodeAt(end - 1);
	if (end > 1 && last === BEL) {
		tail = bellGlyph;
		end--;
	} else if (end > 2 && last === 0x5c && sequence.charCodeAt(end - 2) === ESC) {
		tail = `${escapeGlyph}\\`;
		end -= 2;
	} else if (end > 1 && last === C1_ST) {
		tail = codePointMarker(C1_ST);
		end--;
	}

	let body = sequence.slice(1, end);
	sequenceSpecial.lastIndex = 0;
	if (sequenceSpecial.test(body)) body = body.replace(sequenceSpecial, visible);
	return head + body + tail;
}

function inRange(code: number, low: number, high: number): boolean {
	return code >= low && code <= high;
}

/**
 * Tabs to spaces at 8-cell stops. Only text on lines that hold a tab is measured, and each stretch
 * is measured once, so a 5 MB line with thousands of tabs stays linear.
 */
function expandTabs(text: string): string {
	let tab = text.indexOf('\t');
	if (tab === -1) return text;
	const parts: string[] = [];
	let flushed = 0; // text[0, flushed) is in parts
	let measured = 0; // column = cells of text[line start, measured)
	let column = 0;
	let nextNewline = text.indexOf('\n');
	while (tab !== -1) {
		if (nextNewline !== -1 && nextNewline < tab) {
			measured = text.lastIndexOf('\n', tab) + 1;
			column = 0;
			nextNewline = text.indexOf('\n', tab);
		}

		column += cellWidth(text.slice(measured, tab));
		const pad = 8 - (column % 8);
		parts.push(text.slice(flushed, tab), ' '.repeat(pad));
		column += pad;
		measured = tab + 1;
		flushed = measured;
		tab = text.indexOf('\t', flushed);
	}

	parts.push(text.slice(flushed));
	return parts.join('');
}

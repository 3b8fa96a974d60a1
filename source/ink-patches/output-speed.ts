import {ansiCodesToString, diffAnsiCodes, type StyledChar, styledCharsFromTokens, tokenize} from '@alcalzone/ansi-tokenize';
import sliceAnsi from 'slice-ansi';
import stringWidth from 'string-width';
import widestLine from 'widest-line';
import {standaloneWidth} from '../format/graphemes.js';
import {BoundedCache} from '../view/bounded-cache.js';
import {hasBalancedSgr} from '../view/sgr-balance.js';
import {sgrEnd, tableWidth} from './string-width-fast.js';
// Not in Ink's exports map: a relative path reaches the very module Ink's renderer imports (the
// same file, so the same class, in `npm start` and in the esbuild bundle alike).
import Output from '../../node_modules/ink/build/output.js';

/**
 * Ink's `Output.get()` (ink 6.8) turns the frame's text operations into lines. It starts from
 * fresh caches on every frame, so each frame re-tokenizes every line, measures every character
 * with string-width, allocates a cell object per screen cell and diffs styles with three Sets per
 * character: at 160x48 that is most of a key press's cost (bench: `frame` rows), whatever the
 * data. This is the same algorithm with caches that live across frames, one shared blank cell,
 * and a style diff that is skipped when two neighbours have the same styles. Its output is
 * byte-for-byte Ink's own (test/view-ink-output.test.ts compares them on random frames).
 */

type Clip = {x1: number | undefined; x2: number | undefined; y1: number | undefined; y2: number | undefined};
type Transformer = (line: string, index: number) => string;
type Operation = {type: 'write'; x: number; y: number; text: string; transformers: Transformer[]} | {type: 'clip'; clip: Clip} | {type: 'unclip'};
type OutputInternals = {width: number; height: number; operations: Operation[]};

// A 200x60 screen writes a few hundred lines a frame; these hold several screens' worth. A styled
// line is an object per character (~8 KB at 160 columns), so its cache is the one kept small.
const styledLines = new BoundedCache<StyledChar[]>(1500);
const widths = new BoundedCache<number>(20_000);
const slices = new BoundedCache<string>(1500);
const rowStrings = new BoundedCache<string>(1500);
/** Whether a line that fits its clip can be used as it is (see the clip below); a scan per line otherwise. */
const asIs = new BoundedCache<boolean>(20_000);

const widthOf = (text: string) => widths.get(text, stringWidth);

const blank: StyledChar = Object.freeze({type: 'char', value: ' ', fullWidth: false, styles: []}) as StyledChar;

function sameStyles(a: StyledChar['styles'], b: StyledChar['styles']): boolean {
	if (a === b) return true;
	if (a.length !== b.length) return false;
	for (let index = 0; index < a.length; index++) {
		if (a[index]!.code !== b[index]!.code || a[index]!.endCode !== b[index]!.endCode) return false;
	}
	return true;
}

/** `styledCharsToString` of ansi-tokenize, skipping the diff where styles do not change. */
function rowToString(row: ReadonlyArray<StyledChar | undefined>): string {
	let text = '';
	let previous: StyledChar | undefined;
	for (const char of row) {
		if (char === undefined) continue;
		if (previous === undefined) text += ansiCodesToString(char.styles);
		else if (!sameStyles(previous.styles, char.styles)) text += ansiCodesToString(diffAnsiCodes(previous.styles, char.styles));
		text += char.value;
		previous = char;
	}
	if (previous !== undefined) text += ansiCodesToString(diffAnsiCodes(previous.styles, []));
	return text;
}

type Token = ReturnType<typeof tokenize>[number];
const charTokens = new Map<number, Token>();
const sgrTokens = new Map<string, Token[]>();

/**
 * ansi-tokenize's `tokenize`, without its grapheme segmenter for the usual line: SGR colours
 * and characters from the standalone table (format/graphemes.ts), each of which is a grapheme on
 * its own, so its token depends on nothing around it. Those tokens are made by ansi-tokenize
 * itself, once per character and once per colour sequence, and reused; any other line goes to
 * `tokenize` whole. The first frame tokenized every line through the segmenter: about 30 ms.
 */
function tokenizeLine(text: string): Token[] {
	const tokens: Token[] = [];
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		if (code === 0x1b) {
			const end = sgrEnd(text, index);
			if (end === -1) return tokenize(text);
			const sequence = text.slice(index, end + 1);
			let sgr = sgrTokens.get(sequence);
			if (sgr === undefined) {
				sgr = tokenize(sequence);
				if (sgrTokens.size < 2000) sgrTokens.set(sequence, sgr);
			}
			for (const token of sgr) tokens.push(token);
			index = end;
			continue;
		}
		if (standaloneWidth(code) === 0) return tokenize(text);
		let token = charTokens.get(code);
		if (token === undefined) {
			token = tokenize(text[index]!)[0]!;
			if (charTokens.size < 20_000) charTokens.set(code, token);
		}
		tokens.push(token);
	}
	return tokens;
}

/** One line of text placed on a row, after clipping and transformers. */
type Segment = {x: number; line: string};

export function fastGet(this: OutputInternals): {output: string; height: number} {
	// Writes are collected per row first: a row's string depends only on its own writes, in
	// order, so a row written exactly as in an earlier frame is served from the cache without
	// building its cells (a key press changes two or three rows of a screen).
	const segments: Array<Segment[] | undefined> = new Array<Segment[] | undefined>(this.height);
	const clips: Clip[] = [];
	for (const operation of this.operations) {
		if (operation.type === 'clip') clips.push(operation.clip);
		if (operation.type === 'unclip') clips.pop();
		if (operation.type !== 'write') continue;
		const {text, transformers} = operation;
		let {x, y} = operation;
		let lines = text.split('\n');
		const clip = clips.at(-1);
		if (clip) {
			const clipHorizontally = typeof clip.x1 === 'number' && typeof clip.x2 === 'number';
			const clipVertically = typeof clip.y1 === 'number' && typeof clip.y2 === 'number';
			if (clipHorizontally && (x + widestLine(text) < clip.x1! || x > clip.x2!)) continue;
			if (clipVertically && (y + lines.length < clip.y1! || y > clip.y2!)) continue;
			if (clipHorizontally) {
				const x1 = clip.x1!;
				const x2 = clip.x2!;
				lines = lines.map((line) => {
					const width = widthOf(line);
					const from = x < x1 ? x1 - x : 0;
					const to = x + width > x2 ? x2 - x : width;
					// Most lines fit their clip: sliceAnsi would hand back the same characters and
					// styles, after tokenizing the line (the first frame paid ~30 ms for that). Only
					// for lines of table glyphs (sliceAnsi drops zero-width characters at the
					// edges) whose colour codes are chalk's balanced pairs (it drops stray codes,
					// such as a reset that a transformer's codes would then not see).
					if (from === 0 && to === width && asIs.get(line, () => tableWidth(line) === width && (!line.includes('\u001B') || hasBalancedSgr(line)))) return line;
					return slices.get(`${from}:${to}:${line}`, () => sliceAnsi(line, from, to));
				});
				if (x < x1) x = x1;
			}
			if (clipVertically) {
				const y1 = clip.y1!;
				const y2 = clip.y2!;
				const height = lines.length;
				lines = lines.slice(y < y1 ? y1 - y : 0, y + height > y2 ? y2 - y : height);
				if (y < y1) y = y1;
			}
		}
		let offsetY = 0;
		for (const [index, text] of lines.entries()) {
			let line = text;
			const rowIndex = y + offsetY;
			// As Ink: a line outside the screen is skipped without moving on to the next row.
			if (!(rowIndex >= 0 && rowIndex < this.height && Number.isInteger(rowIndex))) continue;
			for (const transformer of transformers) line = transformer(line, index);
			(segments[rowIndex] ??= []).push({x, line});
			offsetY++;
		}
	}
	const output: string[] = [];
	for (let y = 0; y < this.height; y++) {
		const written = segments[y];
		output.push(written ? rowFromSegments(written, this.width) : '');
	}
	return {output: output.join('\n'), height: this.height};
}

function rowFromSegments(written: Segment[], width: number): string {
	let key = String(width);
	for (const {x, line} of written) key += `\u0000${x}\u0000${line}`;
	return rowStrings.get(key, () => {
		const row: Array<StyledChar | undefined> = new Array<StyledChar>(width).fill(blank);
		for (const {x, line} of written) {
			let offsetX = x;
			for (const character of styledLines.get(line, (text) => styledCharsFromTokens(tokenizeLine(text)))) {
				row[offsetX] = character;
				const characterWidth = Math.max(1, widthOf(character.value));
				for (let cell = 1; cell < characterWidth; cell++) row[offsetX + cell] = {type: 'char', value: '', fullWidth: false, styles: character.styles};
				offsetX += characterWidth;
			}
		}
		return rowToString(row).trimEnd();
	});
}

/**
 * The first ANSI tokenization compiles its parser, and the first slice builds its segmenter: a
 * few tens of ms of the first frame's cost. Called while the first request is out, so the first
 * frame does not pay for it. No emoji in the sample: they would send string-width to its
 * `\p{RGI_Emoji}` expression (string-width-fast.ts), about 30 ms to compile, which only a frame
 * that shows an emoji needs.
 */
export function warmUpTextMeasures(): void {
	const sample = '\u001B[1m\u001B[36m◆ waiting\u001B[39m\u001B[22m │ … ▸ ✓ ✗ ‖ ∅ ◌ 漢字 é';
	stringWidth(sample);
	styledCharsFromTokens(tokenize(sample));
	sliceAnsi(sample, 0, 8);
}

/** Ink's own `get`, kept for the equivalence test. */
export const inkGet = Output.prototype.get;

/** Puts the cached `get` in place of Ink's (installInkPatches, index.ts). */
export function installFastOutput(): void {
	(Output.prototype as unknown as {get: typeof fastGet}).get = fastGet;
}

export {Output};

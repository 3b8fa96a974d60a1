import {type StyledChar, styledCharsFromTokens, styledCharsToString, tokenize} from '@alcalzone/ansi-tokenize';
import stringWidth from 'string-width';
import {type Clip, type Operation, type OutputInternals, replaceOutputGet} from '../boundary/ink-output.js';
import {ClusterCursor, standaloneWidth} from '../format/graphemes.js';
import {sgrEnd, tableWidth} from '../format/table-width.js';
import {BoundedCache} from './bounded-cache.js';

/**
 * Ink's `Output.get()` (ink 8.0.0, build/output.js) turns a frame's text operations into lines.
 * Its caches (widths, styled characters) are made new with every frame's Output, so each frame
 * re-tokenizes every line, measures every character with string-width and allocates a cell per
 * screen cell: at 160x48, without this, a key press cost about 17 ms (bench `frame` rows), nearly
 * all of it here. This is the same algorithm, step for step, with caches that live across frames
 * and a row cache: a row's string depends only on the writes that land on it, in order, so a row
 * written as in an earlier frame is not built again (a key press changes two or three rows). Its
 * output is byte-for-byte Ink's own (test/view-ink-output.test.ts compares them on random frames,
 * and test/boundary.test.ts fails when Ink's file changes). The reach into Ink (the class, what
 * an instance holds) is boundary/ink-output.ts; the algorithm and its caches are ours, here.
 */

type Cell = StyledChar;

// A 200x60 screen writes a few hundred lines a frame; these hold several screens' worth. A styled
// line is an object per character (~8 KB at 160 columns), so its caches are the ones kept small.
const styledLines = new BoundedCache<Cell[]>(3000);
const splitTexts = new BoundedCache<string[]>(1500);
const widths = new BoundedCache<number>(20_000);
const widestLines = new BoundedCache<number>(5000);
const slices = new BoundedCache<string>(1500);
const wholeSlices = new BoundedCache<string>(3000);
const rowStrings = new BoundedCache<string>(1500);

/** string-width's answer; the glyph table (format/table-width.ts) answers first when it can. */
const widthOf = (text: string) =>
	widths.get(text, () => {
		const fast = tableWidth(text);
		return fast === -1 ? stringWidth(text) : fast;
	});

const ignorable = /^\p{Default_Ignorable_Code_Point}+$/u;

/** Whether Ink drops the character (a standalone invisible one); the glyph table's never are. */
const isIgnorable = (value: string) => !(value.length === 1 && standaloneWidth(value.charCodeAt(0)) > 0) && ignorable.test(value);

/** Ink's `getStyledChars`: the line's styled characters, standalone invisible characters dropped. */
const styledCharsOf = (line: string) => styledLines.get(line, () => styledCharsFromTokens(tokenizeLine(line)).filter((character) => !isIgnorable(character.value)));

const blank: Cell = Object.freeze({type: 'char', value: ' ', fullWidth: false, styles: []}) as Cell;
const blankCell = (cell: Cell): Cell => ({...cell, value: ' ', fullWidth: false});

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

/** A text's lines, styles carried across its newlines (Ink's first step of a write). */
const linesOf = (text: string) =>
	splitTexts.get(text, () => {
		const characterLines: Cell[][] = [[]];
		for (const character of styledCharsOf(text)) {
			if (character.value === '\n') characterLines.push([]);
			else characterLines.at(-1)!.push(character);
		}
		return characterLines.map((line) => styledCharsToString(line));
	});

const widestLineOf = (text: string) =>
	widestLines.get(text, () => {
		let width = 0;
		for (const line of text.split('\n')) width = Math.max(width, widthOf(line));
		return width;
	});

/** Ink's `sliceLineToColumns`: the cells from `from` to `to`, a cut wide character kept as a styled space. */
function sliceLine(line: string, from: number, to: number): string {
	if (from >= to) return '';
	// The usual case, a line that fits its clip, keyed by the line alone (no key string to build).
	if (from === 0 && to === widthOf(line)) return wholeSlices.get(line, () => sliceCells(line, 0, to));
	return slices.get(`${from}:${to}:${line}`, () => sliceCells(line, from, to));
}

function sliceCells(line: string, from: number, to: number): string {
	const result: Cell[] = [];
	let column = 0;
	for (const character of styledCharsOf(line)) {
		const width = widthOf(character.value);
		const start = column;
		column += width;
		if (column <= from) continue;
		if (start >= to) break;
		result.push(width > 1 && (start < from || column > to) ? blankCell(character) : character);
	}
	return styledCharsToString(result);
}

function intersectBound(a: number | undefined, b: number | undefined, tighter: (a: number, b: number) => number): number | undefined {
	if (a === undefined) return b;
	return b === undefined ? a : tighter(a, b);
}

function intersectClips(outer: Clip | undefined, inner: Clip): Clip {
	if (!outer) return inner;
	return {
		x1: intersectBound(outer.x1, inner.x1, Math.max),
		x2: intersectBound(outer.x2, inner.x2, Math.min),
		y1: intersectBound(outer.y1, inner.y1, Math.max),
		y2: intersectBound(outer.y2, inner.y2, Math.min),
	};
}

const isClipEmpty = (clip: Clip) => (clip.x1 !== undefined && clip.x2 !== undefined && clip.x1 >= clip.x2) || (clip.y1 !== undefined && clip.y2 !== undefined && clip.y1 >= clip.y2);

/** One line of text placed on a row, after clipping and transformers. */
type Segment = {x: number; line: string};

export function fastGet(this: OutputInternals): {output: string; height: number} {
	const segments: Array<Segment[] | undefined> = new Array<Segment[] | undefined>(this.height);
	const clips: Clip[] = [];
	for (const operation of this.operations) {
		if (operation.type === 'clip') clips.push(intersectClips(clips.at(-1), operation.clip));
		else if (operation.type === 'unclip') clips.pop();
		else placeWrite(operation, clips.at(-1), segments, this.height);
	}
	const output: string[] = [];
	for (let y = 0; y < this.height; y++) {
		const written = segments[y];
		if (!written) {
			output.push('');
			continue;
		}
		// A row written exactly as in a recent frame (most rows of a key press) is taken as it
		// was, compared write by write, without building the cache's key.
		const recent = (recentRows[y] ??= []);
		const same = recentRow(recent, this.width, written);
		if (same !== undefined) {
			output.push(same);
			continue;
		}
		const text = rowFromSegments(written, this.width);
		recent.unshift({width: this.width, segments: written, text});
		if (recent.length > recentFrames) recent.pop();
		output.push(text);
	}
	return {output: output.join('\n'), height: this.height};
}

type RowMemo = {width: number; segments: Segment[]; text: string};
/** Per row index, what it was made from and became in the last few frames (a few apps render at once in tests and the bench). */
const recentRows: RowMemo[][] = [];
const recentFrames = 4;

function recentRow(recent: readonly RowMemo[], width: number, written: readonly Segment[]): string | undefined {
	for (const memo of recent) if (memo.width === width && sameSegments(memo.segments, written)) return memo.text;
	return undefined;
}

function sameSegments(a: readonly Segment[], b: readonly Segment[]): boolean {
	if (a.length !== b.length) return false;
	for (let index = 0; index < a.length; index++) {
		if (a[index]!.x !== b[index]!.x || a[index]!.line !== b[index]!.line) return false;
	}
	return true;
}

/**
 * Ink's `applyWriteOperation` up to the cells: which line lands on which row, at which column.
 * Ink clips with `lines.map` and `lines.slice`; here each kept line is clipped as it is placed,
 * so a frame allocates no arrays per write (a write is a row or a few: a frame makes hundreds).
 */
function placeWrite(operation: Extract<Operation, {type: 'write'}>, clip: Clip | undefined, segments: Array<Segment[] | undefined>, height: number): void {
	const {text, transformers, x: writtenX, y: writtenY} = operation;
	const lines = linesOf(text);
	let x = writtenX;
	let y = writtenY;
	// The lines kept (Ink's vertical slice) and the columns kept of each (its horizontal one).
	let first = 0;
	let end = lines.length;
	let x1 = 0;
	let x2 = 0;
	let clipHorizontally = false;
	if (clip) {
		if (isClipEmpty(clip)) return;
		clipHorizontally = typeof clip.x1 === 'number' && typeof clip.x2 === 'number';
		const clipVertically = typeof clip.y1 === 'number' && typeof clip.y2 === 'number';
		if (clipHorizontally && (x + widestLineOf(text) < clip.x1! || x > clip.x2!)) return;
		if (clipVertically && (y + lines.length < clip.y1! || y > clip.y2!)) return;
		if (clipHorizontally) {
			x1 = clip.x1!;
			x2 = clip.x2!;
			if (x < x1) x = x1;
		}
		if (clipVertically) {
			const y1 = clip.y1!;
			const y2 = clip.y2!;
			first = y < y1 ? y1 - y : 0;
			end = y + lines.length > y2 ? y2 - y : lines.length;
			if (y < y1) y = y1;
		}
	}
	for (let index = first; index < end; index++) {
		// `index - first` is the line's place among those kept, as Ink counts after its slice.
		const row = y + index - first;
		// As Ink: a line with no row of the output (above, below, between) is skipped.
		if (!(Number.isInteger(row) && row >= 0 && row < height)) continue;
		let line = lines[index]!;
		if (clipHorizontally) {
			const width = widthOf(line);
			line = sliceLine(line, writtenX < x1 ? x1 - writtenX : 0, writtenX + width > x2 ? x2 - writtenX : width);
		}
		// Ink passes `index + y - operation.y` of its sliced lines: the line's index in the write.
		for (const transformer of transformers) line = transformer(line, index);
		(segments[row] ??= []).push({x, line});
	}
}

/** Ink's cell writes for one row, then its `styledCharsToString(...).trimEnd()`. */
function rowFromSegments(written: Segment[], width: number): string {
	let key = String(width);
	for (const {x, line} of written) key += `\u0000${x}\u0000${line}`;
	return rowStrings.get(key, () => {
		const row: Array<Cell | undefined> = [];
		for (let x = 0; x < width; x++) row.push(blank);
		for (const {x, line} of written) {
			const characters = styledCharsOf(line);
			if (characters.length === 0) continue;
			let offsetX = x;
			// A write landing on the second half of a wide character blanks its first half.
			if (row[offsetX]?.value === '' && offsetX > 0 && widthOf(row[offsetX - 1]?.value ?? '') > 1) row[offsetX - 1] = blankCell(row[offsetX - 1]!);
			for (const character of characters) {
				row[offsetX] = character;
				const characterWidth = Math.max(1, widthOf(character.value));
				for (let offset = 1; offset < characterWidth; offset++) {
					row[offsetX + offset] = {type: 'char', value: offsetX < 0 ? ' ' : '', fullWidth: false, styles: character.styles};
				}
				offsetX += characterWidth;
			}
			if (row[offsetX]?.value === '') row[offsetX] = blankCell(row[offsetX]!);
		}
		return styledCharsToString(row.filter((cell): cell is Cell => cell !== undefined)).trimEnd();
	});
}

/**
 * The first frame's text work compiles cold: the line builder's tokens for colour codes and
 * glyphs, and the measure of each. Called while the first request is out, so the first frame
 * does not pay for it. Nothing here makes a grapheme segmenter (the glyphs are measured from a
 * table and tokenized one at a time): the first Intl object sets up ICU (20-40 ms), which the
 * first frame does not need (warmUpGraphemes, after it). No emoji in the sample: they would send
 * string-width to its `\p{RGI_Emoji}` expression, about 30 ms to compile, which only a frame
 * that shows an emoji needs.
 */
export function warmUpTextMeasures(): void {
	const sample = '\u001B[1m\u001B[36m◆ waiting\u001B[39m\u001B[22m │ … ▸ ✓ ✗ ‖ ∅ ◌ 漢字 é';
	stringWidth(sample);
	styledCharsToString(styledCharsFromTokens(tokenizeLine(sample)));
}

/**
 * The measures of text the glyph table does not answer (an accent on its own mark, a CJK
 * title's punctuation): string-width's and the tokenizer's grapheme segmenters, with ICU's set-up
 * behind them. Called once the first frame is out, so a key does not wait for them either.
 */
export function warmUpGraphemes(): void {
	const sample = 'e\u0301 \u001B[33m\u0915\u094D\u0937\u001B[39m';
	widthOf(sample);
	styledCharsToString(styledCharsFromTokens(tokenize(sample)));
	// The timeline's own walk over clusters (format/graphemes.ts).
	const clusters = new ClusterCursor(sample);
	while (clusters.next());
}

/** Puts the cached `get` in place of Ink's (installRenderSpeedups, render-speedups.ts). */
export function installFastOutput(): void {
	replaceOutputGet(fastGet);
}

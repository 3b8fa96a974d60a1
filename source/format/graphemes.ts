import stringWidth from 'string-width';
import {graphemeSegments} from './grapheme-segments.js';

/**
 * Walks the grapheme clusters of a string with their terminal widths, in linear time.
 *
 * Why not just `Intl.Segmenter` over the whole string: on Node 20 its iterator is quadratic in the
 * string length (measured: 16,000 CJK characters 0.1 s, 64,000 1.2 s, 1,000,000 did not finish in
 * half an hour), and string-width segments the whole string it is given, so it inherits that. So:
 * - characters that always form a cluster on their own (printable ASCII, Latin, Greek, Cyrillic,
 *   punctuation, arrows, box drawing, CJK, kana, Hangul syllables, fullwidth forms, and the
 *   glyphs the sanitizer writes; see `standalone`) are measured from a table;
 * - everything else is handed to the segmenter in small windows that start on a known boundary,
 *   and the last cluster of a window that may continue past it is re-read in the next window.
 * Widths are string-width's (what Ink measures with), one cluster at a time, so the sum over a
 * line equals `stringWidth(line)` and slicing at cluster boundaries keeps widths additive.
 */

/** Code units per segmenter call; small enough that the quadratic cost stays negligible. */
const window = 256;

const LF = 0x0a;
const CR = 0x0d;

function buildStandaloneTable(): Uint8Array {
	const table = new Uint8Array(0x1_00_00);
	for (const [from, to, width] of standaloneRanges) table.fill(width, from, to + 1);
	for (const c of notStandalone) table[c] = 0;
	return table;
}

/** [first, last, width]: blocks of mostly letters, punctuation and symbols. */
const standaloneRanges: ReadonlyArray<readonly [number, number, number]> = [
	[0x20, 0x7e, 1],
	[0xa0, 0x2_4f, 1], // Latin-1, Latin Extended A/B.
	[0x3_86, 0x3_ce, 1], // Greek.
	[0x4_00, 0x4_82, 1], // Cyrillic up to the combining marks at U+0483.
	[0x4_8a, 0x4_ff, 1],
	[0x1e_00, 0x1e_ff, 1], // Latin Extended Additional (precomposed Vietnamese).
	[0x20_10, 0x20_27, 1], // Dashes, quotes, bullets, ellipsis (U+2028 and later are controls).
	[0x20_30, 0x20_5e, 1], // Per mille, primes, guillemets.
	[0x20_a0, 0x20_c0, 1], // Currency.
	[0x21_90, 0x21_ff, 1], // Arrows.
	[0x22_00, 0x22_ff, 1], // Mathematical operators.
	[0x23_ce, 0x23_ce, 1], // ⏎, which sanitizeLine writes.
	[0x24_00, 0x24_26, 1], // Control pictures (␛ ␇ ␍, which the sanitizer writes).
	[0x25_00, 0x25_ff, 1], // Box drawing, block elements, geometric shapes.
	[0x27_13, 0x27_13, 1], // ✓ and ✗, which the lists show for finished and failed (not emoji,
	[0x27_17, 0x27_17, 1], // unlike ✔ and ✅).
	[0x27_e8, 0x27_e9, 1], // ⟨ ⟩ around the sanitizer's code point markers.
	[0x28_00, 0x28_ff, 1], // Braille (terminal spinners).
	[0x30_00, 0x30_29, 2], // CJK punctuation, up to the tone marks at U+302A.
	[0x30_41, 0x30_96, 2], // Hiragana, without the combining voiced marks at U+3099.
	[0x30_a1, 0x30_fe, 2], // Katakana.
	[0x34_00, 0x4d_bf, 2], // CJK Extension A.
	[0x4e_00, 0x9f_ff, 2], // CJK Unified Ideographs.
	[0xac_00, 0xd7_a3, 2], // Hangul syllables.
	[0xff_01, 0xff_60, 2], // Fullwidth forms (the halfwidth ones after U+FF60 include marks).
	[0xff_fd, 0xff_fd, 1], // The replacement character.
];

/**
 * Inside those ranges: Extended_Pictographic characters (they take a VS16 or join in ZWJ
 * sequences, and some are emoji-wide), format characters and unassigned code points.
 */
const notStandalone = [
	0xa9, 0xad, 0xae, 0x3_8b, 0x3_8d, 0x3_a2, 0x20_3c, 0x20_49, 0x20_5f, 0x21_94, 0x21_95, 0x21_96, 0x21_97, 0x21_98,
	0x21_99, 0x21_a9, 0x21_aa, 0x25_aa, 0x25_ab, 0x25_b6, 0x25_c0, 0x25_fb, 0x25_fc, 0x25_fd, 0x25_fe,
];

/**
 * standalone[c] is the width (1 or 2) of code unit c when it is a cluster on its own whatever its
 * neighbours are, or 0 when the segmenter has to decide. A character qualifies when its grapheme
 * break class is Other (or a precomposed Hangul syllable) and it is not Extended_Pictographic,
 * Prepend, an Indic conjunct consonant, a mark, a format character or unassigned: no rule of
 * UAX #29 joins two such characters. test/format-width.test.ts checks every entry against
 * Intl.Segmenter and string-width.
 */
const standalone = buildStandaloneTable();

/** Width of code unit c if it is always a cluster on its own, else 0. */
export function standaloneWidth(codeUnit: number): number {
	return standalone[codeUnit] ?? 0;
}

const widthCache = new Map<string, number>();

/** string-width of one cluster, memoized for short clusters (text repeats the same few hundred). */
export function clusterWidth(cluster: string): number {
	if (cluster.length === 1) {
		const known = standaloneWidth(cluster.charCodeAt(0));
		if (known !== 0) return known;
	}

	if (cluster.length > 16) return stringWidth(cluster);
	let width = widthCache.get(cluster);
	if (width === undefined) {
		width = stringWidth(cluster);
		if (widthCache.size >= 4096) widthCache.clear();
		widthCache.set(cluster, width);
	}

	return width;
}

/** True when UAX #29 always puts a boundary between text[index - 1] and text[index]. */
function alwaysBreaksBefore(text: string, index: number): boolean {
	const before = text.charCodeAt(index - 1);
	const after = text.charCodeAt(index);
	if (before === CR) return after !== LF; // GB3, GB4
	if (before === LF) return true; // GB4
	if (after === LF || after === CR) return true; // GB5
	return standaloneWidth(before) !== 0 && standaloneWidth(after) !== 0;
}

/**
 * Steps through the clusters of text[from, to): after `next()` returns true, `start`, `end` and
 * `width` describe the cluster. `from` must be a cluster boundary (0, or an `end` seen earlier)
 * and `to` is treated as the end of the text (the text length or the index of a line feed). A
 * plain loop over this, rather than a callback, because it runs once per character of
 * multi-megabyte observations.
 */
export class ClusterCursor {
	start: number;
	end: number;
	width = 0;
	private readonly text: string;
	private readonly to: number;
	/** Clusters already segmented from a complex stretch and not yet returned. */
	private readonly pendingEnds: number[] = [];
	private readonly pendingWidths: number[] = [];
	private pendingAt = 0;

	constructor(text: string, from = 0, to = text.length) {
		this.text = text;
		this.to = to;
		this.start = from;
		this.end = from;
	}

	next(): boolean {
		if (this.pendingAt < this.pendingEnds.length) {
			this.start = this.end;
			this.end = this.pendingEnds[this.pendingAt] ?? this.end;
			this.width = this.pendingWidths[this.pendingAt] ?? 0;
			this.pendingAt++;
			return true;
		}

		const index = this.end;
		if (index >= this.to) return false;
		const width = standaloneWidth(this.text.charCodeAt(index));
		if (width !== 0 && (index + 1 === this.to || alwaysBreaksBefore(this.text, index + 1))) {
			this.start = index;
			this.end = index + 1;
			this.width = width;
			return true;
		}

		this.segment(index);
		return this.next();
	}

	/**
	 * Segments the stretch starting at `start` up to the next certain boundary, at most one
	 * window of it, keeping back a last cluster that may continue past the window.
	 */
	private segment(start: number): void {
		const {text, to} = this;
		this.pendingEnds.length = 0;
		this.pendingWidths.length = 0;
		this.pendingAt = 0;
		for (let size = window; this.pendingEnds.length === 0; size *= 2) {
			let max = Math.min(to, start + size);
			// Never cut a window inside a surrogate pair: half a character would change the boundary before it.
			const last = text.charCodeAt(max - 1);
			if (max < to && last >= 0xd8_00 && last <= 0xdb_ff) max--;
			let end = start + 1;
			while (end < max && !alwaysBreaksBefore(text, end)) end++;
			// The stretch is whole if it ended on a certain boundary; otherwise its last cluster may go on.
			const whole = end === to || alwaysBreaksBefore(text, end);
			const stretch = text.slice(start, end);
			const cacheable = whole && stretch.length <= maxCachedStretch;
			const cached = cacheable ? stretchCache.get(stretch) : undefined;
			if (cached) {
				for (let index = 0; index < cached.length; index += 2) {
					this.pendingEnds.push(start + (cached[index] ?? 0));
					this.pendingWidths.push(cached[index + 1] ?? 0);
				}

				return;
			}

			// If nothing is kept, one cluster is longer than the window (a base with thousands of
			// marks): the window doubles until it holds that cluster.
			for (const {segment, index} of graphemeSegments(stretch)) {
				const clusterEnd = start + index + segment.length;
				if (!whole && clusterEnd === end) break;
				this.pendingEnds.push(clusterEnd);
				this.pendingWidths.push(clusterWidth(segment));
			}

			if (cacheable) remember(stretch, start, this.pendingEnds, this.pendingWidths);
		}
	}
}

/**
 * Segmented stretches, by their text: each segmenter call costs microseconds (it clones an ICU
 * break iterator), and real output repeats the same few emoji and accented words.
 */
const stretchCache = new Map<string, number[]>();
const maxCachedStretch = 32;

function remember(stretch: string, start: number, ends: readonly number[], widths: readonly number[]): void {
	const packed: number[] = [];
	for (const [index, end] of ends.entries()) packed.push(end - start, widths[index] ?? 0);
	if (stretchCache.size >= 4096) stretchCache.clear();
	stretchCache.set(stretch, packed);
}

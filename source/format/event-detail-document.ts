import {sanitizeLine, sanitizeText} from './sanitize.js';
import {cellWidth, truncateToWidth} from './width.js';
import {indexRows, type RowIndex, sliceRows} from './wrap.js';

/**
 * A details view as a document of display lines that is never materialised whole: short parts
 * are kept as sanitized lines; texts of any size (a 5 MB observation, a pretty-printed log) are
 * sanitized and wrapped to the width once, as a row index (indexRows), and each row is cut out
 * only when it scrolls into view (sliceRows). Building costs one pass over the text; scrolling
 * costs what is on screen.
 */

export type DetailTone = 'normal' | 'heading' | 'label' | 'error' | 'warn' | 'muted' | 'code';

export type DetailLine = {text: string; tone: DetailTone};

export type DetailDocument = {
	readonly lineCount: number;
	/** Lines `start` (inclusive) to `end` (exclusive): sanitized, each at most the document's width. */
	lines(start: number, end: number): DetailLine[];
};

type Block =
	| {kind: 'lines'; lines: DetailLine[]}
	| {kind: 'text'; index: RowIndex; tone: DetailTone; indent: string};

function blockSize(block: Block): number {
	return block.kind === 'lines' ? block.lines.length : block.index.count;
}

export type TextOptions = {
	/** Prefix of every row (default two spaces). */
	indent?: string;
	/** Break at spaces (prose) rather than at the exact width; default true except for code. */
	words?: boolean;
};

/** Assembles a document from short lines and indexed texts, in order. */
export class DetailDocumentBuilder {
	readonly #blocks: Block[] = [];
	readonly #width: number;

	constructor(width: number) {
		this.#width = Math.max(10, width);
	}

	get width(): number {
		return this.#width;
	}

	/** One line, sanitized here and cut to the width (use text() for anything that may be long). */
	line(text: string, tone: DetailTone = 'normal'): this {
		const last = this.#blocks.at(-1);
		const entry = {text: truncateToWidth(sanitizeLine(text), this.#width), tone};
		if (last?.kind === 'lines') last.lines.push(entry);
		else this.#blocks.push({kind: 'lines', lines: [entry]});
		return this;
	}

	blank(): this {
		return this.line('');
	}

	heading(text: string): this {
		return this.line(text, 'heading');
	}

	/** `label      value`; a multi-line or long value goes below its label, indented. */
	field(label: string, value: string | number | boolean | null | undefined, tone: DetailTone = 'normal'): this {
		if (value === null || value === undefined || value === '') return this;
		const text = String(value);
		const prefix = `${label.padEnd(14)} `;
		if (!text.includes('\n') && cellWidth(prefix) + cellWidth(text) <= this.#width) return this.line(prefix + text, tone);
		this.line(label, 'label');
		return this.text(text, tone);
	}

	/** A text of any size: sanitized and wrapped now, its rows cut out when shown. */
	text(text: string, tone: DetailTone = 'normal', options: TextOptions = {}): this {
		if (text.length === 0) return this;
		const indent = options.indent ?? '  ';
		const words = options.words ?? tone !== 'code';
		const index = indexRows(sanitizeText(text), Math.max(1, this.#width - cellWidth(indent)), {words});
		this.#blocks.push({kind: 'text', index, tone, indent});
		return this;
	}

	build(): DetailDocument {
		const blocks = this.#blocks.slice();
		const offsets: number[] = [];
		let total = 0;
		for (const block of blocks) {
			offsets.push(total);
			total += blockSize(block);
		}

		return {
			lineCount: total,
			lines(start, end) {
				const out: DetailLine[] = [];
				const from = Math.max(0, start);
				const to = Math.min(total, end);
				if (from >= to) return out;
				let blockIndex = findBlock(offsets, from);
				let position = from;
				while (position < to && blockIndex < blocks.length) {
					const block = blocks[blockIndex]!;
					const offset = offsets[blockIndex]!;
					const size = blockSize(block);
					const local = position - offset;
					const count = Math.min(size - local, to - position);
					if (block.kind === 'lines') out.push(...block.lines.slice(local, local + count));
					else for (const row of sliceRows(block.index, local, count)) out.push({text: block.indent + row, tone: block.tone});
					position += count;
					blockIndex++;
				}

				return out;
			},
		};
	}
}

/** The block containing line `line` (offsets ascending). */
function findBlock(offsets: readonly number[], line: number): number {
	let low = 0;
	let high = offsets.length - 1;
	while (low < high) {
		const middle = (low + high + 1) >>> 1;
		if (offsets[middle]! <= line) low = middle;
		else high = middle - 1;
	}

	return low;
}

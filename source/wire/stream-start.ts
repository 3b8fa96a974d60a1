import {StringDecoder} from 'node:string_decoder';
import {ProtocolError} from './errors.js';

/**
 * Reads a JSON array that the server writes piece by piece (`[\n`, element, `,\n`, element, …,
 * `]`; docs/service-behaviour.md §1.3) and yields each element the moment its last character arrives.
 * Chunks may split anywhere, even inside a string, an escape or a multi-byte character.
 *
 * One pass over the text: the scanner keeps only the depth, the string/escape state and the
 * unfinished element's text, so the cost is linear in the body however it is chunked.
 * Errors of the source itself (a broken connection) are passed through untouched: deciding
 * what they mean is the caller's job (see app-client's stream-start).
 */

export type JsonArrayStreamOptions = {
	/**
	 * Largest single element in characters (default 8 Mi). A server that never closes an element
	 * must not be able to fill memory; the start-task snapshots are a few kilobytes.
	 */
	maxElementChars?: number;
};

const defaultMaxElementChars = 8 * 1024 * 1024;

export async function* parseJsonArrayStream(
	chunks: AsyncIterable<Uint8Array | string>,
	options: JsonArrayStreamOptions = {},
): AsyncGenerator<unknown> {
	const decoder = new StringDecoder('utf8');
	const scanner = new JsonArrayScanner(options.maxElementChars ?? defaultMaxElementChars);
	for await (const chunk of chunks) {
		const text = typeof chunk === 'string' ? chunk : decoder.write(asBuffer(chunk));
		yield* scanned(scanner, text);
	}
	yield* scanned(scanner, decoder.end());
	scanner.end();
}

/** The elements a piece of text completed, then the scanner's error if it failed part-way. */
function* scanned(scanner: JsonArrayScanner, text: string): Generator<unknown> {
	if (text === '') return;
	const completed: unknown[] = [];
	let failure: unknown;
	try {
		scanner.push(text, completed);
	} catch (error) {
		failure = error;
	}
	// Elements that were whole before the fault still count: the caller sees how far it got.
	yield* completed;
	if (failure !== undefined) throw failure;
}

function asBuffer(chunk: Uint8Array): Buffer {
	return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

/**
 * Where the scanner is: before `[`; just after `[` (an element or `]`); inside an element; after
 * an element (`,` or `]`); after `,` (an element: a trailing comma is not JSON); after `]`.
 */
type Place = 'before-array' | 'after-open' | 'in-element' | 'after-element' | 'after-comma' | 'done';

const quote = 0x22;
const backslash = 0x5c;
const openBrace = 0x7b;
const closeBrace = 0x7d;
const openBracket = 0x5b;
const closeBracket = 0x5d;
const comma = 0x2c;

function isJsonSpace(code: number): boolean {
	// JSON whitespace, plus a byte-order mark some servers put first.
	return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09 || code === 0xfeff;
}

/** The incremental state machine; `push` may be called with any split of the text. */
export class JsonArrayScanner {
	#place: Place = 'before-array';
	/** Nesting depth inside the current element (0 for a bare scalar or a top-level string). */
	#depth = 0;
	#inString = false;
	#escaped = false;
	/** A number, true, false or null: ends at the next delimiter rather than a closing mark. */
	#bare = false;
	/** Text of the current element from earlier pushes. */
	#pending = '';
	/** Where the current element starts within the text being pushed (0 when it began earlier). */
	#elementStart = 0;
	#count = 0;
	readonly #maxElementChars: number;

	constructor(maxElementChars = defaultMaxElementChars) {
		this.#maxElementChars = maxElementChars;
	}

	/** Elements completed so far. */
	get count(): number {
		return this.#count;
	}

	get finished(): boolean {
		return this.#place === 'done';
	}

	push(text: string, out: unknown[]): void {
		let index = 0;
		const length = text.length;
		while (index < length) {
			if (this.#place === 'in-element') {
				index = this.#scanElement(text, index, out);
				continue;
			}
			const code = text.charCodeAt(index);
			if (isJsonSpace(code)) {
				index++;
				continue;
			}
			switch (this.#place) {
				case 'before-array':
					if (code !== openBracket) {
						throw new ProtocolError(`the start stream is not a JSON array (it begins with ${JSON.stringify(text.slice(index, index + 20))})`);
					}
					this.#place = 'after-open';
					index++;
					break;
				case 'after-open':
				case 'after-comma':
					if (code === closeBracket && this.#place === 'after-open') {
						this.#place = 'done';
						index++;
						break;
					}
					this.#beginElement(code, text, index);
					break;
				case 'after-element':
					if (code === comma) this.#place = 'after-comma';
					else if (code === closeBracket) this.#place = 'done';
					else throw this.#unexpected(text, index, 'a comma or the closing bracket');
					index++;
					break;
				case 'done':
					throw new ProtocolError(`the start stream has data after its closing bracket (${JSON.stringify(text.slice(index, index + 20))})`);
			}
		}
		if (this.#place === 'in-element') this.#checkSize(0);
	}

	/** Called when the source ends: anything short of the closing bracket is a truncated stream. */
	end(): void {
		if (this.#place !== 'done') {
			const updates = `${this.#count} update${this.#count === 1 ? '' : 's'}`;
			throw new ProtocolError(
				`the start stream ended before it finished (after ${updates}): the server may have failed; check \`agent-tui conversations\``,
			);
		}
	}

	#beginElement(code: number, text: string, index: number): void {
		if (code === closeBracket || code === comma) throw this.#unexpected(text, index, 'an element');
		this.#place = 'in-element';
		this.#depth = 0;
		this.#inString = false;
		this.#escaped = false;
		this.#bare = code !== openBrace && code !== openBracket && code !== quote;
		this.#pending = '';
		this.#elementStart = index;
	}

	/** Scans from `index` until the element completes (returns the index after it) or the text ends. */
	#scanElement(text: string, index: number, out: unknown[]): number {
		const start = this.#elementStart;
		const length = text.length;
		for (let at = index; at < length; at++) {
			const code = text.charCodeAt(at);
			if (this.#inString) {
				if (this.#escaped) this.#escaped = false;
				else if (code === backslash) this.#escaped = true;
				else if (code === quote) {
					this.#inString = false;
					if (this.#depth === 0) return this.#complete(text, start, at + 1, out);
				}
				continue;
			}
			if (this.#bare) {
				if (code === comma || code === closeBracket || isJsonSpace(code)) return this.#complete(text, start, at, out);
				continue;
			}
			if (code === quote) this.#inString = true;
			else if (code === openBrace || code === openBracket) this.#depth++;
			else if (code === closeBrace || code === closeBracket) {
				this.#depth--;
				if (this.#depth === 0) return this.#complete(text, start, at + 1, out);
			}
		}
		// The element goes on in the next piece: keep what we have, once.
		this.#pending += text.slice(start, length);
		this.#elementStart = 0;
		return length;
	}

	#complete(text: string, start: number, end: number, out: unknown[]): number {
		const source = this.#pending + text.slice(start, end);
		this.#pending = '';
		this.#elementStart = 0;
		this.#place = 'after-element';
		this.#checkSize(source.length);
		let value: unknown;
		try {
			value = JSON.parse(source);
		} catch {
			throw new ProtocolError(`start-task update ${this.#count + 1} is not valid JSON`);
		}
		this.#count++;
		out.push(value);
		return end;
	}

	#checkSize(completedLength: number): void {
		const size = Math.max(completedLength, this.#pending.length);
		if (size > this.#maxElementChars) {
			throw new ProtocolError(`start-task update ${this.#count + 1} is larger than ${this.#maxElementChars} characters; stopped reading`);
		}
	}

	#unexpected(text: string, index: number, wanted: string): ProtocolError {
		return new ProtocolError(
			`the start stream is malformed after update ${this.#count}: expected ${wanted}, got ${JSON.stringify(text.slice(index, index + 20))}`,
		);
	}
}

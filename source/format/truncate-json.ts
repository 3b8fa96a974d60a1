import {sanitizeText} from './sanitize.js';
import {formatCount} from './numbers.js';

/**
 * A bounded pretty-printer for tool-call arguments and raw payloads. Arguments arrive as a JSON
 * string of any shape (docs/security-checklist.md §5): JSON.parse copes with 100,000 levels of
 * nesting, but JSON.stringify and naive recursion overflow, and a 10 MB value would flood the
 * view. So the printer recurses at most `maxDepth` levels, stops each container after
 * `maxItems` entries, each string after `maxStringLength` characters and the whole output after
 * `maxChars`, and never walks further than it prints. Cycles print as `[circular]`. The value of
 * any `encrypted_content` key, at any depth, is never printed. The result is sanitized.
 */

export type PrettyJsonOptions = {
	/** Containers deeper than this print as `[…]` / `{…}`. Default 16, at most 256. */
	maxDepth?: number;
	/** Longer strings are cut, with the number of characters left out. Default 10,000. */
	maxStringLength?: number;
	/** Entries shown per array or object before `… N more`. Default 200. */
	maxItems?: number;
	/** The output stops near this many characters. Default 200,000. */
	maxChars?: number;
};

const defaults = {maxDepth: 16, maxStringLength: 10_000, maxItems: 200, maxChars: 200_000};
/** Recursion stays bounded whatever a caller asks for. */
const depthCeiling = 256;
/** Containers of primitives whose one-line form fits this go on one line: `[1, 2, 3]`. */
const inlineWidth = 60;
const indentUnit = '  ';
const hiddenKeys = new Set(['encrypted_content']);

type Limits = Required<PrettyJsonOptions>;

export function prettyJson(value: unknown, options: PrettyJsonOptions = {}): string {
	const limits = resolve(options);
	const printer = new Printer(limits, null);
	printer.value(value, 0);
	return sanitizeText(printer.finish());
}

/**
 * Parses `raw` and prints it; text that is not JSON is shown sanitized as it is (cut at
 * maxChars). Integers beyond 2^53 and numbers that overflow a double (`1e400`) print exactly as
 * sent instead of as rounded or `null` values. Ids are strings on the wire, so this is about
 * faithful display of arguments, not about identity.
 */
export function prettyJsonString(raw: string, options: PrettyJsonOptions = {}): string {
	const limits = resolve(options);
	const marker = exactNumberMarker();
	let parsed: unknown;
	try {
		parsed = JSON.parse(keepExactNumbers(raw, marker));
	} catch {
		return sanitizeText(cutText(raw, limits.maxChars));
	}

	const printer = new Printer(limits, marker);
	printer.value(parsed, 0);
	return sanitizeText(printer.finish());
}

function resolve(options: PrettyJsonOptions): Limits {
	const pick = (value: number | undefined, fallback: number) => (value !== undefined && Number.isFinite(value) && value >= 0 ? Math.floor(value) : fallback);
	return {
		maxDepth: Math.min(depthCeiling, pick(options.maxDepth, defaults.maxDepth)),
		maxStringLength: pick(options.maxStringLength, defaults.maxStringLength),
		maxItems: pick(options.maxItems, defaults.maxItems),
		maxChars: Math.max(16, pick(options.maxChars, defaults.maxChars)),
	};
}

function cutText(text: string, max: number): string {
	if (text.length <= max) return text;
	return `${text.slice(0, safeCut(text, max))}\n… (${formatCount(text.length - max)} more characters)`;
}

/** `end`, moved back one if it would separate a surrogate pair. */
function safeCut(text: string, end: number): number {
	const code = text.charCodeAt(end - 1);
	return code >= 0xd8_00 && code <= 0xdb_ff ? end - 1 : end;
}

/** A string prefix that cannot occur in parsed JSON by chance (NUL plus a random tag). */
function exactNumberMarker(): string {
	return `\u0000exact-${Math.random().toString(36).slice(2)}:`;
}

const numberToken = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * Rewrites number tokens that JSON.parse would not keep exactly (unsafe integers, values that
 * overflow to Infinity) into marked strings holding the original token. One pass outside string
 * literals; skipped entirely when no long digit run or exponent is present.
 */
function keepExactNumbers(raw: string, marker: string): string {
	if (!/\d{16}|\d[eE][+-]?\d{3}/.test(raw)) return raw;
	const parts: string[] = [];
	let last = 0;
	let index = 0;
	while (index < raw.length) {
		const char = raw.charCodeAt(index);
		if (char === 0x22) {
			index = stringLiteralEnd(raw, index);
			continue;
		}

		if (char === 0x2d || (char >= 0x30 && char <= 0x39)) {
			numberToken.lastIndex = index;
			const match = numberToken.exec(raw);
			if (!match) {
				index++;
				continue;
			}

			const token = match[0];
			if (!exactAsNumber(token)) {
				parts.push(raw.slice(last, index), JSON.stringify(marker + token));
				last = index + token.length;
			}

			index += token.length;
			continue;
		}

		index++;
	}

	if (last === 0) return raw;
	parts.push(raw.slice(last));
	return parts.join('');
}

function stringLiteralEnd(raw: string, start: number): number {
	for (let index = start + 1; index < raw.length; index++) {
		const char = raw.charCodeAt(index);
		if (char === 0x5c) index++;
		else if (char === 0x22) return index + 1;
	}

	return raw.length;
}

function exactAsNumber(token: string): boolean {
	const number = Number(token);
	if (!Number.isFinite(number)) return false;
	if (/^-?\d+$/.test(token)) return Number.isSafeInteger(number);
	return true;
}

class Printer {
	private readonly parts: string[] = [];
	private length = 0;
	private full = false;
	/** Objects on the path from the root, for cycle detection. */
	private readonly ancestors = new Set<object>();

	constructor(
		private readonly limits: Limits,
		private readonly marker: string | null,
	) {}

	finish(): string {
		if (this.full) this.parts.push(`\n… (output cut at ${formatCount(this.limits.maxChars)} characters)`);
		return this.parts.join('');
	}

	private write(text: string): void {
		if (this.full) return;
		const room = this.limits.maxChars - this.length;
		if (text.length > room) {
			this.parts.push(text.slice(0, safeCut(text, room)));
			this.full = true;
			return;
		}

		this.parts.push(text);
		this.length += text.length;
	}

	value(input: unknown, depth: number): void {
		if (this.full) return;
		const value = toJsonValue(input);
		if (value === null || typeof value !== 'object') {
			this.write(this.primitive(value));
			return;
		}

		if (this.ancestors.has(value)) {
			this.write('[circular]');
			return;
		}

		const isArray = Array.isArray(value);
		const [open, close] = isArray ? ['[', ']'] : ['{', '}'];
		const keys = isArray ? null : visibleKeys(value);
		const size = isArray ? value.length : (keys?.length ?? 0);
		if (size === 0) {
			this.write(open + close);
			return;
		}

		if (depth >= this.limits.maxDepth) {
			this.write(`${open}…${close}`);
			return;
		}

		const shown = Math.min(size, this.limits.maxItems);
		const inline = this.inlineForm(value, keys, shown, size);
		if (inline !== null) {
			this.write(inline);
			return;
		}

		this.ancestors.add(value);
		const indent = indentUnit.repeat(depth + 1);
		this.write(open);
		for (let index = 0; index < shown && !this.full; index++) {
			this.write(`\n${indent}`);
			if (keys) {
				const key = keys[index] ?? '';
				this.write(`${this.key(key)}: `);
				if (hiddenKeys.has(key)) this.write('[hidden]');
				else this.value(read(value, key), depth + 1);
			} else {
				this.value((value as unknown[])[index], depth + 1);
			}

			if (index < size - 1) this.write(',');
		}

		if (shown < size) this.write(`\n${indent}… ${formatCount(size - shown)} more`);
		this.write(`\n${indentUnit.repeat(depth)}${close}`);
		this.ancestors.delete(value);
	}

	/** `[1, 2, 3]` or `{"a": 1}` when every shown entry is a primitive and the line is short. */
	private inlineForm(value: object, keys: string[] | null, shown: number, size: number): string | null {
		if (shown < size) return null;
		const items: string[] = [];
		let length = 2;
		for (let index = 0; index < shown; index++) {
			const key = keys ? (keys[index] ?? '') : null;
			let text: string;
			if (key !== null && hiddenKeys.has(key)) {
				text = '[hidden]';
			} else {
				const item = toJsonValue(key === null ? (value as unknown[])[index] : read(value, key));
				if (item !== null && typeof item === 'object') return null;
				text = this.primitive(item);
			}

			const entry = key === null ? text : `${this.key(key)}: ${text}`;
			length += entry.length + 2;
			if (length > inlineWidth) return null;
			items.push(entry);
		}

		return keys ? `{${items.join(', ')}}` : `[${items.join(', ')}]`;
	}

	/** A key; a number used as a key (invalid JSON that the exact-number pass made parseable) shows as sent. */
	private key(key: string): string {
		return this.marker !== null && key.startsWith(this.marker) ? key.slice(this.marker.length) : this.quoted(key);
	}

	/** A JSON string literal, cut at maxStringLength (keys too: a 1 MB key is as bad as a 1 MB value). */
	private quoted(value: string): string {
		const max = this.limits.maxStringLength;
		if (value.length <= max) return JSON.stringify(value);
		const cut = safeCut(value, max);
		return `${JSON.stringify(value.slice(0, cut))}… (+${formatCount(value.length - cut)} chars)`;
	}

	private primitive(value: unknown): string {
		switch (typeof value) {
			case 'string': {
				if (this.marker !== null && value.startsWith(this.marker)) return value.slice(this.marker.length);
				return this.quoted(value);
			}

			case 'number': {
				return String(value); // NaN and Infinity can only come from JS callers; shown as they are.
			}

			case 'bigint': {
				return value.toString();
			}

			case 'boolean': {
				return value ? 'true' : 'false';
			}

			case 'undefined': {
				return 'undefined';
			}

			default: {
				return value === null ? 'null' : `[${typeof value}]`;
			}
		}
	}
}

/** Applies toJSON (so a Secret prints `[redacted]`, a Date its ISO form); a throwing one is shown, not thrown. */
function toJsonValue(value: unknown): unknown {
	if (value === null || typeof value !== 'object') return value;
	const toJson = (value as {toJSON?: unknown}).toJSON;
	if (typeof toJson !== 'function') return value;
	try {
		return (toJson as () => unknown).call(value);
	} catch {
		return '[unprintable]';
	}
}

/** Own enumerable keys whose values JSON would print (functions, symbols and undefined are skipped). */
function visibleKeys(value: object): string[] {
	return Object.keys(value).filter((key) => {
		const item = read(value, key);
		return item !== undefined && typeof item !== 'function' && typeof item !== 'symbol';
	});
}

/** A property read that cannot throw (getters on exotic objects). */
function read(value: object, key: string): unknown {
	try {
		return (value as Record<string, unknown>)[key];
	} catch {
		return '[unprintable]';
	}
}

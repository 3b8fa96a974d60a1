/**
 * A scan of a JSON object's text for its top-level string fields, without building the object
 * (events.ts `parseFrameLater` reads a socket frame's envelope with it).
 */

/**
 * The top-level keys in `wanted` whose values are strings, from a JSON object's text, skipping
 * every other value without building it (the last occurrence wins, as in JSON.parse). Null when
 * the text is not an object by the scan (nested values are skipped, not checked: the payload is
 * parsed for real when the event is validated, and a frame broken inside shows as invalid then).
 */
export function scanTopLevelStrings(text: string, wanted: readonly string[]): Map<string, string> | null {
	const found = new Map<string, string>();
	let at = skipSpace(text, 0);
	if (text.charCodeAt(at) !== 123 /* { */) return null;
	at = skipSpace(text, at + 1);
	if (text.charCodeAt(at) === 125 /* } */) return skipSpace(text, at + 1) === text.length ? found : null;
	for (;;) {
		if (text.charCodeAt(at) !== 34 /* " */) return null;
		const keyEnd = stringEnd(text, at);
		if (keyEnd < 0) return null;
		const key = wantedKey(text, at, keyEnd, wanted);
		at = skipSpace(text, keyEnd);
		if (text.charCodeAt(at) !== 58 /* : */) return null;
		at = skipSpace(text, at + 1);
		const valueStart = at;
		at = valueEnd(text, at);
		if (at < 0) return null;
		if (key !== null) {
			if (text.charCodeAt(valueStart) === 34) {
				const value = decodeString(text, valueStart, at);
				if (value === null) return null;
				found.set(key, value);
			} else {
				// Not a string: the fast path does not apply to this field.
				found.delete(key);
				if (key === 'kind' || key === 'id') return null;
			}
		}
		at = skipSpace(text, at);
		const next = text.charCodeAt(at);
		if (next === 125) return skipSpace(text, at + 1) === text.length ? found : null;
		if (next !== 44 /* , */) return null;
		at = skipSpace(text, at + 1);
	}
}

/**
 * The wanted key that the key between `start` and `end` (its quotes included) spells, or null.
 * Compared in place: decoding every key of every frame (a dozen a frame) through JSON.parse was a
 * third of the scan's time and most of its garbage. A key with an escape is decoded.
 */
function wantedKey(text: string, start: number, end: number, wanted: readonly string[]): string | null {
	const length = end - start - 2;
	for (let index = start + 1; index < end - 1; index++) {
		if (text.charCodeAt(index) !== 92 /* \ */) continue;
		const decoded = decodeString(text, start, end);
		return decoded !== null && wanted.includes(decoded) ? decoded : null;
	}
	for (const name of wanted) if (name.length === length && text.startsWith(name, start + 1)) return name;
	return null;
}

function skipSpace(text: string, at: number): number {
	while (at < text.length) {
		const code = text.charCodeAt(at);
		if (code !== 32 && code !== 10 && code !== 13 && code !== 9) break;
		at++;
	}
	return at;
}

/**
 * Index just past the string starting at `at` (a quote), or -1. The next quote is found by the
 * engine's own search (most of a frame is the text of its strings: a loop over every character
 * made the scan slower than JSON.parse of the whole frame); it ends the string unless an odd
 * number of backslashes comes right before it.
 */
function stringEnd(text: string, at: number): number {
	let from = at + 1;
	for (;;) {
		const quote = text.indexOf('"', from);
		if (quote < 0) return -1;
		let backslashes = 0;
		while (quote - backslashes - 1 > at && text.charCodeAt(quote - backslashes - 1) === 92 /* \ */) backslashes++;
		if (backslashes % 2 === 0) return quote + 1;
		from = quote + 1;
	}
}

/**
 * The string value between `start` and `end` (its quotes included), as a string of its own: a
 * slice of the frame would keep the whole frame alive for as long as the event's id is held.
 */
function decodeString(text: string, start: number, end: number): string | null {
	try {
		return JSON.parse(text.slice(start, end)) as string;
	} catch {
		return null;
	}
}

/** Index just past the value starting at `at`, or -1: strings, nested objects and arrays, literals. */
function valueEnd(text: string, at: number): number {
	const first = text.charCodeAt(at);
	if (first === 34) return stringEnd(text, at);
	if (first === 123 || first === 91 /* [ */) {
		let depth = 0;
		for (let index = at; index < text.length; index++) {
			const code = text.charCodeAt(index);
			if (code === 34) {
				index = stringEnd(text, index) - 1;
				if (index < 0) return -1;
			} else if (code === 123 || code === 91) {
				depth++;
			} else if (code === 125 || code === 93) {
				depth--;
				if (depth === 0) return index + 1;
			}
		}
		return -1;
	}
	let index = at;
	while (index < text.length) {
		const code = text.charCodeAt(index);
		if (code === 44 || code === 125 || code === 93 || code === 32 || code === 10 || code === 13 || code === 9) break;
		index++;
	}
	return index > at ? index : -1;
}

import {formatCount} from './numbers.js';

/**
 * Small, bounded readers over event payloads shared by the one-line summaries and the details
 * view. Every function here does work proportional to what it returns, not to the payload, except
 * `countLines`, which is one linear scan done once per event (and cached by the caller).
 */

/** The first non-blank line of `text`, at most `max` characters (a 5 MB one-liner stays cheap). */
export function firstLine(text: string, max = 200): string {
	let start = 0;
	while (start < text.length) {
		// Only the line's first `max` characters count, and whether it goes on past them: its end is
		// looked for no further (a 5 MB line without a newline would otherwise be scanned to its end).
		const head = text.slice(start, start + max + 1);
		const newline = head.indexOf('\n');
		const line = head.slice(0, newline === -1 ? max : Math.min(newline, max));
		if (line.trim().length > 0) return (newline === -1 ? head.length > max : newline > max) ? `${line.trimEnd()}…` : line.trimEnd();
		const end = newline === -1 ? text.indexOf('\n', start + head.length) : start + newline;
		if (end === -1) break;
		start = end + 1;
		// Leading blank lines are rare; give up after a screenful of them rather than scan megabytes.
		if (start > 4096) break;
	}

	return '';
}

/** Number of lines (a trailing newline does not start another one). */
export function countLines(text: string): number {
	if (text.length === 0) return 0;
	let count = 1;
	let index = text.indexOf('\n');
	while (index !== -1) {
		if (index < text.length - 1) count++;
		index = text.indexOf('\n', index + 1);
	}

	return count;
}

export function plural(count: number, word: string, words = `${word}s`): string {
	return `${formatCount(count)} ${count === 1 ? word : words}`;
}

/**
 * One-line JSON for a value of any shape, cut at `max` characters and `depth` levels. Walks only
 * as much of the value as fits, so a 100,000-deep or 10 MB value costs the same as a small one.
 */
export function compactJson(value: unknown, max = 120, depth = 4): string {
	let out = '';
	const full = () => out.length >= max;
	const write = (text: string) => {
		out += text;
	};

	const walk = (node: unknown, level: number): void => {
		if (full()) return;
		if (node === null || node === undefined) return write('null');
		if (typeof node === 'string') return write(JSON.stringify(node.length > max ? node.slice(0, max) : node));
		if (typeof node === 'number' || typeof node === 'boolean') return write(String(node));
		if (typeof node !== 'object') return write(JSON.stringify(String(node)));
		if (level >= depth) return write(Array.isArray(node) ? '[…]' : '{…}');
		if (Array.isArray(node)) {
			write('[');
			for (const [index, item] of node.entries()) {
				if (full()) break;
				if (index > 0) write(',');
				walk(item, level + 1);
			}

			return write(']');
		}

		write('{');
		let first = true;
		for (const key in node as Record<string, unknown>) {
			if (!Object.hasOwn(node, key)) continue;
			if (full()) break;
			if (!first) write(',');
			first = false;
			write(`${JSON.stringify(key)}:`);
			walk((node as Record<string, unknown>)[key], level + 1);
		}

		write('}');
	};

	walk(value, 0);
	return out.length > max ? `${out.slice(0, max - 1)}…` : out;
}

/** Total accumulated cost in a `stats` value (`{usage_to_metrics: {id: {accumulated_cost}}}`), or null. */
export function statsCost(value: unknown): number | null {
	if (value === null || typeof value !== 'object') return null;
	const usage = (value as {usage_to_metrics?: unknown}).usage_to_metrics;
	if (usage === null || typeof usage !== 'object') return null;
	let total = 0;
	let found = false;
	for (const metrics of Object.values(usage as Record<string, unknown>)) {
		const cost = metrics !== null && typeof metrics === 'object' ? (metrics as {accumulated_cost?: unknown}).accumulated_cost : undefined;
		if (typeof cost === 'number' && Number.isFinite(cost)) {
			total += cost;
			found = true;
		}
	}

	return found ? total : null;
}

/** Reads a string field from an unknown record. */
export function stringAt(record: unknown, key: string): string | undefined {
	if (record === null || typeof record !== 'object') return undefined;
	const value = (record as Record<string, unknown>)[key];
	return typeof value === 'string' ? value : undefined;
}

import {z} from 'zod';
import {Secret} from '../secret.js';

/**
 * A string enum that never fails: known values keep their literal type for the compiler, anything
 * else the server invents later is kept as the raw string (shown as unknown, still filterable).
 */
export type Open<T extends string> = T | (string & {});

export function openEnum<const T extends readonly string[]>(_values: T) {
	return z.string() as unknown as z.ZodType<Open<T[number]>, string>;
}

/** Servers omit null fields (exclude_none); treat absent and null alike. */
export const optionalString = z.string().nullish();

/** Ids are strings on the wire; a number (should never happen) is kept as its decimal text. */
export const idString = z.union([z.string(), z.number().transform(String)]);

/** A credential field: wrapped so that printing or JSON never shows it. */
export const secretString = z
	.string()
	.nullish()
	.transform((value) => (value ? new Secret(value) : null));

/** FastAPI 422 body entries. `input` is optional; the agent server sanitises it away. */
export const validationDetail = z.looseObject({
	loc: z.array(z.union([z.string(), z.number()])),
	msg: z.string(),
	type: z.string(),
});
export type ValidationDetail = z.infer<typeof validationDetail>;

/** One item of a page that failed validation: flagged, never allowed to drop the page. */
export type InvalidItem = {index: number; message: string; raw: unknown};

export type ParsedItems<T> = {items: T[]; invalid: InvalidItem[]};

export function describeIssues(error: z.ZodError): string {
	return error.issues
		.slice(0, 3)
		.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
		.join('; ');
}

/** Validates items one by one, because `z.array` would fail a whole page for one bad item. */
export function parseEach<T>(schema: z.ZodType<T>, raw: unknown): ParsedItems<T> {
	const items: T[] = [];
	const invalid: InvalidItem[] = [];
	if (!Array.isArray(raw)) {
		invalid.push({index: -1, message: 'expected a JSON array', raw});
		return {items, invalid};
	}
	raw.forEach((entry, index) => {
		const result = schema.safeParse(entry);
		if (result.success) items.push(result.data);
		else invalid.push({index, message: describeIssues(result.error), raw: entry});
	});
	return {items, invalid};
}

/** Like parseEach, for batch look-ups whose answer is aligned with the request: null stays null. */
export function parseAligned<T>(schema: z.ZodType<T>, raw: unknown): {items: Array<T | null>; invalid: InvalidItem[]} {
	const items: Array<T | null> = [];
	const invalid: InvalidItem[] = [];
	if (!Array.isArray(raw)) {
		invalid.push({index: -1, message: 'expected a JSON array', raw});
		return {items, invalid};
	}
	raw.forEach((entry, index) => {
		if (entry === null) {
			items.push(null);
			return;
		}
		const result = schema.safeParse(entry);
		if (result.success) items.push(result.data);
		else {
			items.push(null);
			invalid.push({index, message: describeIssues(result.error), raw: entry});
		}
	});
	return {items, invalid};
}

export type Page<T> = ParsedItems<T> & {nextPageId: string | null};

const pageEnvelope = z.looseObject({
	items: z.array(z.unknown()),
	next_page_id: z.union([z.string(), z.number().transform(String)]).nullish(),
});

/** `{items, next_page_id}`; throws (the caller turns it into a protocol error) only if the envelope itself is wrong. */
export function parsePage<T>(schema: z.ZodType<T>, raw: unknown): Page<T> {
	const envelope = pageEnvelope.parse(raw);
	return {...parseEach(schema, envelope.items), nextPageId: envelope.next_page_id ?? null};
}

/** Deeper than this, objects are kept as they are: no event nests this far, and recursion stays bounded. */
const nullDropDepth = 64;

/**
 * `value` with every object key whose value is null left out, at any depth (array items are kept:
 * their place means something). The agent server serialises events with exclude_none while the
 * app server's stored copy keeps the nulls (docs/service-behaviour.md §2, §8): one key, absent or null,
 * means the same, and after this there is one form to read, show and print. Copy-on-write: an
 * object without nulls (every live frame) comes back as it is, nothing allocated.
 */
export function withoutNulls<T>(value: T, depth = 0): T {
	if (value === null || typeof value !== 'object' || depth >= nullDropDepth) return value;
	if (Array.isArray(value)) {
		let out: unknown[] | null = null;
		for (let index = 0; index < value.length; index++) {
			const item = value[index] as unknown;
			const cleaned = withoutNulls(item, depth + 1);
			if (cleaned !== item && out === null) out = value.slice(0, index);
			if (out !== null) out.push(cleaned);
		}
		return (out ?? value) as T;
	}
	const record = value as Record<string, unknown>;
	let out: Record<string, unknown> | null = null;
	const keys = Object.keys(record);
	for (let index = 0; index < keys.length; index++) {
		const key = keys[index]!;
		const field = record[key];
		const cleaned = field === null ? undefined : withoutNulls(field, depth + 1);
		if (cleaned !== field && out === null) {
			out = {};
			for (let before = 0; before < index; before++) out[keys[before]!] = record[keys[before]!];
		}
		if (out !== null && cleaned !== undefined) out[key] = cleaned;
	}
	return (out ?? record) as T;
}

/**
 * Removes every `encrypted_content` value, at any depth, before anything else sees the data:
 * it must never be rendered or logged, and the simplest guarantee is that it never gets stored.
 * Iterative so a hostile 100,000-deep document cannot overflow the stack.
 */
export function dropEncryptedContent(value: unknown): unknown {
	if (value === null || typeof value !== 'object') return value;
	const stack: object[] = [value];
	let visited = 0;
	while (stack.length > 0 && visited < 1_000_000) {
		const node = stack.pop()!;
		visited++;
		if (Array.isArray(node)) {
			for (const child of node) if (child !== null && typeof child === 'object') stack.push(child);
			continue;
		}
		const record = node as Record<string, unknown>;
		for (const key of Object.keys(record)) {
			if (key === 'encrypted_content') {
				if (record[key] != null) record[key] = '[hidden]';
				continue;
			}
			const child = record[key];
			if (child !== null && typeof child === 'object') stack.push(child);
		}
	}
	return value;
}

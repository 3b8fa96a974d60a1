import type {z} from 'zod';
import {ProtocolError} from './errors.js';
import {normalizeId} from './ids.js';
import {parseAligned, type InvalidItem} from './schemas/common.js';

/**
 * Batch look-ups by id (`?ids=a&ids=b`, or `?id=` for sandboxes and specs), answered in the
 * caller's order with null for an id the server does not know.
 *
 * Servers disagree on the answer: the real one sends a list aligned with the request, null for
 * unknown ids; the seed document says unknown ids are simply left out (an empty list for none).
 * Matching answers to requests by normalised id handles both, and also a server that echoes the
 * other id spelling (hex vs dashed).
 */

export type LookupOptions<T> = {
	schema: z.ZodType<T>;
	/** The real server refuses more than this many ids per request (400). */
	chunkSize: number;
	/** Fetches one chunk of unique ids. */
	fetchChunk: (ids: string[]) => Promise<unknown>;
	/**
	 * Send the normalised (hex) form rather than the caller's spelling. Right for app-server
	 * uuids; sandbox and spec ids are opaque strings the server matches exactly, so they go as given.
	 */
	sendNormalized?: boolean;
	/** Ids that cannot exist are answered null without asking (a malformed uuid fails the whole request with 400). */
	canExist?: (id: string) => boolean;
	onInvalid?: (item: InvalidItem) => void;
	/** For messages: `GET /api/v1/app-conversations`. */
	where: string;
};

export async function lookupAligned<T extends {id: string}>(ids: readonly string[], options: LookupOptions<T>): Promise<Array<T | null>> {
	const keys = ids.map((id) => normalizeId(id));
	// Each id is asked once, however often (and in whichever spelling) the caller repeats it.
	const wanted = new Map<string, string>();
	ids.forEach((id, index) => {
		const key = keys[index]!;
		if (!wanted.has(key) && (options.canExist?.(id) ?? true)) wanted.set(key, options.sendNormalized ? key : id);
	});
	const sent = [...wanted.values()];
	const found = new Map<string, T>();
	for (let start = 0; start < sent.length; start += options.chunkSize) {
		const chunk = sent.slice(start, start + options.chunkSize);
		const raw = await options.fetchChunk(chunk);
		if (!Array.isArray(raw)) throw new ProtocolError(`${options.where}: expected a JSON list of results`);
		const {items, invalid} = parseAligned(options.schema, raw);
		for (const item of invalid) options.onInvalid?.(item);
		for (const item of items) if (item) found.set(normalizeId(item.id), item);
	}
	return keys.map((key) => found.get(key) ?? null);
}

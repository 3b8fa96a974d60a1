import {sanitizeLine} from '../format/sanitize.js';
import {keptUnreadableRows, unreadableRow, type UnreadableRow} from '../state/unreadable-rows.js';
import {normalizeId} from '../wire/ids.js';
import type {Page} from '../wire/schemas/common.js';
import {note, type Io} from './io.js';

/**
 * A listing's rows that could not be read (they do not match the API): counted and named, never
 * passed over as if there were none. The list commands say them on stderr and exit 5 (a bad
 * answer, exit-codes.ts), whatever they could list.
 */

/** How many rows could not be read, and (up to `keptUnreadableRows`) each, with its id if any and why. */
export type Unreadable = {count: number; rows: UnreadableRow[]};

export function noUnreadable(): Unreadable {
	return {count: 0, rows: []};
}

/** Every item of every page, each id once (the first copy wins), counting the unreadable ones. */
export async function readPages<T extends {id: string}>(pages: AsyncIterable<Page<T>>, unreadable: Unreadable): Promise<T[]> {
	const byId = new Map<string, T>();
	for await (const page of pages) {
		for (const item of page.items) {
			const key = normalizeId(item.id);
			if (!byId.has(key)) byId.set(key, item);
		}
		noteUnreadable(unreadable, page.invalid);
	}
	return [...byId.values()];
}

export function noteUnreadable(unreadable: Unreadable, invalid: readonly unknown[]): void {
	unreadable.count += invalid.length;
	for (const item of invalid) if (unreadable.rows.length < keptUnreadableRows) unreadable.rows.push(unreadableRow(item));
}

const shown = 10;

/** `error: 3 conversation rows … could not be read …`, then each (the first ten) with its id and why. */
export function reportUnreadable(io: Io, unreadable: Unreadable, noun: string): void {
	const {count, rows} = unreadable;
	note(io, `error: ${count} ${noun} row${count === 1 ? '' : 's'} the server sent could not be read (${count === 1 ? 'it does' : 'they do'} not match the API) and ${count === 1 ? 'is' : 'are'} not listed:`);
	for (const row of rows.slice(0, shown)) note(io, `  unreadable  ${row.id === null ? '(no id)' : sanitizeLine(row.id)}  ${sanitizeLine(row.why)}`);
	if (count > shown) note(io, `  … and ${count - shown} more`);
}

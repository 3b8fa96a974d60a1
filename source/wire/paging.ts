import {normalizeId} from './ids.js';
import type {Page} from './schemas/common.js';

/**
 * Walking `{items, next_page_id}` searches to the end. The real app server's page ids are
 * stringified offsets (openhands-wire.md §1.1): rows created during a walk shift every later
 * row by one, so the same item can show up on two pages. Pages are passed on as they are;
 * `uniqueById` removes the repeats for callers that want each item once.
 */

export type PageFetch<T> = (pageId: string | null) => Promise<Page<T>>;

export type WalkOptions = {
	/**
	 * Called when the server hands back a page id that was already requested. Following it would
	 * loop forever, so the walk ends there (with the pages it has) instead.
	 */
	onRepeatedPageId?: (pageId: string) => void;
};

export async function* walkPages<T>(fetchPage: PageFetch<T>, options: WalkOptions = {}): AsyncGenerator<Page<T>> {
	const requested = new Set<string>();
	let pageId: string | null = null;
	for (;;) {
		const page = await fetchPage(pageId);
		yield page;
		const next = page.nextPageId;
		if (next === null || next === '') return;
		if (requested.has(next) || next === pageId) {
			options.onRepeatedPageId?.(next);
			return;
		}
		requested.add(next);
		pageId = next;
	}
}

/** Every item of every page once, keyed by the normalised id (hex and dashed forms are the same). */
export async function* uniqueById<T extends {id: string}>(pages: AsyncIterable<Page<T>>): AsyncGenerator<T> {
	const seen = new Set<string>();
	for await (const page of pages) {
		for (const item of page.items) {
			const key = normalizeId(item.id);
			if (seen.has(key)) continue;
			seen.add(key);
			yield item;
		}
	}
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
	const out: T[] = [];
	for await (const item of items) out.push(item);
	return out;
}

import {ProtocolError} from './errors.js';
import {normalizeId} from './ids.js';
import type {Page} from './schemas/common.js';

/**
 * Walking `{items, next_page_id}` searches to the end. The real app server's page ids are
 * stringified offsets (docs/service-behaviour.md §1.1): rows created during a walk shift every later
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

/** One page of an event search as a reader holds it (agent server or the app server's stored copy). */
export type EventPageStep<E extends {id: string}> = {events: readonly E[]; nextPageId: string | null};

/**
 * Walking an event search to its end, the same way for the agent server and for the app
 * server's stored copy, and refusing to go round in circles: an unknown page id makes the real
 * server start over, so a cursor is never followed twice; a page that brings nothing (empty, or
 * the very events of the page before) while still naming a next page means its `next_page_id`
 * never ends. Either stops the walk with a ProtocolError that says where (the pages already
 * yielded stay with the caller).
 */
export async function* walkEventPages<E extends {id: string}, P extends EventPageStep<E>>(
	fetchPage: (pageId: string | undefined) => Promise<P>,
	where: string,
): AsyncGenerator<P, void, undefined> {
	const requested = new Set<string>();
	let previousIds: readonly string[] = [];
	let pageId: string | undefined;
	for (;;) {
		const page = await fetchPage(pageId);
		yield page;
		const next = page.nextPageId;
		if (next === null || next === '') return;
		const ids = page.events.map((event) => event.id);
		const samePage = ids.length === previousIds.length && ids.every((id, index) => id === previousIds[index]);
		if (requested.has(next) || ids.length === 0 || samePage) {
			const why = ids.length === 0 ? 'an empty page names a next page' : samePage ? 'the same page came twice' : `page ${next.slice(0, 40)} was asked for already`;
			throw new ProtocolError(`${where}: the server's paging repeats (${why}); stopped`, 200, where.replace(/^GET /, ''));
		}
		requested.add(next);
		previousIds = ids;
		pageId = next;
	}
}

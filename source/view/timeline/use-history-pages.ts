import {useEffect, useEffectEvent, useRef, useState} from 'react';
import type {ShownRange, TimelineState} from '../../state/dashboard-types.js';
import type {LoggedEvent} from '../../wire/schemas/events.js';
import type {TimelineCursor} from './use-timeline-cursor.js';

export type HistoryPagesOptions = {
	timeline: TimelineState;
	/** The applied filter: a new one gets a fresh allowance of pages. */
	filter: string;
	rows: readonly LoggedEvent[];
	cursor: TimelineCursor;
	listHeight: number;
	descending: boolean;
	/** The window reached the oldest event held while older ones exist. */
	onLoadOlder?: (() => void) | undefined;
	/** The window reached the newest event held while newer ones were dropped. */
	onLoadNewer?: (() => void) | undefined;
	/** Back to the newest end when it was dropped (`G`): the newest page is read again. */
	onToNewest?: (() => void) | undefined;
	/** What is on screen while not following (null while following): kept in memory. */
	onPin?: ((range: ShownRange | null) => void) | undefined;
};

export type HistoryPages = {
	/** Any key that moves: a fresh allowance of pages, and no seeking. */
	key(action: () => void): void;
	/** Towards the oldest event: read older pages until the first one, the oldest row kept selected. */
	seekOldest(action: () => void): void;
	/** Towards the newest event: when it is not held, read the newest page again and select its newest row. */
	seekNewest(action: () => void): void;
};

/** Pages read on their own after a key (a filter that matches few rows fills the screen). */
const autoPages = 10;

/**
 * Reading the parts of a history the timeline does not hold, as the user reaches them. When the
 * window shows the oldest event held and older ones exist (or the newest, and newer ones were
 * dropped to bound memory), the next page that way is asked for; a key press allows a few pages
 * in a row, so a filter matching few events fills the screen. `g` (to the oldest) keeps reading
 * until the conversation's first event, the selection kept on the oldest row as pages land; `G`
 * past a dropped newest end asks for the newest page again rather than every page between. Every
 * other key stops that. Also reports what is on screen, so no trim ever drops it.
 */
export function useHistoryPages(options: HistoryPagesOptions): HistoryPages {
	const {timeline, rows, cursor, listHeight, descending, onLoadOlder, onLoadNewer, onToNewest, onPin} = options;
	const older = timeline.older?.state ?? 'none';
	const newer = timeline.newer?.state ?? 'none';
	const allowance = useRef(autoPages);
	const [seeking, setSeeking] = useState<'oldest' | 'newest' | null>(null);
	const topShown = cursor.offset === 0;
	const bottomShown = cursor.offset + listHeight >= rows.length;
	const oldestShown = descending ? bottomShown : topShown;
	const newestShown = descending ? topShown : bottomShown;
	const wantOlder = older === 'more' && (seeking === 'oldest' || (seeking === null && oldestShown && allowance.current > 0));
	const wantNewer = !wantOlder && newer === 'more' && seeking === null && newestShown && allowance.current > 0;
	// Once per version while wanted: a page that landed and still leaves that end shown asks again.
	const load = useEffectEvent(() => {
		if (wantOlder && onLoadOlder) {
			allowance.current--;
			onLoadOlder();
		} else if (wantNewer && onLoadNewer) {
			allowance.current--;
			onLoadNewer();
		}
	});
	useEffect(() => {
		load();
	}, [wantOlder, wantNewer, timeline.version]);
	useEffect(() => {
		allowance.current = autoPages;
	}, [options.filter]);

	// While seeking an end, its row stays selected as pages land; the seek ends with the end reached.
	const oldestIndex = descending ? rows.length - 1 : 0;
	const newestIndex = descending ? 0 : rows.length - 1;
	const toOldest = descending ? cursor.last : cursor.first;
	const toNewest = descending ? cursor.first : cursor.last;
	const keepSelected = useEffectEvent(() => {
		if (seeking === 'oldest') {
			if (rows.length > 0 && cursor.selected !== oldestIndex) toOldest();
			if (older === 'none') setSeeking(null);
		} else if (seeking === 'newest' && newer === 'none' && older !== 'loading' && rows.length > 0) {
			// The newest page has landed (a window reset reads it as the first screen).
			if (cursor.selected !== newestIndex) toNewest();
			setSeeking(null);
		}
	});
	useEffect(() => {
		keepSelected();
	}, [seeking, rows, oldestIndex, newestIndex, older, newer]);

	const first = rows[cursor.offset];
	const last = rows[Math.min(rows.length - 1, cursor.offset + listHeight - 1)];
	const range: ShownRange | null =
		cursor.follow || !first || !last
			? null
			: descending
				? {oldest: keyOf(last), newest: keyOf(first)}
				: {oldest: keyOf(first), newest: keyOf(last)};
	const rangeKey = range ? `${range.oldest.id}\u0000${range.newest.id}` : null;
	// Told when the rows on screen change, not when new row objects carry the same ids.
	const reportRange = useEffectEvent(() => onPin?.(range));
	useEffect(() => {
		reportRange();
	}, [rangeKey]);

	return {
		key(action) {
			allowance.current = autoPages;
			setSeeking(null);
			action();
		},
		seekOldest(action) {
			allowance.current = autoPages;
			setSeeking('oldest');
			action();
		},
		seekNewest(action) {
			allowance.current = autoPages;
			if (newer === 'more' && onToNewest) {
				setSeeking('newest');
				onToNewest();
				return;
			}
			setSeeking(null);
			action();
		},
	};
}

function keyOf(event: LoggedEvent): {timestamp: string; id: string} {
	return {timestamp: event.timestamp, id: event.id};
}

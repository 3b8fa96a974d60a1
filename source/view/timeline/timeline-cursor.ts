import {compareEvents} from '../../wire/schemas/events.js';

/**
 * Selection, window and follow mode of the timeline, as a pure reducer. The selection is anchored
 * to an event (id and timestamp), not to an index: history backfilled above it, or new events in
 * descending order, shift indexes, and the selected event must stay put on screen. Everything
 * else (selected index, first visible row) is derived, so there is no state to keep in sync.
 */

export type EventKey = {id: string; timestamp: string};

/** The rows the cursor moves over: the filtered events in display order. */
export type CursorRows = {
	readonly length: number;
	at(index: number): EventKey | undefined;
	/** True when rows run newest first (descending): the newest row is then index 0. */
	readonly descending: boolean;
};

export type CursorState = {
	/** The selected event while not following. */
	anchor: EventKey | null;
	/** Screen row (0-based) where the selection sits; the window is derived from it. */
	screenRow: number;
	/** Follow (tail): the selection sticks to the newest row. */
	follow: boolean;
	/**
	 * The newest row when following stopped, to show how many newer ones arrived since. A key,
	 * not a count: older history read in above (or a window's dropped end read back) is not new.
	 */
	newestAtPause: EventKey | null;
};

export type CursorAction =
	| {type: 'move'; delta: number; rows: CursorRows; height: number}
	| {type: 'page'; direction: 1 | -1; rows: CursorRows; height: number}
	| {type: 'first'; rows: CursorRows; height: number}
	| {type: 'last'; rows: CursorRows; height: number}
	| {type: 'toggle-follow'; rows: CursorRows; height: number}
	/** Select one event (opened from a search hit), mid-window, and stop following. */
	| {type: 'anchor'; key: EventKey; rows: CursorRows; height: number}
	| {type: 'reset'; follow: boolean};

export function initialCursor(follow = true): CursorState {
	return {anchor: null, screenRow: 0, follow, newestAtPause: null};
}

/** Index of `key` in rows sorted by compareEvents (or its reverse), or where it would go. */
export function findRow(rows: CursorRows, key: EventKey): number {
	let low = 0;
	let high = rows.length;
	while (low < high) {
		const middle = (low + high) >>> 1;
		const row = rows.at(middle);
		if (!row) break;
		const order = rows.descending ? compareEvents(key, row) : compareEvents(row, key);
		if (order === 0) return middle;
		if (order < 0) low = middle + 1;
		else high = middle;
	}
	return Math.min(low, Math.max(0, rows.length - 1));
}

/** Rows strictly newer than `key` (all of them when there was none): a binary search. */
export function countNewer(rows: CursorRows, key: EventKey | null): number {
	if (!key) return rows.length;
	let low = 0;
	let high = rows.length;
	// Ascending: the first row after `key`; descending: the first row at or before it.
	while (low < high) {
		const middle = (low + high) >>> 1;
		const row = rows.at(middle)!;
		const newer = compareEvents(row, key) > 0;
		if (rows.descending ? newer : !newer) low = middle + 1;
		else high = middle;
	}
	return rows.descending ? low : rows.length - low;
}

function newestKey(rows: CursorRows): EventKey | null {
	const row = rows.at(newestIndex(rows));
	return row ? {id: row.id, timestamp: row.timestamp} : null;
}

function newestIndex(rows: CursorRows): number {
	return rows.descending ? 0 : Math.max(0, rows.length - 1);
}

export type CursorView = {
	/** Selected row index, -1 when there are no rows. */
	selected: number;
	/** First visible row. */
	offset: number;
	/** Rows that arrived while follow was paused (0 while following). */
	newSincePause: number;
};

function clamp(value: number, low: number, high: number): number {
	return Math.max(low, Math.min(high, value));
}

/** Derives the selected index and the window from the state. O(log n). */
export function cursorView(state: CursorState, rows: CursorRows, height: number): CursorView {
	if (rows.length === 0) return {selected: -1, offset: 0, newSincePause: 0};
	const visible = Math.max(1, height);
	const selected = state.follow || !state.anchor ? newestIndex(rows) : findRow(rows, state.anchor);
	const row = state.follow ? (rows.descending ? 0 : visible - 1) : state.screenRow;
	const offset = clamp(selected - clamp(row, 0, visible - 1), 0, Math.max(0, rows.length - visible));
	const newSincePause = state.follow ? 0 : countNewer(rows, state.newestAtPause);
	return {selected, offset, newSincePause};
}

/** Moves the selection to `target`, keeping the screen row in step so the window scrolls at its edges. */
function select(state: CursorState, rows: CursorRows, height: number, target: number): CursorState {
	const view = cursorView(state, rows, height);
	if (view.selected < 0) return state;
	const index = clamp(target, 0, rows.length - 1);
	const anchor = rows.at(index) ?? null;
	const visible = Math.max(1, height);
	const screenRow = clamp(view.selected - view.offset + (index - view.selected), 0, visible - 1);
	// Moving off the newest row pauses following; the count is taken now so "N new" starts at 0.
	const leavingNewest = index !== newestIndex(rows);
	const follow = state.follow && !leavingNewest;
	return {
		anchor: anchor ? {id: anchor.id, timestamp: anchor.timestamp} : null,
		screenRow,
		follow,
		newestAtPause: state.follow && !follow ? newestKey(rows) : state.newestAtPause,
	};
}

export function cursorReducer(state: CursorState, action: CursorAction): CursorState {
	switch (action.type) {
		case 'move': {
			const {selected} = cursorView(state, action.rows, action.height);
			return select(state, action.rows, action.height, selected + action.delta);
		}

		case 'page': {
			const {selected} = cursorView(state, action.rows, action.height);
			return select(state, action.rows, action.height, selected + action.direction * Math.max(1, action.height - 1));
		}

		case 'first': {
			return select(state, action.rows, action.height, 0);
		}

		case 'last': {
			return select(state, action.rows, action.height, action.rows.length - 1);
		}

		case 'toggle-follow': {
			if (state.follow) {
				const view = cursorView(state, action.rows, action.height);
				const anchor = action.rows.at(view.selected) ?? null;
				return {
					anchor: anchor ? {id: anchor.id, timestamp: anchor.timestamp} : null,
					screenRow: view.selected - view.offset,
					follow: false,
					newestAtPause: newestKey(action.rows),
				};
			}

			return {...state, follow: true, anchor: null};
		}

		case 'anchor': {
			return {anchor: {id: action.key.id, timestamp: action.key.timestamp}, screenRow: Math.floor(action.height / 2), follow: false, newestAtPause: newestKey(action.rows)};
		}

		case 'reset': {
			return initialCursor(action.follow);
		}
	}
}

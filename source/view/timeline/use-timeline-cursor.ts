import {useMemo, useReducer} from 'react';
import type {LoggedEvent} from '../../wire/schemas/events.js';
import {cursorReducer, type CursorRows, cursorView, type CursorView, type EventKey, initialCursor} from './timeline-cursor.js';

export type TimelineCursor = CursorView & {
	follow: boolean;
	move(delta: number): void;
	page(direction: 1 | -1): void;
	first(): void;
	last(): void;
	toggleFollow(): void;
	/** Stop following without moving (opening details must not let the selection run away). */
	pause(): void;
	reset(): void;
	/** Select this event (mid-window) and stop following. */
	jumpTo(key: EventKey): void;
};

/**
 * The timeline cursor over `rows` (filtered, in display order) with a window of `height` rows.
 * Commands are plain closures over the current rows: they are called from key handlers, which
 * the dispatcher re-reads every render.
 */
export function useTimelineCursor(rows: readonly LoggedEvent[], descending: boolean, height: number): TimelineCursor {
	const [state, dispatch] = useReducer(cursorReducer, true, initialCursor);
	const cursorRows = useMemo<CursorRows>(() => ({length: rows.length, at: (index) => rows[index], descending}), [rows, descending]);
	const view = useMemo(() => cursorView(state, cursorRows, height), [state, cursorRows, height]);
	const context = {rows: cursorRows, height};
	return {
		...view,
		follow: state.follow,
		move: (delta) => dispatch({type: 'move', delta, ...context}),
		page: (direction) => dispatch({type: 'page', direction, ...context}),
		first: () => dispatch({type: 'first', ...context}),
		last: () => dispatch({type: 'last', ...context}),
		toggleFollow: () => dispatch({type: 'toggle-follow', ...context}),
		pause: () => {
			if (state.follow) dispatch({type: 'toggle-follow', ...context});
		},
		reset: () => dispatch({type: 'reset', follow: true}),
		jumpTo: (key) => dispatch({type: 'anchor', key, ...context}),
	};
}

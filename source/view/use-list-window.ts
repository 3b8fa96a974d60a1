import {useCallback, useEffect, useMemo, useReducer} from 'react';
import {initialListWindow, type ListWindow, listWindowReducer, resolveWindow} from './list-window.js';

export type ListWindowControls = ListWindow & {
	move(delta: number): void;
	page(direction: 1 | -1): void;
	first(): void;
	last(): void;
	select(key: string): void;
};

/**
 * A keyed selection over `keys` with a window of `height` rows. The caller renders only
 * `keys.slice(offset, offset + height)`.
 */
export function useListWindow(keys: readonly string[], height: number): ListWindowControls {
	const [state, dispatch] = useReducer(listWindowReducer, initialListWindow);
	const window = useMemo(() => resolveWindow(state, keys, height), [state, keys, height]);
	// Adopt the row the window resolved to (the first row before any key was pressed, or the
	// neighbour of a row that vanished), so a later filter change keeps that same item selected.
	useEffect(() => {
		if (window.selectedKey !== null && window.selectedKey !== state.selectedKey) {
			dispatch({type: 'adopt', key: window.selectedKey, expected: state.selectedKey, keys, height});
		}
	}, [window.selectedKey, state.selectedKey, keys, height]);
	const move = useCallback((delta: number) => dispatch({type: 'move', delta, keys, height}), [keys, height]);
	const page = useCallback((direction: 1 | -1) => dispatch({type: 'page', direction, keys, height}), [keys, height]);
	const first = useCallback(() => dispatch({type: 'first', keys, height}), [keys, height]);
	const last = useCallback(() => dispatch({type: 'last', keys, height}), [keys, height]);
	const select = useCallback((key: string) => dispatch({type: 'select', key, keys, height}), [keys, height]);
	return {...window, move, page, first, last, select};
}

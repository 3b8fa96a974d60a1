/**
 * Selection and visible window of a list, as a pure reducer (the Shopify `use-select-state`
 * pattern). The selection is a key, not an index: when rows are re-sorted or filtered, the same
 * item stays selected. The index is remembered too, so when the selected item disappears the
 * selection lands on its neighbour instead of jumping to the top.
 *
 * Until the user picks a row (a move, a page, g/G, a jump to a row), the selection is the top row,
 * whichever that is now: the list is sorted by who needs you, and rows that arrive or change
 * after the first screen re-sort it (a cursor that kept the first row drawn started on row 6).
 */

export type ListWindowState = {
	selectedKey: string | null;
	/** Index of the selection when it was last resolved (fallback when the key is gone). */
	index: number;
	/** First visible row. */
	offset: number;
	/** The user picked the selection; until then it is the top row. */
	chosen?: boolean;
};

export type ListWindow = {
	/** -1 when the list is empty. */
	index: number;
	offset: number;
	selectedKey: string | null;
};

export type ListWindowAction =
	| {type: 'move'; delta: number; keys: readonly string[]; height: number}
	| {type: 'page'; direction: 1 | -1; keys: readonly string[]; height: number}
	| {type: 'first'; keys: readonly string[]; height: number}
	| {type: 'last'; keys: readonly string[]; height: number}
	| {type: 'select'; key: string; keys: readonly string[]; height: number}
	/**
	 * Take the row a render resolved to, only if the selection is still `expected` when this is
	 * reduced: an adoption queued by an effect must never undo a key the user pressed meanwhile.
	 */
	| {type: 'adopt'; key: string; expected: string | null; keys: readonly string[]; height: number};

export const initialListWindow: ListWindowState = {selectedKey: null, index: 0, offset: 0};

const clamp = (value: number, low: number, high: number) => Math.max(low, Math.min(high, value));

/** Where the selection and the window are for these rows, without changing state. */
export function resolveWindow(state: ListWindowState, keys: readonly string[], height: number): ListWindow {
	const rows = Math.max(1, height);
	if (keys.length === 0) return {index: -1, offset: 0, selectedKey: null};
	// Nothing picked yet: the top row. Else where the selection was last time, usually still
	// right: no search through 100,000 keys.
	let index = !state.chosen ? 0 : state.selectedKey === null ? -1 : keys[state.index] === state.selectedKey ? state.index : keys.indexOf(state.selectedKey);
	if (index === -1) index = clamp(state.index, 0, keys.length - 1);
	let offset = clamp(state.offset, index - rows + 1, index);
	offset = clamp(offset, 0, Math.max(0, keys.length - rows));
	return {index, offset, selectedKey: keys[index] ?? null};
}

function at(keys: readonly string[], height: number, index: number, state: ListWindowState, chosen = true): ListWindowState {
	const target = clamp(index, 0, Math.max(0, keys.length - 1));
	return {...resolveWindow({selectedKey: keys[target] ?? null, index: target, offset: state.offset, chosen}, keys, height), index: target, chosen};
}

export function listWindowReducer(state: ListWindowState, action: ListWindowAction): ListWindowState {
	const resolved = resolveWindow(state, action.keys, action.height);
	if (resolved.index === -1) return state;
	const current: ListWindowState = {...resolved, chosen: state.chosen ?? false};
	switch (action.type) {
		case 'move':
			return at(action.keys, action.height, current.index + action.delta, current);
		case 'page': {
			const page = Math.max(1, action.height - 1);
			const next = at(action.keys, action.height, current.index + action.direction * page, current);
			// Scroll the window with the page, as pagers do, so the selection keeps its screen row.
			return {...resolveWindow({...next, offset: current.offset + action.direction * page}, action.keys, action.height), chosen: true};
		}
		case 'first':
			return at(action.keys, action.height, 0, current);
		case 'last':
			return at(action.keys, action.height, action.keys.length - 1, current);
		case 'adopt':
		case 'select': {
			// An adoption applies only if nothing moved since the render that resolved it.
			if (action.type === 'adopt' && state.selectedKey !== action.expected) return state;
			const index = action.keys.indexOf(action.key);
			// Adopting what a render resolved to is no choice of the user's.
			return index === -1 ? state : at(action.keys, action.height, index, current, action.type === 'select' || current.chosen === true);
		}
	}
}

/**
 * The handlers of the keys that move a cursor over a list of `count` rows (↑/↓, home/end, page
 * up/down by `page` rows), for `useKeyHandlers`; `move` clamps to the list.
 */
export function cursorKeys(move: (delta: number) => void, count: number, page: number) {
	return {
		up: () => move(-1),
		down: () => move(1),
		top: () => move(-count),
		bottom: () => move(count),
		pageUp: () => move(-page),
		pageDown: () => move(page),
	};
}

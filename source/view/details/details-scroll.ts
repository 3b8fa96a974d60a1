/**
 * Scroll position of the details viewport as a pure reducer. The offset is clamped on every
 * action against the current line count, which can change under it (a result arrives, the
 * forgotten list is toggled, the terminal is resized).
 */

export type ScrollAction =
	| {type: 'by'; delta: number; lineCount: number; height: number}
	| {type: 'page'; direction: 1 | -1; lineCount: number; height: number}
	| {type: 'top'}
	| {type: 'bottom'; lineCount: number; height: number};

export function maxOffset(lineCount: number, height: number): number {
	return Math.max(0, lineCount - Math.max(1, height));
}

export function clampOffset(offset: number, lineCount: number, height: number): number {
	return Math.max(0, Math.min(maxOffset(lineCount, height), offset));
}

export function scrollReducer(offset: number, action: ScrollAction): number {
	switch (action.type) {
		case 'by': {
			return clampOffset(clampOffset(offset, action.lineCount, action.height) + action.delta, action.lineCount, action.height);
		}

		case 'page': {
			const page = Math.max(1, action.height - 1);
			return clampOffset(clampOffset(offset, action.lineCount, action.height) + action.direction * page, action.lineCount, action.height);
		}

		case 'top': {
			return 0;
		}

		case 'bottom': {
			return maxOffset(action.lineCount, action.height);
		}
	}
}

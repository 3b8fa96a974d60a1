import {cellWidth} from '../format/width.js';

const separator = '  ';

/**
 * The hints that fit in `width` cells, whole (never a hint cut in half). The help hint is kept
 * last whatever the width, because it is how a newcomer finds every other key; the hints before
 * it are dropped from the end, which holds the least specific ones.
 */
export function fitFooterHints(hints: readonly string[], width: number): string {
	const help = hints.find((hint) => hint.endsWith(' help'));
	const rest = hints.filter((hint) => hint !== help);
	const reserved = help ? cellWidth(help) + separator.length : 0;
	const kept: string[] = [];
	let used = 0;
	for (const hint of rest) {
		const cost = (kept.length > 0 ? separator.length : 0) + cellWidth(hint);
		if (used + cost + reserved > width) break;
		kept.push(hint);
		used += cost;
	}
	if (help && cellWidth(help) <= width) kept.push(help);
	return kept.join(separator);
}

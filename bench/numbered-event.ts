/** Keys whose text the timeline shows in an event's row (message text, commands, paths, output). */
const shownKeys = new Set(['text', 'command', 'path']);

/**
 * A copy of a recorded event whose shown text starts with `#n`, so no two rows of a followed
 * stream are alike. Cycling a conversation's history unchanged repeats its rows with the
 * history's period, and the frame differ then finds a short scroll that lines them up: a stream
 * of 11 recorded events at 13 rows a frame looked like a scroll of 2, flattering the traffic
 * figure at low frame rates. Real events do not repeat.
 */
export function numberedCopy<T extends object>(template: T, n: number): T {
	return number(structuredClone(template), `#${n} `) as T;
}

function number(value: unknown, prefix: string): unknown {
	if (Array.isArray(value)) {
		for (const [index, item] of value.entries()) value[index] = number(item, prefix);
		return value;
	}
	if (value === null || typeof value !== 'object') return value;
	const record = value as Record<string, unknown>;
	for (const [key, item] of Object.entries(record)) {
		record[key] = typeof item === 'string' ? (shownKeys.has(key) ? prefix + item : item) : number(item, prefix);
	}
	return record;
}

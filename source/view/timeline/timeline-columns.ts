/**
 * Column layout of a timeline row: `› 10:42:07 agent action      $ pytest -q`. Widths are fixed
 * so rows line up and a row's text can be built without measuring its neighbours; the summary
 * takes what is left. Kind names are shortened
 * for the column by format/event-kind-label.ts.
 */

export type TimelineColumns = {
	gutter: number;
	time: number;
	source: number;
	kind: number;
	summary: number;
};

/** `dated`: the log spans more than one day, so rows of an earlier day show `11-02 10:42` (11 wide). */
export function timelineColumns(width: number, dated = false): TimelineColumns {
	const gutter = 2;
	const time = dated ? 11 : 8;
	// Narrow panes drop the source column first, then shrink the kind column.
	const source = width >= 60 ? 5 : 0;
	const kind = width >= 50 ? 11 : width >= 36 ? 7 : 0;
	const separators = (time > 0 ? 1 : 0) + (source > 0 ? 1 : 0) + (kind > 0 ? 1 : 0);
	const summary = Math.max(0, width - gutter - time - source - kind - separators);
	return {gutter, time, source, kind, summary};
}

const sourceLabels: Record<string, string> = {environment: 'env'};

export function sourceLabel(source: string): string {
	return sourceLabels[source] ?? source;
}

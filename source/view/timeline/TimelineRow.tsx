import {memo} from 'react';
import {Text} from 'ink';
import {paint} from '../../boundary/ink-paint.js';
import type {SummaryTone} from '../../format/event-summary.js';
import {padToWidth, truncateToWidth} from '../../format/width.js';
import {sanitizeLine} from '../../format/sanitize.js';
import {formatDay, formatDayClock} from '../../format/time.js';
import type {LoggedEvent} from '../../wire/schemas/events.js';
import {kindLabel} from '../../format/event-kind-label.js';
import {sourceLabel, type TimelineColumns} from './timeline-columns.js';
import {isCondensationRow, summaryOf} from './summary-cache.js';

export const toneColor: Record<SummaryTone, string | undefined> = {
	normal: undefined,
	error: 'red',
	warn: 'yellow',
	muted: 'gray',
};

type Props = {
	event: LoggedEvent;
	columns: TimelineColumns;
	selected: boolean;
	/** A condensation dropped this event from the agent's view. */
	forgotten: boolean;
	/**
	 * The cursor is following the stream: the selected row is marked in the gutter only, not
	 * inverted. Watching a tail needs no bar jumping down a row per event, and a row that keeps its
	 * colours when the next event pushes it up lets the terminal scroll it (frame-diff.ts) instead
	 * of having it written again.
	 */
	following?: boolean;
	/**
	 * The day of the newest event in the log (`2026-11-28`, format/time.ts formatDay): a row of
	 * another day shows its date (`11-02 10:42`). Null or absent: times only.
	 */
	newestDay?: string | null;
};

/** A fixed-width column and its separator; a zero-width column (narrow pane) disappears. */
function cell(text: string, width: number): string {
	return width > 0 ? `${padToWidth(text, width)} ` : '';
}

/**
 * One timeline row, exactly `columns` wide: one Text holding one string, painted as nested Texts
 * would paint it (boundary/ink-paint.ts). Ink re-styles and re-joins every nested Text of every
 * visible row on every frame; a row held as one string is taken as it is. Memoised: a new event
 * re-renders only the rows whose props changed, and the strings come from the per-event summary
 * cache.
 */
function TimelineRowView({event, columns, selected, forgotten, following = false, newestDay = null}: Props) {
	const bar = selected && !following;
	return (
		<Text inverse={bar} wrap="truncate">
			{paintedTimelineRow(event, columns, selected, forgotten, following, newestDay)}
		</Text>
	);
}

/** The row's text with its colours, as `<Text inverse={selected && !following}>` is to show it. */
function paintedTimelineRow(event: LoggedEvent, columns: TimelineColumns, selected: boolean, forgotten: boolean, following: boolean, newestDay: string | null): string {
	const summary = summaryOf(event);
	// The server's own timestamp says the day; only rows of an earlier day than the newest show it.
	const time = newestDay !== null && formatDay(event.timestamp) !== newestDay ? sanitizeLine(formatDayClock(event.timestamp)) : summary.time;
	const condensation = isCondensationRow(event);
	// The gutter carries the selection (visible without colour) and marks condensations and what they forgot.
	const gutter = `${selected ? '›' : condensation ? '≡' : forgotten ? '·' : ' '} `;
	const text = condensation ? `── ${summary.text} ──` : summary.text;
	const bar = selected && !following;
	return (
		(selected && following ? paint(gutter, {color: 'cyan', bold: true}) : gutter) +
		paint(cell(time, columns.time), {dimColor: true}) +
		paint(cell(sourceLabel(summary.source), columns.source), {color: 'cyan'}) +
		paint(cell(kindLabel(summary.kind), columns.kind), {color: condensation ? 'yellow' : 'blue'}) +
		paint(truncateToWidth(text, columns.summary), {color: toneColor[summary.tone], dimColor: forgotten && !bar})
	);
}

export const TimelineRow = memo(TimelineRowView);

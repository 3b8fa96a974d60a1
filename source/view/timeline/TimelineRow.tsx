import {memo} from 'react';
import {Text} from 'ink';
import type {SummaryTone} from '../../format/event-summary.js';
import {padToWidth, truncateToWidth} from '../../format/width.js';
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
};

/** A fixed-width column and its separator; a zero-width column (narrow pane) disappears. */
function cell(text: string, width: number): string {
	return width > 0 ? `${padToWidth(text, width)} ` : '';
}

/**
 * One timeline row, exactly `columns` wide. Memoised: a new event re-renders only the rows whose
 * props changed, and the strings come from the per-event summary cache.
 */
function TimelineRowView({event, columns, selected, forgotten, following = false}: Props) {
	const summary = summaryOf(event);
	const condensation = isCondensationRow(event);
	// The gutter carries the selection (visible without colour) and marks condensations and what they forgot.
	const gutter = `${selected ? '›' : condensation ? '≡' : forgotten ? '·' : ' '} `;
	const text = condensation ? `── ${summary.text} ──` : summary.text;
	const bar = selected && !following;
	return (
		<Text inverse={bar} wrap="truncate">
			{selected && following ? (
				<Text bold color="cyan">
					{gutter}
				</Text>
			) : (
				gutter
			)}
			<Text dimColor>{cell(summary.time, columns.time)}</Text>
			<Text color="cyan">{cell(sourceLabel(summary.source), columns.source)}</Text>
			<Text color={condensation ? 'yellow' : 'blue'}>{cell(kindLabel(summary.kind), columns.kind)}</Text>
			<Text color={toneColor[summary.tone]} dimColor={forgotten && !bar}>
				{truncateToWidth(text, columns.summary)}
			</Text>
		</Text>
	);
}

export const TimelineRow = memo(TimelineRowView);

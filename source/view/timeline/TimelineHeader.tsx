import {memo} from 'react';
import {Text} from 'ink';
import type {SummaryTone} from '../../format/event-summary.js';
import {formatCount} from '../../format/numbers.js';
import {cellWidth, truncateToWidth} from '../../format/width.js';
import {sanitizeLine} from '../../format/sanitize.js';
import {executionStatusStyle} from '../../format/status-style.js';
import type {StreamHealth} from '../../state/dashboard-types.js';
import {streamLabel} from './stream-label.js';
import {toneColor} from './TimelineRow.js';

type Props = {
	executionStatus: string | null;
	stream: StreamHealth;
	gap: boolean;
	width: number;
	total: number;
	shown: number;
	descending: boolean;
	follow: boolean;
	newSincePause: number;
};

type Segment = {text: string; color: string | undefined; bold?: boolean};

/** Cuts the segments to `width` cells in total, separators included, so the line never wraps. */
function fit(segments: readonly Segment[], width: number): Segment[] {
	const out: Segment[] = [];
	let left = width;
	for (const [index, segment] of segments.entries()) {
		const text = index === 0 ? segment.text : ` · ${segment.text}`;
		if (left <= 0) break;
		const cut = truncateToWidth(text, left);
		out.push({...segment, text: cut});
		left -= cellWidth(cut);
	}

	return out;
}

/**
 * The timeline's status line: execution status (from the stream's state updates), stream health,
 * counts, order, follow state, and a gap warning when a resync could not prove continuity.
 */
function TimelineHeaderView({executionStatus: status, stream: health, gap, width, total, shown, descending, follow, newSincePause}: Props) {
	const stream = streamLabel(health);
	// The raw status (it is what the server says and what filters use), marked and coloured by its style.
	const look = executionStatusStyle(status);
	const tone = (value: SummaryTone) => toneColor[value];
	const segments: Segment[] = [
		{text: status ? `${look.symbol} ${sanitizeLine(status)}` : 'status unknown', color: status ? look.color : tone('muted'), bold: true},
		{text: sanitizeLine(stream.text), color: tone(stream.tone)},
	];
	if (gap) segments.push({text: '⚠ gap: events may be missing', color: tone('error'), bold: true});
	segments.push(
		{text: shown === total ? `${formatCount(total)} events` : `${formatCount(shown)} of ${formatCount(total)} events`, color: undefined},
		{text: descending ? 'newest first' : 'oldest first', color: tone('muted')},
		follow
			? {text: 'following', color: undefined}
			: {text: newSincePause > 0 ? `paused · ${formatCount(newSincePause)} new (f to follow)` : 'paused (f to follow)', color: tone(newSincePause > 0 ? 'warn' : 'muted')},
	);
	return (
		<Text wrap="truncate">
			{fit(segments, width).map((segment, index) => (
				<Text key={index} color={segment.color} bold={segment.bold}>
					{segment.text}
				</Text>
			))}
		</Text>
	);
}

export const TimelineHeader = memo(TimelineHeaderView);

import {Box, Text} from 'ink';
import {memo, useMemo, useReducer, useState} from 'react';
import type {DetailLine, DetailTone} from '../../format/event-detail-document.js';
import {eventDetails} from '../../format/event-details.js';
import {formatCount} from '../../format/numbers.js';
import {truncateToWidth} from '../../format/width.js';
import type {LoggedEvent, WireEvent} from '../../wire/schemas/events.js';
import {useKeyHandlers} from '../use-key-dispatch.js';
import {clampOffset, scrollReducer} from './details-scroll.js';
import {useDetailContext} from './use-detail-context.js';

export type EventDetailsProps = {
	event: WireEvent;
	/** The whole log, for the lookups (matching observation, forgotten events). */
	events: readonly LoggedEvent[];
	width: number;
	height: number;
	/** Answers the `details` key context while true. */
	active: boolean;
	/** `esc`: back to the timeline. */
	onBack(): void;
	/** The zone of naive event times (`UTC+1`), null while unknown: said beside the timestamp. */
	eventZone?: string | null;
	/** Builds the document shown (default `eventDetails`); a test passes one that counts the rows asked for. */
	document?: typeof eventDetails;
};

const toneStyle: Record<DetailTone, {color?: string; bold?: boolean; dimColor?: boolean}> = {
	normal: {},
	heading: {bold: true, color: 'cyan'},
	label: {bold: true},
	error: {color: 'red'},
	warn: {color: 'yellow'},
	muted: {dimColor: true},
	code: {},
};

/**
 * One event in full, in a scrollable viewport: j/k, pgup/pgdn, g/G; enter toggles the list of
 * what a condensation forgot. Only the visible lines are cut out of the document and rendered,
 * each cut to the width, so a 5 MB observation scrolls as fast as a short one.
 */
export function EventDetails({event, events, width, height, active, onBack, eventZone = null, document: build = eventDetails}: EventDetailsProps) {
	const [showForgotten, setShowForgotten] = useState(false);
	const [rawOffset, dispatch] = useReducer(scrollReducer, 0);
	const lookups = useDetailContext(events, event, showForgotten);
	const context = useMemo(() => ({...lookups, zone: eventZone}), [lookups, eventZone]);
	// Rebuilt only when the event, its answer or the width changes; never per scroll step.
	const document = useMemo(() => build(event, width, context), [build, event, width, context]);
	const bodyHeight = Math.max(1, height - 1);
	const {lineCount} = document;
	const offset = clampOffset(rawOffset, lineCount, bodyHeight);
	const size = {lineCount, height: bodyHeight};
	useKeyHandlers(
		'details',
		active
			? {
				up: () => dispatch({type: 'by', delta: -1, ...size}),
				down: () => dispatch({type: 'by', delta: 1, ...size}),
				pageUp: () => dispatch({type: 'page', direction: -1, ...size}),
				pageDown: () => dispatch({type: 'page', direction: 1, ...size}),
				top: () => dispatch({type: 'top'}),
				bottom: () => dispatch({type: 'bottom', ...size}),
				open: () => {
					if (event.kind === 'Condensation') setShowForgotten((value) => !value);
				},
				back: onBack,
			}
			: {},
	);
	const lines = document.lines(offset, offset + bodyHeight);
	const last = Math.min(lineCount, offset + bodyHeight);
	const position = lineCount > bodyHeight ? `${offset + 1}–${last} of ${formatCount(lineCount)} · ` : '';
	return (
		<Box flexDirection="column" width={width} height={height}>
			<Box flexDirection="column" height={bodyHeight} overflow="hidden">
				{lines.map((line, index) => (
					<DetailRow key={offset + index} line={line} width={width} />
				))}
			</Box>
			<Text dimColor wrap="truncate">
				{truncateToWidth(`${position}j/k scroll · g/G top/bottom · esc back`, width)}
			</Text>
		</Box>
	);
}

const DetailRow = memo(function DetailRow({line, width}: {line: DetailLine; width: number}) {
	return (
		<Text {...toneStyle[line.tone]} wrap="truncate">
			{truncateToWidth(line.text, width) || ' '}
		</Text>
	);
});

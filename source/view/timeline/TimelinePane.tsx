import {Box, Text} from 'ink';
import {useEffect, useEffectEvent, useMemo, useRef, useState} from 'react';
import {sanitizeLine} from '../../format/sanitize.js';
import {truncateToWidth} from '../../format/width.js';
import type {TimelineState} from '../../state/dashboard-types.js';
import {distinctKinds, selectTimelineEvents} from '../../state/timeline-query.js';
import {type LoggedEvent, settleEvent} from '../../wire/schemas/events.js';
import {EventDetails} from '../details/EventDetails.js';
import {useKeyHandlers} from '../use-key-dispatch.js';
import {filterLineRows, TimelineFilterLine} from './TimelineFilterLine.js';
import {TimelineHeader} from './TimelineHeader.js';
import {TimelineRow} from './TimelineRow.js';
import {timelineColumns} from './timeline-columns.js';
import {useForgottenIds} from './use-forgotten-ids.js';
import {type TimelineCursor, useTimelineCursor} from './use-timeline-cursor.js';

export type TimelinePaneProps = {
	/** The open conversation's timeline (snapshot.timeline); null when none is open. */
	timeline: TimelineState | null;
	width: number;
	height: number;
	/** The pane has the keyboard: it answers the `timeline` context (and `details` while open). */
	focused: boolean;
	/** The applied filter line (ViewState.timelineFilter). */
	filter: string;
	/** The filter line has the keyboard (ViewState.editing === 'timeline'). */
	editingFilter: boolean;
	/** Event details are shown in place of the list (ViewState.overlay?.kind === 'details'). */
	detailsOpen: boolean;
	onFilterChange(text: string): void;
	/** Text typed (or a kind picked) in the filter line while it is open. */
	onFilterType(text: string): void;
	/** `/`: start editing the filter line. */
	onEditFilter(): void;
	/** Enter on the filter line: keep the filter, stop editing. */
	onFilterDone(): void;
	/** `enter` on a row. */
	onOpenDetails(): void;
	/** `esc` in the details. */
	onCloseDetails(): void;
	/** `esc` with no filter set: back to the conversation list. */
	onBack(): void;
	/** An event to select once it is among the rows (a search hit); cleared through onFocused. */
	focusEvent?: {conversationKey: string; id: string; timestamp: string} | null;
	onFocused?(): void;
	/** The window reached the oldest event held while older ones exist: read the next older page. */
	onLoadOlder?(): void;
	/** The oldest event on screen while not following (null while following): kept in memory. */
	onPin?(key: {timestamp: string; id: string} | null): void;
};

/** Older pages read on their own after a key (a filter that matches few rows fills the screen). */
const autoPages = 10;

/**
 * The events of one conversation, one line each, windowed: only the visible rows are rendered,
 * and the filtered list is memoised on the events array and version, so 100,000 events cost a
 * binary search and a slice per frame. The details of the selected event open in place.
 */
export function TimelinePane(props: TimelinePaneProps) {
	const {timeline, width, height} = props;
	if (!timeline) {
		return (
			<Box height={height} width={width} flexDirection="column">
				<Text dimColor wrap="truncate">
					{truncateToWidth('No conversation open: select one and press enter.', width)}
				</Text>
			</Box>
		);
	}

	// A different conversation starts with a fresh cursor (following its newest event).
	return <OpenTimeline key={timeline.conversationKey} {...props} timeline={timeline} />;
}

function OpenTimeline(props: TimelinePaneProps & {timeline: TimelineState}) {
	const {timeline, width, height, focused, filter, editingFilter, detailsOpen} = props;
	const [descending, setDescending] = useState(false);
	const [pickerOpen, setPickerOpen] = useState(false);
	const {events, version} = timeline;
	const rows = useMemo(() => selectTimelineEvents({events, version}, filter, descending ? 'desc' : 'asc'), [events, version, filter, descending]);
	const kinds = useMemo(() => (editingFilter ? distinctKinds(timeline.events) : []), [timeline.events, editingFilter]);
	const forgotten = useForgottenIds(timeline.events);
	const filterRows = filterLineRows({editing: editingFilter, value: filter, pickerOpen});
	const listHeight = Math.max(1, height - 1 - filterRows);
	const cursor = useTimelineCursor(rows, descending, listHeight);
	const selected: LoggedEvent | undefined = cursor.selected >= 0 ? rows[cursor.selected] : undefined;
	// A search hit opens here: select it as soon as the stream's backfill has brought it.
	const focus = props.focusEvent?.conversationKey === timeline.conversationKey ? props.focusEvent : null;
	const focusOnHit = useEffectEvent(() => {
		if (!focus || !rows.some((event) => event.id === focus.id)) return;
		cursor.jumpTo(focus);
		props.onFocused?.();
	});
	useEffect(() => {
		focusOnHit();
	}, [focus, rows]);
	const columns = useMemo(() => timelineColumns(width), [width]);
	const history = useOlderPages(props, rows, cursor, listHeight, descending);

	useKeyHandlers(
		'timeline',
		focused && !detailsOpen && !editingFilter
			? {
				up: () => history.key(() => cursor.move(-1)),
				down: () => history.key(() => cursor.move(1)),
				pageUp: () => history.key(() => cursor.page(-1)),
				pageDown: () => history.key(() => cursor.page(1)),
				// Towards the oldest event (g ascending, G descending) reads older pages until the first one.
				top: () => (descending ? history.key : history.seek)(() => cursor.first()),
				bottom: () => (descending ? history.seek : history.key)(() => cursor.last()),
				follow: () => history.key(() => cursor.toggleFollow()),
				order: () => setDescending((value) => !value),
				filter: () => props.onEditFilter(),
				open: () => {
					if (!selected) return;
					// Reading an event while new ones stream in must not move the selection.
					cursor.pause();
					props.onOpenDetails();
				},
				back: () => (filter ? props.onFilterChange('') : props.onBack()),
			}
			: {},
	);

	const header = (
		<TimelineHeader
			executionStatus={timeline.executionStatus}
			stored={timeline.stored ?? null}
			older={timeline.older}
			stream={timeline.stream}
			gap={timeline.gap}
			lag={timeline.lag}
			total={timeline.events.length}
			width={width}
			shown={rows.length}
			descending={descending}
			follow={cursor.follow}
			newSincePause={cursor.newSincePause}
		/>
	);

	if (detailsOpen && selected) {
		return (
			<Box height={height} width={width} flexDirection="column">
				{header}
				<EventDetails
					event={settleEvent(selected)}
					events={timeline.events}
					width={width}
					height={Math.max(1, height - 1)}
					active={focused}
					onBack={props.onCloseDetails}
				/>
			</Box>
		);
	}

	const visible = rows.slice(cursor.offset, cursor.offset + listHeight);
	return (
		<Box height={height} width={width} flexDirection="column">
			{header}
			<TimelineFilterLine
				value={filter}
				editing={editingFilter}
				width={width}
				kinds={kinds}
				matches={rows.length}
				pickerOpen={editingFilter && pickerOpen}
				onPickerOpenChange={setPickerOpen}
				onChange={props.onFilterType}
				onDone={() => {
					setPickerOpen(false);
					props.onFilterDone();
				}}
				onCancel={() => {
					setPickerOpen(false);
					props.onFilterChange('');
					props.onFilterDone();
				}}
			/>
			<Box height={listHeight} flexDirection="column" overflow="hidden">
				{visible.length === 0 ? (
					<Text dimColor wrap="truncate">
						{truncateToWidth(emptyText(timeline, filter), width)}
					</Text>
				) : (
					visible.map((event, index) => (
						<TimelineRow
							key={event.id}
							event={event}
							columns={columns}
							selected={focused && cursor.offset + index === cursor.selected}
							forgotten={forgotten.has(event.id)}
							following={cursor.follow}
						/>
					))
				)}
			</Box>
		</Box>
	);
}

/**
 * Reading older history as the user reaches it. When the window shows the oldest event held and
 * older ones exist, the next page is asked for; a key press allows a few pages in a row, so a
 * filter matching few events fills the screen, and `g` (to the oldest) keeps reading until the
 * conversation's first event, the selection kept on the oldest row as pages land. Every other key
 * stops that. Also reports the oldest visible event, so a long follow never drops what is shown.
 */
function useOlderPages(props: TimelinePaneProps & {timeline: TimelineState}, rows: readonly LoggedEvent[], cursor: TimelineCursor, listHeight: number, descending: boolean) {
	const {timeline, onLoadOlder, onPin} = props;
	const older = timeline.older?.state ?? 'none';
	const allowance = useRef(autoPages);
	const [seeking, setSeeking] = useState(false);
	const oldestShown = descending ? cursor.offset + listHeight >= rows.length : cursor.offset === 0;
	const wanted = older === 'more' && (seeking || (oldestShown && allowance.current > 0));
	// Once per version while wanted: a page that landed and still leaves the top shown asks again.
	const loadOlder = useEffectEvent(() => {
		if (!wanted || !onLoadOlder) return;
		allowance.current--;
		onLoadOlder();
	});
	useEffect(() => {
		loadOlder();
	}, [wanted, timeline.version]);
	useEffect(() => {
		allowance.current = autoPages;
	}, [props.filter]);
	useEffect(() => {
		if (seeking && older === 'none') setSeeking(false);
	}, [seeking, older]);
	// While seeking the top, the oldest row stays selected as older pages land above it.
	const oldestIndex = descending ? rows.length - 1 : 0;
	const keepOldestSelected = useEffectEvent(() => {
		if (seeking && rows.length > 0 && cursor.selected !== oldestIndex) (descending ? cursor.last : cursor.first)();
	});
	useEffect(() => {
		keepOldestSelected();
	}, [seeking, rows, oldestIndex]);
	const pinned = cursor.follow ? null : rows[descending ? Math.min(rows.length - 1, cursor.offset + listHeight - 1) : cursor.offset];
	const pinId = pinned?.id ?? null;
	// Told when the pinned row changes, not when a new row object carries the same id.
	const reportPin = useEffectEvent(() => onPin?.(pinned ? {timestamp: pinned.timestamp, id: pinned.id} : null));
	useEffect(() => {
		reportPin();
	}, [pinId]);
	return {
		key(action: () => void) {
			allowance.current = autoPages;
			setSeeking(false);
			action();
		},
		seek(action: () => void) {
			allowance.current = autoPages;
			setSeeking(true);
			action();
		},
	};
}

function emptyText(timeline: TimelineState, filter: string): string {
	if (timeline.events.length === 0) {
		return timeline.stream.state === 'backfilling' || timeline.stream.state === 'idle' ? 'Loading events…' : 'No events yet.';
	}

	return `No events match "${sanitizeLine(filter)}" (esc clears the filter).`;
}

import {Box, Text} from 'ink';
import {useEffect, useEffectEvent, useMemo, useState} from 'react';
import {sanitizeLine} from '../../format/sanitize.js';
import {truncateToWidth} from '../../format/width.js';
import type {ShownRange, TimelineState} from '../../state/dashboard-types.js';
import {distinctKinds, selectTimelineEvents} from '../../state/timeline-query.js';
import {type LoggedEvent, settleEvent} from '../../wire/schemas/events.js';
import {EventDetails} from '../details/EventDetails.js';
import {useKeyHandlers} from '../use-key-dispatch.js';
import {usePager} from '../use-pager.js';
import {eventJson} from '../../format/event-json.js';
import {filterLineRows, TimelineFilterLine} from './TimelineFilterLine.js';
import {TimelineHeader} from './TimelineHeader.js';
import {TimelineRow} from './TimelineRow.js';
import {timelineColumns} from './timeline-columns.js';
import {formatDay} from '../../format/time.js';
import {useForgottenIds} from './use-forgotten-ids.js';
import {useHistoryPages} from './use-history-pages.js';
import {useTimelineCursor} from './use-timeline-cursor.js';

export type TimelinePaneProps = {
	/** The open conversation's timeline (snapshot.timeline); null when none is open. */
	timeline: TimelineState | null;
	/** The zone of the naive event times (`UTC+1`), null while unknown: said with the times. */
	eventZone?: string | null;
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
	/** A line for the notice (the pager's outcome). */
	onNotice?(text: string, level?: 'info' | 'warn'): void;
	/** The window reached the oldest event held while older ones exist: read the next older page. */
	onLoadOlder?(): void;
	/** The window reached the newest event held while newer ones were dropped: read the next newer page. */
	onLoadNewer?(): void;
	/** `G` past newer events that were dropped: read the newest page again. */
	onToNewest?(): void;
	/** What is on screen while not following (null while following): kept in memory. */
	onPin?(range: ShownRange | null): void;
};

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
	// Dates show when the log spans days: its first and last events' days differ (server timestamps).
	const oldestDay = formatDay(events[0]?.timestamp);
	const newestDay = formatDay(events.at(-1)?.timestamp);
	const dated = oldestDay !== null && newestDay !== null && oldestDay !== newestDay;
	const columns = useMemo(() => timelineColumns(width, dated), [width, dated]);
	const history = useHistoryPages({
		timeline,
		filter,
		rows,
		cursor,
		listHeight,
		descending,
		onLoadOlder: props.onLoadOlder,
		onLoadNewer: props.onLoadNewer,
		onToNewest: props.onToNewest,
		onPin: props.onPin,
	});

	const pager = usePager((text, level) => props.onNotice?.(text, level));
	const pageSelected = () => (selected ? pager(eventJson(settleEvent(selected)), 'the event\'s JSON') : props.onNotice?.('No event selected: nothing to show in the pager.'));
	useKeyHandlers('details', focused && detailsOpen ? {pager: pageSelected} : {});
	useKeyHandlers(
		'timeline',
		focused && !detailsOpen && !editingFilter
			? {
				pager: pageSelected,
				up: () => history.key(() => cursor.move(-1)),
				down: () => history.key(() => cursor.move(1)),
				pageUp: () => history.key(() => cursor.page(-1)),
				pageDown: () => history.key(() => cursor.page(1)),
				// Towards the oldest event (g ascending, G descending) reads older pages until the first
				// one; towards the newest, past a dropped newest end, reads the newest page again.
				top: () => (descending ? history.seekNewest : history.seekOldest)(() => cursor.first()),
				bottom: () => (descending ? history.seekOldest : history.seekNewest)(() => cursor.last()),
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
			goal={timeline.goal ?? null}
			stored={timeline.stored ?? null}
			older={timeline.older}
			newer={timeline.newer}
			stream={timeline.stream}
			gap={timeline.gap}
			lag={timeline.lag}
			total={timeline.events.length}
			width={width}
			shown={rows.length}
			descending={descending}
			follow={cursor.follow}
			newSincePause={cursor.newSincePause}
			eventZone={props.eventZone ?? null}
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
					eventZone={props.eventZone ?? null}
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
							newestDay={dated ? newestDay : null}
						/>
					))
				)}
			</Box>
		</Box>
	);
}

function emptyText(timeline: TimelineState, filter: string): string {
	if (timeline.events.length === 0) {
		return timeline.stream.state === 'backfilling' || timeline.stream.state === 'idle' ? 'Loading events…' : 'No events yet.';
	}

	return `No events match "${sanitizeLine(filter)}" (esc clears the filter).`;
}

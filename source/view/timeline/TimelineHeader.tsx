import {memo} from 'react';
import {Text} from 'ink';
import type {SummaryTone} from '../../format/event-summary.js';
import {formatCount} from '../../format/numbers.js';
import {cellWidth, truncateToWidth} from '../../format/width.js';
import {sanitizeLine} from '../../format/sanitize.js';
import {executionStatusStyle} from '../../format/status-style.js';
import type {StreamHealth} from '../../state/dashboard-types.js';
import type {StreamLag} from '../../state/stream-lag.js';
import {formatAge} from '../../format/time.js';
import type {HistoryEndStatus} from '../../state/history-pager.js';
import {streamLabel} from './stream-label.js';
import type {GoalState} from '../../wire/goal.js';
import {goalNeedsLook, goalWords} from '../../format/goal.js';
import {toneColor} from './TimelineRow.js';
import {useNow} from '../use-now.js';

type Props = {
	executionStatus: string | null;
	/** The goal loop's newest state, when the log holds one (`goal 3/10 running`). */
	goal?: GoalState | null;
	/** The events are the stored copy (sandbox not RUNNING): marked first, with how to go live. */
	stored?: {sandboxStatus: string} | null;
	/** Older events exist that are not loaded yet (counts and filters cover the loaded ones). */
	older?: HistoryEndStatus;
	/** Newer events exist that are not loaded: reading far back dropped them to bound memory. */
	newer?: HistoryEndStatus | undefined;
	stream: StreamHealth;
	gap: boolean;
	/** The stream's own lag behind the server (not the list's polling age). */
	lag?: StreamLag | undefined;
	/** Our clock, for how long a stream that went down has been behind (defaults to Date.now()). */
	now?: number;
	width: number;
	total: number;
	shown: number;
	descending: boolean;
	follow: boolean;
	newSincePause: number;
	/** The zone of the rows' naive times (`UTC+1`), said first; null while it is not known (`server-local`). */
	eventZone?: string | null;
};

/** Lag worth a warning: a dropped socket is usually replaced within a second or two. */
const behindWarningMs = 2000;

type Segment = {text: string; color: string | undefined; bold?: boolean};

/** The cells the segments take, separators included. */
function usedWidth(segments: readonly Segment[]): number {
	return segments.reduce((sum, segment, index) => sum + cellWidth(segment.text) + (index === 0 ? 0 : 3), 0);
}

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
 * The timeline's status line: the zone of the rows' times, execution status (from the stream's
 * state updates), stream health and lag, a gap warning when a resync could not prove continuity,
 * whether the rows follow the stream, counts and order.
 */
function TimelineHeaderView({executionStatus: status, goal, stored, older, newer, stream: health, gap, lag, now, width, total, shown, descending, follow, newSincePause, eventZone = null}: Props) {
	const stream = stored ? storedLabel(stored.sandboxStatus) : streamLabel(health);
	// The raw status (it is what the server says and what filters use), marked and coloured by its style.
	const look = executionStatusStyle(status);
	const tone = (value: SummaryTone) => toneColor[value];
	const statusText = status ? `${look.symbol} ${stored ? 'last ' : ''}${sanitizeLine(status)}` : 'status unknown';
	const segments: Segment[] = [
		{text: statusText, color: status ? look.color : tone('muted'), bold: true},
		{text: sanitizeLine(stream.text), color: tone(stream.tone)},
	];
	// While the stream is down its "behind" grows with no prop changing: a clock ticks only then.
	const down = !stored && health.state !== 'live' && (lag?.behindSince ?? null) !== null;
	const clock = useNow(1000, down && now === undefined);
	const behind = stored ? null : lagSegment(health, lag, now ?? clock);
	if (behind) segments.push(behind);
	// Stored history: the mark comes first, it is what the user must know before reading on.
	if (stored) segments.reverse();
	// The rows' times are the agent server's wall clock: in which zone. First, right above the time
	// column, where nothing after it can push it out (at the end it was the first thing cut).
	segments.unshift({text: eventZone ?? 'server-local', color: tone('muted')});
	if (gap) segments.push({text: '⚠ gap: events may be missing', color: tone('error'), bold: true});
	// Whether the rows move with the stream, right after the stream itself: when they do not, how
	// many arrived below is what the reader is missing. Not "paused": that word is an agent's
	// status and a sandbox's; here only the scrolling stopped.
	const held = newSincePause > 0 ? `not following · ${formatCount(newSincePause)} new` : 'not following';
	segments.push(follow ? {text: 'following', color: undefined} : {text: held, color: tone(newSincePause > 0 ? 'warn' : 'muted')});
	// While older events are not loaded, every count (and filter) covers the loaded ones: say so.
	const olderPartial = older !== undefined && older.state !== 'none';
	const newerPartial = newer !== undefined && newer.state !== 'none';
	const noun = olderPartial || newerPartial ? 'loaded events' : 'events';
	segments.push({text: shown === total ? `${formatCount(total)} ${noun}` : `${formatCount(shown)} of ${formatCount(total)} ${noun}`, color: undefined});
	// The newer end first: it is the one a reader of the old end is missing, and `G` is the way back.
	if (newer && newerPartial) segments.push(endSegment(newer, 'newer'));
	if (older && olderPartial) segments.push(endSegment(older, 'older'));
	segments.push({text: descending ? 'newest first' : 'oldest first', color: tone('muted')});
	// The key that follows again, where it fits whole (the footer names it too).
	if (!follow && usedWidth(segments) + 3 + cellWidth('f to follow') <= width) segments.push({text: 'f to follow', color: tone('muted')});
	// The goal loop's round (`goal 3/10 running`): after everything about the stream, and only
	// whole where it fits (a narrow pane leaves it out; the list's row and the goal rows say it).
	const goalText = goal ? goalWords(goal) : null;
	const used = usedWidth(segments);
	if (goal && goalText && used + 3 + cellWidth(goalText) <= width) segments.push({text: goalText, color: tone(goalNeedsLook(goal) ? 'warn' : 'normal') ?? 'cyan'});
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

/**
 * The stream's lag: `lag <1s` while live and current, `⚠ 4s behind` in the warning colour when
 * the newest event came late or the stream has been down that long (stream-lag.ts).
 */
export function lagSegment(health: StreamHealth, lag: StreamLag | undefined, now: number): Segment | null {
	if (!lag) return null;
	const warn = (ms: number): Segment => ({text: `⚠ ${formatAge(ms)} behind`, color: toneColor.warn, bold: true});
	if (health.state === 'live') {
		if (lag.lagMs === null) return null;
		return lag.lagMs >= behindWarningMs ? warn(lag.lagMs) : {text: `lag ${lag.lagMs < 1000 ? '<1s' : formatAge(lag.lagMs)}`, color: toneColor.muted};
	}
	if (lag.behindSince === null) return null;
	const since = Math.max(0, now - lag.behindSince);
	return since >= behindWarningMs ? warn(since) : null;
}

/** The stored-history mark: which sandbox status keeps the stream away, and how to go live if one can. */
export function storedLabel(sandboxStatus: string): {text: string; tone: SummaryTone} {
	const status = sanitizeLine(sandboxStatus);
	if (sandboxStatus === 'PAUSED') return {text: `stored history · sandbox ${status} · r resume to go live`, tone: 'warn'};
	if (sandboxStatus === 'STARTING') return {text: `stored history · sandbox ${status} · goes live when it runs`, tone: 'warn'};
	return {text: `stored history · sandbox ${status}`, tone: 'warn'};
}

function endSegment(end: HistoryEndStatus, which: 'older' | 'newer'): Segment {
	const scroll = which === 'older' ? 'scroll up' : 'scroll down';
	switch (end.state) {
		case 'loading': {
			return {text: `loading ${which}…`, color: toneColor.muted};
		}

		case 'failed': {
			return {text: `${which}: ${sanitizeLine(end.lastError ?? 'failed')} (${scroll} to retry)`, color: toneColor.error};
		}

		default: {
			return which === 'older' ? {text: 'older on scroll up', color: toneColor.muted} : {text: 'newer on scroll down · G newest', color: toneColor.warn};
		}
	}
}

export const TimelineHeader = memo(TimelineHeaderView);

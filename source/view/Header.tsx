import {memo} from 'react';
import {Text} from 'ink';
import {sanitizeLine} from '../format/sanitize.js';
import {cellWidth, truncateToWidth} from '../format/width.js';
import type {ConversationCounts} from '../state/conversation-query.js';
import type {ConnectionState, ServerState} from '../state/dashboard-types.js';
import {formatCost} from '../format/numbers.js';
import {formatAge} from '../format/time.js';
import {budgetShareText, budgetText, healthText, serverHealthShort} from './health-text.js';
import {countSegments} from './status-counts.js';
import {useNow} from './use-now.js';

type Props = {
	serverLabel: string;
	/** Where the key came from, named when the server rejects it. */
	keySource?: string | null;
	demo: boolean;
	connection: ConnectionState;
	/** The all-servers view: each server's own health, named, in place of one. */
	servers?: readonly ServerState[] | undefined;
	counts: ConversationCounts;
	invalidItems: number;
	width: number;
};

type Segment = {text: string; color?: string | undefined; backgroundColor?: string; bold?: boolean; keep?: number};

/** Cuts segments so their total width is at most `width` (the header never wraps). */
export function fitSegments(segments: readonly Segment[], width: number): Segment[] {
	const out: Segment[] = [];
	let left = width;
	for (const segment of segments) {
		if (left <= 0) break;
		const text = truncateToWidth(segment.text, left);
		out.push({...segment, text});
		left -= cellWidth(text);
	}
	return out;
}

/**
 * Fits the header by importance rather than position: while too wide, the segment with the
 * lowest `keep` goes first (status counts, then the simulator word, the budget and invalid-item
 * notes, then the clock note; never the health or the need-you count), then whatever is left is cut at the end.
 */
export function fitByImportance(segments: readonly Segment[], width: number): Segment[] {
	const shown = [...segments];
	const total = () => shown.reduce((sum, segment) => sum + cellWidth(segment.text), 0);
	while (total() > width) {
		let lowest = -1;
		for (const [index, segment] of shown.entries()) {
			if (segment.keep === undefined) continue;
			if (lowest === -1 || segment.keep < shown[lowest]!.keep!) lowest = index;
		}
		if (lowest === -1) break;
		shown.splice(lowest, 1);
	}
	return fitSegments(shown, width);
}

/** Offsets smaller than this are clock noise and not worth a word on screen. */
const noticeableOffsetMs = 60_000;

/**
 * `data clock 21d behind` when the clock that wrote the data is off ours by more than a minute
 * (`server clock …` while it is only the `Date` headers' estimate), else null.
 */
export function clockOffsetText(offsetMs: number, source: 'data' | 'date-header' | 'none' = 'date-header'): string | null {
	if (Math.abs(offsetMs) <= noticeableOffsetMs) return null;
	// The estimate is good to about a second either way: to the nearest minute, so a server 21 days
	// behind does not read "20d" when the estimate lands a second short.
	const shown = Math.round(Math.abs(offsetMs) / 60_000) * 60_000;
	return `${source === 'data' ? 'data clock' : 'server clock'} ${formatAge(shown)} ${offsetMs < 0 ? 'behind' : 'ahead'}`;
}

/**
 * How the ages on screen are known (state/age-basis.ts), when worth a word: `data clock not known`
 * (ages `?`), `… ages assumed` (told on the Date header, nothing confirming it), or the offset of
 * a confirmed clock that is off ours; null when ages are known on a clock within a second of ours.
 */
export function ageClockText(connection: Pick<ConnectionState, 'agesUnverified' | 'agesAssumed' | 'clockOffsetMs' | 'clockSource'>): string | null {
	if (connection.agesUnverified) return 'data clock not known';
	const offset = clockOffsetText(connection.clockOffsetMs, connection.clockSource);
	if (connection.agesAssumed) return offset ? `${offset}, ages assumed` : 'ages assumed (Date header)';
	return offset;
}

/**
 * The top line: where we are connected (or the DEMO badge), connection health with data age, how
 * many conversations need you, the servers' clock when it is off ours, and how many conversations
 * are in each status, in words. On a narrow terminal the counts go first and the need-you count
 * last of all.
 */
function HeaderImpl({serverLabel, keySource, demo, connection, servers, counts, invalidItems, width}: Props) {
	// The header alone re-renders every second, for the data age.
	const now = useNow(1000);
	const health = healthText(connection, now, keySource ?? null);
	const budget = budgetText(connection);
	const segments: Segment[] = [];
	if (demo) segments.push({text: ' DEMO ', color: 'black', backgroundColor: 'yellow', bold: true}, {text: ' simulator ', keep: 3});
	if (servers) {
		// Every server's own health: one of them down is that server's news, not the whole view's.
		segments.push({text: `${servers.length} servers `, bold: true}, {text: '│', color: 'gray'});
		for (const [index, server] of servers.entries()) {
			const own = serverHealthShort(server.connection, now);
			segments.push({text: `${index === 0 ? ' ' : ' · '}${truncateToWidth(sanitizeLine(server.name), 12)} `, bold: true}, {text: own.text, color: own.color, bold: own.color === 'red'});
			// Every age of this server's rows is told on its own clock: when that is off, said here
			// (the merged connection's offset is 0 in this view, so the note below never shows).
			const offset = server.connection.agesUnverified ? 'clock not known' : ageClockText(server.connection);
			if (offset) segments.push({text: ` ⏱ ${offset.replace(/^(?:data|server) clock /, '')}`, color: 'yellow', keep: 5});
		}
	} else {
		if (!demo) segments.push({text: `${truncateToWidth(sanitizeLine(serverLabel), Math.max(8, Math.floor(width / 5)))} `, bold: true});
		segments.push({text: '│ ', color: 'gray'}, {text: health.text, color: health.color, bold: health.color === 'red'});
	}
	if (budget) segments.push({text: ` · ${budget}`, color: 'yellow', keep: 4});
	const shared = budgetShareText(connection);
	if (shared) segments.push({text: ` · ${shared}`, color: 'gray', keep: 3});
	if (invalidItems > 0) segments.push({text: ` · ⚠ ${invalidItems} invalid`, color: 'yellow', keep: 4});
	segments.push({text: ' │ ', color: 'gray'});
	const needYou = counts.needingAttention;
	segments.push(needYou > 0 ? {text: `! ${needYou} need you`, color: 'yellow', bold: true} : {text: '0 need you', color: 'gray'});
	// While the data disputes the only clock there is, ages read `?` and this says why; while they
	// rest on the Date header alone, it says they are assumed.
	const clock = ageClockText(connection);
	// Above the budget and invalid-item notes: every age on screen depends on it.
	if (clock) segments.push({text: ` · ⏱ ${clock}`, color: 'yellow', keep: 5});
	// The counts: the last ones go first when space runs out.
	// "No conversations" only when the list was read: not over unreadable rows or a list never loaded.
	const listUnknown = invalidItems > 0 || connection.lastSuccessAt === null;
	const countList = countSegments(counts).filter((count) => !(listUnknown && count.text === 'no conversations'));
	// The fleet's spend per hour, beside what needs you: it gives way to the counts of statuses
	// that need you, and outlasts the others.
	if (typeof counts.costPerHour === 'number') {
		const needing = countList.filter((count) => count.attention).length;
		segments.push({text: ` · ${formatCost(counts.costPerHour)}/h`, color: counts.costPerHour > 0 ? 'cyan' : 'gray', keep: 1 - (needing - 0.5) / (countList.length + 1)});
	}
	for (const [index, count] of countList.entries()) {
		segments.push({text: `${index === 0 ? ' │ ' : ' '}${count.text}`, color: count.color, bold: count.attention, keep: 1 - index / (countList.length + 1)});
	}
	return (
		<Text wrap="truncate">
			{fitByImportance(segments, width).map((segment, index) => (
				<Text key={index} color={segment.color} backgroundColor={segment.backgroundColor} bold={segment.bold}>
					{segment.text}
				</Text>
			))}
		</Text>
	);
}

export const Header = memo(HeaderImpl);

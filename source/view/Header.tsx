import {memo} from 'react';
import {Text} from 'ink';
import {sanitizeLine} from '../format/sanitize.js';
import {cellWidth, truncateToWidth} from '../format/width.js';
import type {ConversationCounts} from '../state/conversation-query.js';
import type {ConnectionState} from '../state/dashboard-types.js';
import {budgetText, healthText} from './health-text.js';
import {countSegments} from './status-counts.js';
import {useNow} from './use-now.js';

type Props = {
	serverLabel: string;
	demo: boolean;
	connection: ConnectionState;
	counts: ConversationCounts;
	invalidItems: number;
	width: number;
};

type Segment = {text: string; color?: string | undefined; backgroundColor?: string; bold?: boolean};

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
 * The top line: where we are connected (or the DEMO badge), connection health with data age,
 * and how many conversations are in each status, in words.
 */
function HeaderImpl({serverLabel, demo, connection, counts, invalidItems, width}: Props) {
	// The header alone re-renders every second, for the data age.
	const now = useNow(1000);
	const health = healthText(connection, now);
	const budget = budgetText(connection);
	const segments: Segment[] = [];
	if (demo) segments.push({text: ' DEMO ', color: 'black', backgroundColor: 'yellow', bold: true}, {text: ' simulator '});
	else segments.push({text: `${sanitizeLine(serverLabel)} `, bold: true});
	segments.push({text: '│ ', color: 'gray'}, {text: health.text, color: health.color, bold: health.color === 'red'});
	if (budget) segments.push({text: ` · ${budget}`, color: 'yellow'});
	if (invalidItems > 0) segments.push({text: ` · ⚠ ${invalidItems} invalid`, color: 'yellow'});
	segments.push({text: ' │ ', color: 'gray'});
	for (const [index, count] of countSegments(counts).entries()) {
		segments.push({text: `${index > 0 ? ' ' : ''}${count.text}`, color: count.color, bold: count.attention});
	}
	return (
		<Text wrap="truncate">
			{fitSegments(segments, width).map((segment, index) => (
				<Text key={index} color={segment.color} backgroundColor={segment.backgroundColor} bold={segment.bold}>
					{segment.text}
				</Text>
			))}
		</Text>
	);
}

export const Header = memo(HeaderImpl);

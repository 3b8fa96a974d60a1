import {memo} from 'react';
import {Text} from 'ink';
import {cellWidth, truncateToWidth} from '../format/width.js';
import type {ConversationSortKey} from '../state/dashboard-types.js';
import type {PaneId} from './view-state.js';

type Props = {
	pane: PaneId;
	width: number;
	conversations: number;
	/** False until the first walk has read every page of the list: the count is then only so far. */
	listed?: boolean;
	sandboxes: number;
	/** Title of the open timeline, sanitized; null when none is open. */
	timelineTitle: string | null;
	sort: ConversationSortKey;
	/** In the wide layout the list and the timeline are both on screen. */
	wide: boolean;
	/** `z` shows one pane on a terminal wide enough for two. */
	zoomed?: boolean;
	needingAttention: number;
};

/**
 * The pane tabs. The focused one is bracketed as well as highlighted, so it is visible without
 * colour; the right side shows the conversation sort and how many need attention. Until every
 * page of the list is in, the conversation count says it is only so far (and the attention count
 * is a lower bound).
 */
function TabBarImpl({pane, width, conversations, listed = true, sandboxes, timelineTitle, sort, wide, zoomed = false, needingAttention}: Props) {
	// Pages still coming (the first frame may hold page 1 of several): the counts are so far, and said so.
	const partial = !listed && conversations > 0;
	const tabs: Array<{id: PaneId; label: string}> = [
		{id: 'conversations', label: `1 Conversations (${conversations}${partial ? ' so far, reading more…' : ''})`},
		{id: 'sandboxes', label: `2 Sandboxes (${sandboxes})`},
		{id: 'timeline', label: `3 Timeline${timelineTitle ? `: ${truncateToWidth(timelineTitle, wide ? 40 : 16)}` : ''}`},
	];
	const right = `${zoomed ? 'zoomed (z) · ' : ''}${needingAttention > 0 ? `${needingAttention}${partial ? '+' : ''} need you (n) · ` : ''}sort: ${sort} (o)`;
	const parts: Array<{text: string; focused: boolean}> = tabs.map((tab) => ({
		text: tab.id === pane ? `[${tab.label}]` : ` ${tab.label} `,
		focused: tab.id === pane,
	}));
	const tabsWidth = parts.reduce((sum, part) => sum + cellWidth(part.text) + 1, 0);
	const room = width - tabsWidth;
	const rightText = room > cellWidth(right) + 1 ? right : '';
	let left = width;
	return (
		<Text wrap="truncate">
			{parts.map((part, index) => {
				const text = truncateToWidth(`${part.text} `, Math.max(0, left));
				left -= cellWidth(text);
				return (
					<Text key={index} bold={part.focused} inverse={part.focused} color={part.focused ? 'cyan' : undefined}>
						{text}
					</Text>
				);
			})}
			{rightText ? (
				<Text dimColor>
					{' '.repeat(Math.max(0, room - cellWidth(rightText)))}
					{rightText}
				</Text>
			) : null}
		</Text>
	);
}

export const TabBar = memo(TabBarImpl);

import {memo, useMemo} from 'react';
import {Text} from 'ink';
import type {ConversationCells} from './conversation-cells.js';
import {paint} from '../boundary/ink-paint.js';

type Props = {
	cells: ConversationCells;
	selected: boolean;
	/** The pane has the keyboard: the selection is drawn in reverse video, otherwise only marked. */
	focused: boolean;
};

/**
 * One conversation, one line: one Text node holding one string, painted as nested Texts would
 * paint it (ink-paint.ts) and only when the cells or the selection change. `memo` skips rows
 * whose cells object did not change.
 */
function ConversationRowViewImpl({cells, selected, focused}: Props) {
	const line = useMemo(() => paintedRow(cells, selected), [cells, selected]);
	return (
		<Text wrap="truncate" inverse={selected && focused} bold={selected}>
			{line}
		</Text>
	);
}

/** The row's text with its colours. The marker keeps the selection visible without colour (NO_COLOR, monochrome terminals). */
export function paintedRow(cells: ConversationCells, selected: boolean): string {
	const marker = (selected ? '› ' : '  ') + (cells.server ? paint(cells.server, {color: cells.serverColor}) : '');
	// A stale server's rows are its last known state: dim, after a yellow `! server`.
	if (cells.stale && !selected) return marker + paint(cells.status + cells.sandbox + cells.reason + cells.title + cells.rest + cells.usage + cells.tail, {dimColor: true});
	return (
		marker +
		paint(cells.status, {color: cells.statusColor}) +
		paint(cells.sandbox, {color: cells.sandboxColor}) +
		(cells.reason ? paint(cells.reason, {color: cells.reasonColor}) : '') +
		(cells.context && !selected ? paint(cells.title, {dimColor: true}) : cells.title) +
		paint(cells.rest, {dimColor: !selected}) +
		paint(cells.usage, {color: cells.usageColor, dimColor: !selected && !cells.usageColor}) +
		paint(cells.tail, {dimColor: !selected})
	);
}

export const ConversationRowView = memo(ConversationRowViewImpl);

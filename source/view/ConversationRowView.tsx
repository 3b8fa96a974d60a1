import {memo} from 'react';
import {Text} from 'ink';
import type {ConversationCells} from './conversation-cells.js';

type Props = {
	cells: ConversationCells;
	selected: boolean;
	/** The pane has the keyboard: the selection is drawn in reverse video, otherwise only marked. */
	focused: boolean;
};

/**
 * One conversation, one line. All strings are precomputed and fixed-width, so this renders one
 * Text node; `memo` skips rows whose cells object did not change.
 */
function ConversationRowViewImpl({cells, selected, focused}: Props) {
	// The marker keeps the selection visible without colour (NO_COLOR, monochrome terminals).
	return (
		<Text wrap="truncate" inverse={selected && focused} bold={selected}>
			{selected ? '› ' : '  '}
			<Text color={cells.statusColor}>{cells.status}</Text>
			{cells.reason ? <Text color={cells.reasonColor}>{cells.reason}</Text> : null}
			{cells.title}
			<Text dimColor={!selected}>{cells.rest}</Text>
			<Text color={cells.usageColor} dimColor={!selected && !cells.usageColor}>
				{cells.usage}
			</Text>
			<Text dimColor={!selected}>{cells.tail}</Text>
		</Text>
	);
}

export const ConversationRowView = memo(ConversationRowViewImpl);

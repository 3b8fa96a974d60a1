import {memo} from 'react';
import {Text} from 'ink';
import type {SandboxCells} from './sandbox-cells.js';

type Props = {cells: SandboxCells; selected: boolean; focused: boolean};

/** One sandbox, one line of precomputed cells. */
function SandboxRowViewImpl({cells, selected, focused}: Props) {
	return (
		<Text wrap="truncate" inverse={selected && focused} bold={selected}>
			{selected ? '› ' : '  '}
			{cells.server ? <Text color={cells.serverColor}>{cells.server}</Text> : null}
			<Text color={cells.statusColor}>{cells.status}</Text>
			<Text dimColor={!selected}>{cells.middle}</Text>
			{cells.flag ? <Text color={cells.flagColor}>{cells.flag}</Text> : null}
			{cells.uses}
		</Text>
	);
}

export const SandboxRowView = memo(SandboxRowViewImpl);

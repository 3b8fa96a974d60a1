import {useState} from 'react';
import {Box, Text} from 'ink';
import TextInput from 'ink-text-input';
import type {DashboardSnapshot} from '../../state/dashboard-types.js';
import {cleanFilterText} from '../FilterLine.js';
import {line} from '../cells.js';
import {useKeyHandlers} from '../use-key-dispatch.js';
import {bulkItemLine, type BulkAction, confirmationMatches} from './bulk-plan.js';

type Props = {
	action: BulkAction;
	sandboxKeys: readonly string[];
	skipped: number;
	/** The live snapshot: item results are read from each sandbox's status and pending action. */
	snapshot: Pick<DashboardSnapshot, 'sandboxes' | 'conversations'>;
	width: number;
	height: number;
	onRun(sandboxKeys: readonly string[]): void;
	onClose(): void;
};

/**
 * `P` / `R` over the current filter: which sandboxes and how many, a typed confirmation (the count
 * or the word) so a stray enter never pauses a fleet, then each sandbox's result as it comes.
 */
export function BulkPanel(props: Props) {
	const {action, sandboxKeys, skipped, snapshot, width, height} = props;
	const [typed, setTyped] = useState('');
	const [asked, setAsked] = useState(false);
	const [offset, setOffset] = useState(0);
	const count = sandboxKeys.length;
	const listHeight = Math.max(1, height - 3);
	const maxOffset = Math.max(0, count - listHeight);
	const scroll = (delta: number) => setOffset((current) => Math.min(maxOffset, Math.max(0, current + delta)));
	const matches = confirmationMatches(typed, action, count);
	useKeyHandlers('prompt', {
		send: () => {
			if (asked || count === 0) props.onClose();
			else if (matches) {
				setAsked(true);
				props.onRun(sandboxKeys);
			}
		},
		cancel: props.onClose,
		up: () => scroll(-1),
		down: () => scroll(1),
		pageUp: () => scroll(-listHeight),
		pageDown: () => scroll(listHeight),
	});

	const verb = action === 'pause' ? 'Pause' : 'Resume';
	const items = sandboxKeys.map((key) => bulkItemLine(snapshot, action, key, asked));
	const failed = items.filter((item) => item.color === 'red').length;
	const settled = items.filter((item) => item.settled).length;
	const skippedText = skipped > 0 ? ` (${skipped} skipped: ${action === 'pause' ? 'not running' : 'not paused'} or busy)` : '';
	const title = count === 0 ? `Nothing to ${action} among the conversations shown${skippedText}.` : `${verb} ${count} sandbox${count === 1 ? '' : 'es'} of the conversations shown${skippedText}`;
	const range = count > listHeight ? ` · ${offset + 1}-${Math.min(count, offset + listHeight)} of ${count}` : '';
	const status = asked ? `${settled} of ${count} done · ${failed} failed · enter/esc closes` : count === 0 ? 'enter/esc closes' : `↑/↓ scroll${range} · enter confirms · esc cancels`;
	return (
		<Box flexDirection="column" width={width} height={height} overflow="hidden">
			<Text bold wrap="truncate">
				{line(title, width)}
			</Text>
			<Box flexDirection="column" height={listHeight} overflow="hidden">
				{items.slice(offset, offset + listHeight).map((item, index) => (
					<Text key={sandboxKeys[offset + index]} color={item.color} wrap="truncate">
						{line(`  ${item.text}`, width)}
					</Text>
				))}
			</Box>
			{asked || count === 0 ? (
				<Text wrap="truncate"> </Text>
			) : (
				<Box height={1} width={width} overflow="hidden">
					<Text color={matches ? 'green' : 'cyan'}>{line(`Type ${count} or ${action} to confirm: `, width)}</Text>
					<Box flexGrow={1} height={1} overflow="hidden">
						<TextInput value={typed} placeholder="" onChange={(text) => setTyped(cleanFilterText(text))} />
					</Box>
				</Box>
			)}
			<Text dimColor wrap="truncate">
				{line(status, width)}
			</Text>
		</Box>
	);
}

import {Box, Text} from 'ink';
import {TextField} from './TextField.js';
import {sanitizeLine} from '../format/sanitize.js';
import {cellWidth, truncateToWidth} from '../format/width.js';
import {useKeyHandlers} from './use-key-dispatch.js';

type Props = {
	value: string;
	editing: boolean;
	width: number;
	placeholder: string;
	/** Shown at the right: `3 of 42`. */
	counter: string;
	onChange(text: string): void;
	/** Enter: keep the filter, give the keyboard back to the list. */
	onDone(): void;
	/** Esc: clear the filter and give the keyboard back. */
	onCancel(): void;
	/** ↑/↓ while typing move the list selection, so a match can be picked without leaving the line. */
	onMove(delta: number): void;
};

/**
 * A one-line filter (`/`). While editing, printable keys go to the text input and only the
 * `filter` context of the keymap applies (enter, esc, arrows, ctrl-c), so typing `q` types a q.
 * When not editing, an applied filter stays visible so a short list never looks like data loss.
 */
export function FilterLine(props: Props) {
	const {value, editing, width, placeholder, counter} = props;
	useKeyHandlers(
		'filter',
		editing
			? {
				applyFilter: props.onDone,
				back: props.onCancel,
				up: () => props.onMove(-1),
				down: () => props.onMove(1),
			}
			: {},
	);
	const right = ` ${counter}`;
	if (!editing) {
		const hint = ' · esc clears';
		return (
			<Text wrap="truncate">
				<Text color="cyan">/ </Text>
				{truncateToWidth(sanitizeLine(value), Math.max(0, width - 2 - cellWidth(right) - cellWidth(hint)))}
				<Text dimColor>{truncateToWidth(right + hint, Math.max(0, width - 2 - cellWidth(value)))}</Text>
			</Text>
		);
	}

	return (
		<Box height={1} width={width} overflow="hidden">
			<Text color="cyan">/ </Text>
			<Box flexGrow={1} height={1} overflow="hidden">
				<TextField value={value} placeholder={placeholder} onChange={props.onChange} selectAll />
			</Box>
			<Text dimColor>{right}</Text>
		</Box>
	);
}

import {Box, Text} from 'ink';
import {TextField} from '../TextField.js';
import SelectInput from 'ink-select-input';
import {useMemo} from 'react';
import {formatCount} from '../../format/numbers.js';
import {sanitizeLine} from '../../format/sanitize.js';
import {truncateToWidth} from '../../format/width.js';
import {useKeyHandlers} from '../use-key-dispatch.js';
import {pickerKinds, withKind} from './filter-text.js';

/** Rows of the kind picker when open (plus one for the filter line itself). */
export const pickerRows = 6;

/** How many rows the filter area takes, so the pane can give the rest to the list. */
export function filterLineRows(options: {editing: boolean; value: string; pickerOpen: boolean}): number {
	if (!options.editing) return options.value.trim() ? 1 : 0;
	return 1 + (options.pickerOpen ? pickerRows : 1);
}

type Props = {
	value: string;
	editing: boolean;
	width: number;
	/** Kinds present in the timeline (distinctKinds), offered by the picker. */
	kinds: readonly string[];
	/** Rows that pass the filter, shown while typing. */
	matches: number;
	pickerOpen: boolean;
	onPickerOpenChange(open: boolean): void;
	onChange(text: string): void;
	onDone(): void;
	onCancel(): void;
};

/**
 * The `/` filter line. While editing, text goes to the input; ↓ moves into a picker of the kinds
 * present (ink-select-input), whose choice completes or appends `kind:Name`. Enter keeps the
 * filter, esc clears it (or, in the picker, returns to the text).
 */
export function TimelineFilterLine(props: Props) {
	const {value, editing, width, kinds, matches, pickerOpen, onPickerOpenChange, onChange, onDone, onCancel} = props;
	useKeyHandlers(
		'filter',
		editing
			? {
				// Enter in the picker is the picker's own (onSelect); only the text line submits.
				applyFilter: () => (pickerOpen ? undefined : onDone()),
				back: () => (pickerOpen ? onPickerOpenChange(false) : onCancel()),
				down: () => (pickerOpen ? undefined : onPickerOpenChange(kinds.length > 0)),
			}
			: {},
	);
	const items = useMemo(
		() =>
			pickerKinds(kinds, value).map((kind) => ({
				key: kind,
				value: kind,
				label: truncateToWidth(sanitizeLine(kind), Math.max(1, width - 4)),
			})),
		[kinds, value, width],
	);
	if (!editing) {
		if (!value.trim()) return null;
		return (
			<Text dimColor wrap="truncate">
				{truncateToWidth(`/ ${sanitizeLine(value)}`, width)}
			</Text>
		);
	}

	const counter = ` ${formatCount(matches)} match${matches === 1 ? '' : 'es'}`;
	return (
		<Box flexDirection="column" width={width}>
			<Box height={1} overflow="hidden">
				<Text color="cyan">/ </Text>
				<Box flexGrow={1} height={1} overflow="hidden">
					<TextField value={value} focus={!pickerOpen} placeholder="kind:ActionEvent source:agent pytest" onChange={onChange} selectAll />
				</Box>
				<Text dimColor>{counter}</Text>
			</Box>
			{pickerOpen ? (
				<Box height={pickerRows} flexDirection="column" overflow="hidden">
					{items.length === 0 ? (
						<Text dimColor>no kind matches · esc back</Text>
					) : (
						<SelectInput
							items={items}
							limit={Math.min(pickerRows, items.length)}
							isFocused
							onSelect={(item) => {
								onChange(withKind(value, item.value));
								onPickerOpenChange(false);
							}}
						/>
					)}
				</Box>
			) : (
				<Text dimColor wrap="truncate">
					{truncateToWidth(kinds.length > 0 ? '↓ pick a kind · enter keep · esc clear' : 'enter keep · esc clear', width)}
				</Text>
			)}
		</Box>
	);
}

import {Box, Text} from 'ink';
import {TextField} from '../TextField.js';
import {sanitizeLine} from '../../format/sanitize.js';
import {truncateToWidth} from '../../format/width.js';

type Props = {
	value: string;
	placeholder: string;
	width: number;
	focused: boolean;
	onChange(value: string): void;
};

/** A one-row input of fixed width inside a line (plugin fields); unfocused, a cut preview. */
export function InlineInput({value, placeholder, width, focused, onChange}: Props) {
	return (
		<Box width={width} height={1} overflow="hidden" flexDirection="column" justifyContent="flex-end">
			{focused ? (
				<TextField value={value} placeholder={placeholder} onChange={onChange} />
			) : (
				<Text dimColor={!value} underline wrap="truncate">
					{truncateToWidth(value ? sanitizeLine(value) : placeholder, width)}
				</Text>
			)}
		</Box>
	);
}

import {Box, Text} from 'ink';
import {TextField} from '../TextField.js';
import {sanitizeLine} from '../../format/sanitize.js';
import {padToWidth, truncateToWidth} from '../../format/width.js';

type Props = {
	label: string;
	labelWidth: number;
	value: string;
	placeholder: string;
	width: number;
	/** Rows the field may use; a longer value shows its end (where the cursor is). */
	rows?: number;
	focused: boolean;
	onChange(value: string): void;
};

/**
 * A labelled text field. Only the focused field is a TextField (which renders its whole
 * value); the others show a sanitized, width-cut preview, so a long pasted value costs one line.
 */
export function FormField({label, labelWidth, value, placeholder, width, rows = 1, focused, onChange}: Props) {
	const inputWidth = Math.max(1, width - labelWidth - 2);
	return (
		<Box width={width}>
			<Text color={focused ? 'cyan' : undefined} bold={focused}>
				{focused ? '›' : ' '} {padToWidth(label, labelWidth - 2)}
			</Text>
			<Box width={inputWidth} height={focused ? rows : 1} flexDirection="column" justifyContent="flex-end" overflow="hidden">
				{focused ? (
					<TextField value={value} placeholder={placeholder} onChange={onChange} />
				) : (
					<Text dimColor={!value} wrap="truncate">
						{truncateToWidth(value ? sanitizeLine(value) : placeholder, inputWidth)}
					</Text>
				)}
			</Box>
		</Box>
	);
}

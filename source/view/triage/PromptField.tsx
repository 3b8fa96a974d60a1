import {Box, Text} from 'ink';
import {line} from '../cells.js';
import {TextField} from '../TextField.js';

/**
 * The one-line field of a prompt over the pane area (a message, a reason, a question, a search),
 * with its label, and under it the dim line that says what enter and esc do now.
 */
export function PromptField(props: {label: string; value: string; placeholder: string; onChange(text: string): void; hint: string; width: number}) {
	return (
		<>
			<Box height={1} width={props.width} overflow="hidden">
				<Text color="cyan">{props.label}</Text>
				<Box flexGrow={1} height={1} overflow="hidden">
					<TextField value={props.value} placeholder={props.placeholder} onChange={props.onChange} />
				</Box>
			</Box>
			<Text dimColor wrap="truncate">
				{line(props.hint, props.width)}
			</Text>
		</>
	);
}

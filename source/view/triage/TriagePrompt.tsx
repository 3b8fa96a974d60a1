import {useState} from 'react';
import {Box, Text} from 'ink';
import {TextField} from '../TextField.js';
import {cleanFilterText} from '../FilterLine.js';
import {line} from '../cells.js';
import {useKeyHandlers} from '../use-key-dispatch.js';

type Props = {
	purpose: 'reject' | 'nudge';
	/** Sanitized title of the conversation it goes to. */
	title: string;
	width: number;
	height: number;
	onSend(text: string): void;
	onCancel(): void;
};

const labels = {
	reject: {ask: 'Reject the pending actions of', field: 'reason (optional): ', placeholder: 'why, for the agent'},
	nudge: {ask: 'Send a message to', field: 'message: ', placeholder: 'what the agent should do next'},
};

/**
 * The one-line field behind `x` (a rejection reason, may stay empty) and `m` (a message, must not).
 * Enter sends, esc cancels; printable keys are text (the `prompt` context binds none).
 */
export function TriagePrompt({purpose, title, width, height, onSend, onCancel}: Props) {
	const [text, setText] = useState('');
	const label = labels[purpose];
	const empty = purpose === 'nudge' && text.trim().length === 0;
	useKeyHandlers('prompt', {
		send: () => {
			if (!empty) onSend(text.trim());
		},
		cancel: onCancel,
	});
	return (
		<Box flexDirection="column" width={width} height={height} overflow="hidden">
			<Text bold wrap="truncate">
				{line(`${label.ask} ${title}`, width)}
			</Text>
			<Box height={1} width={width} overflow="hidden">
				<Text color="cyan">{label.field}</Text>
				<Box flexGrow={1} height={1} overflow="hidden">
					<TextField value={text} placeholder={label.placeholder} onChange={(value) => setText(cleanFilterText(value))} />
				</Box>
			</Box>
			<Text dimColor wrap="truncate">
				{line(empty ? 'Type a message, then enter sends it · esc cancels' : 'enter sends · esc cancels', width)}
			</Text>
		</Box>
	);
}

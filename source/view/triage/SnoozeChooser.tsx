import {useState} from 'react';
import {Box, Text} from 'ink';
import {sanitizeLine} from '../../format/sanitize.js';
import {line} from '../cells.js';
import {keyOf} from '../keymap.js';
import {useKeyHandlers} from '../use-key-dispatch.js';

/** The choices, as the chooser lists them: until it changes first (`s` again takes it). */
export const snoozeChoices: ReadonlyArray<{label: string; until: 'change' | number}> = [
	{label: 'until it changes (a new event, status or cause)', until: 'change'},
	{label: 'for 1 hour', until: 3_600_000},
	{label: 'for 1 day', until: 86_400_000},
	{label: 'for a week', until: 7 * 86_400_000},
];

type Props = {
	/** What is snoozed, in words: a conversation's title or a group's cause and count. */
	title: string;
	width: number;
	height: number;
	/** `change`, or how long (ms). */
	onPick(until: 'change' | number): void;
	onCancel(): void;
};

/** `s`: how long to snooze. Enter takes the chosen line, `s` again until it changes, esc cancels. */
export function SnoozeChooser(props: Props) {
	const [index, setIndex] = useState(0);
	const move = (delta: number) => setIndex((current) => Math.min(snoozeChoices.length - 1, Math.max(0, current + delta)));
	useKeyHandlers('snooze', {
		up: () => move(-1),
		down: () => move(1),
		open: () => props.onPick(snoozeChoices[index]!.until),
		snooze: () => props.onPick('change'),
		back: props.onCancel,
	});
	return (
		<Box flexDirection="column" width={props.width} height={props.height} overflow="hidden">
			<Text bold wrap="truncate">
				{line(`Snooze ${sanitizeLine(props.title)}: out of !, n/N and the alerts`, props.width)}
			</Text>
			{snoozeChoices.map((choice, position) => (
				<Text key={choice.label} inverse={position === index} wrap="truncate">
					{line(`${position === index ? '› ' : '  '}${choice.label}`, props.width)}
				</Text>
			))}
			<Text dimColor wrap="truncate">
				{line(`${keyOf('unsnooze')} on a row ends its snooze; the filter "snoozed" lists them.`, props.width)}
			</Text>
		</Box>
	);
}

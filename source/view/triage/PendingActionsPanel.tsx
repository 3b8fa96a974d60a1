import {Box, Text} from 'ink';
import type {LoggedEvent} from '../../wire/schemas/events.js';
import {line} from '../cells.js';
import {pendingActionLines} from './pending-action-lines.js';

/** Rows the panel takes above the timeline: a title and at most this many actions. */
export const pendingPanelMaxActions = 3;

export function pendingPanelRows(events: readonly LoggedEvent[] | null): number {
	if (events === null) return 0;
	return 1 + Math.min(pendingPanelMaxActions, Math.max(1, pendingActionLines(events, 1).length));
}

type Props = {events: readonly LoggedEvent[]; width: number};

/**
 * What the open conversation waits for you to approve: shown above its timeline while it waits
 * for confirmation, with the keys that answer it.
 */
export function PendingActionsPanel({events, width}: Props) {
	const lines = pendingActionLines(events, width);
	const shown = lines.slice(0, pendingPanelMaxActions);
	const more = lines.length - shown.length;
	const title = `Waiting for you: ${lines.length} action${lines.length === 1 ? '' : 's'}${more > 0 ? ` (${more} more)` : ''} · a approve · x reject · m message`;
	return (
		<Box flexDirection="column" width={width} flexShrink={0}>
			<Text color="yellow" bold wrap="truncate">
				{line(title, width)}
			</Text>
			{shown.length === 0 ? (
				<Text dimColor wrap="truncate">
					{line('Loading the pending actions…', width)}
				</Text>
			) : (
				shown.map((entry, index) => (
					<Text key={index} color={entry.color} wrap="truncate">
						{entry.text}
					</Text>
				))
			)}
		</Box>
	);
}

import {useEffect, useEffectEvent, useState} from 'react';
import {Box, Text} from 'ink';
import {sanitizeLine} from '../../format/sanitize.js';
import type {DashboardController, DashboardSnapshot} from '../../state/dashboard-types.js';
import {pendingActions, type PendingAction} from '../../state/timeline-query.js';
import {line} from '../cells.js';
import {useKeyHandlers} from '../use-key-dispatch.js';
import {actionQuestion, highRiskWarning, riskSummary} from './action-question.js';
import {pendingActionLines} from './pending-action-lines.js';

type Props = {
	verb: 'approve' | 'reject';
	conversationKey: string;
	/** Sanitized, short. */
	title: string;
	snapshot: Pick<DashboardSnapshot, 'timeline'>;
	controller: Pick<DashboardController, 'pendingActions'>;
	width: number;
	height: number;
	/** `y` with the actions on screen: they are what the answer acts on. */
	onYes(actions: readonly PendingAction[]): void;
	onNo(): void;
	/** `y` before the actions could be shown: nothing is done, and this says why. */
	onRefused(text: string): void;
};

type Loaded = {state: 'loading'} | {state: 'ready'; actions: readonly PendingAction[]} | {state: 'failed'; reason: string};

/**
 * The question behind `a` and `x`: what the conversation waits for (tool, command or arguments,
 * risk, one line each), how many and how risky, then y/n. While the actions load, or when they
 * cannot be read, `y` does nothing. The server's answer (`respond_to_confirmation`) names no
 * action: it covers whatever is pending when it arrives, so an action that came after the
 * question was drawn is answered too (onYes gets what was shown; nothing checks it again yet).
 * The open conversation's actions come from its timeline; any other's are read from its agent
 * server.
 */
export function ActionConfirm(props: Props) {
	const {verb, conversationKey, title, snapshot, controller, width, height} = props;
	const open = snapshot.timeline?.conversationKey === conversationKey ? snapshot.timeline : null;
	const [fetched, setFetched] = useState<Loaded>({state: 'loading'});
	// Read once per conversation, and again only when its timeline closes (open turns null).
	const readPending = useEffectEvent(() => {
		if (open) return undefined;
		let current = true;
		const read = controller.pendingActions?.(conversationKey);
		if (!read) {
			setFetched({state: 'failed', reason: 'this server connection cannot read them; open the conversation (enter) to see them'});
			return undefined;
		}
		read.then(
			(actions) => current && setFetched({state: 'ready', actions}),
			(error: unknown) => current && setFetched({state: 'failed', reason: error instanceof Error ? error.message : String(error)}),
		);
		return () => {
			current = false;
		};
	});
	const timelineClosed = open === null;
	useEffect(() => readPending(), [conversationKey, timelineClosed]);
	const loaded: Loaded = open ? {state: 'ready', actions: pendingActions(open.events)} : fetched;
	const actions = loaded.state === 'ready' ? loaded.actions : [];

	useKeyHandlers('confirm', {
		confirmYes: () => {
			if (loaded.state === 'ready' && actions.length > 0) props.onYes(actions);
			else if (loaded.state === 'ready') props.onRefused(`${title} has no pending action to ${verb}.`);
			else props.onRefused(`Nothing ${verb === 'approve' ? 'approved' : 'rejected'}: the pending actions are not on screen yet.`);
		},
		confirmNo: props.onNo,
	});

	const warning = loaded.state === 'ready' ? highRiskWarning(verb, actions) : null;
	const listRows = Math.max(1, height - 3 - (warning ? 1 : 0));
	const lines = pendingActionLines(actions as PendingAction[], width - 2);
	const shown = lines.slice(0, listRows);
	const more = lines.length - shown.length;
	const status =
		loaded.state === 'loading'
			? 'Reading the pending actions…'
			: loaded.state === 'failed'
				? `Cannot show the pending actions: ${sanitizeLine(loaded.reason)}`
				: actions.length === 0
					? 'No pending action found (it may have been answered meanwhile).'
					: `${riskSummary(actions)}${more > 0 ? ` (${more} more not shown)` : ''}`;
	return (
		<Box flexDirection="column" width={width} height={height} overflow="hidden">
			<Text bold color="yellow" wrap="truncate">
				{line(`${loaded.state === 'ready' && actions.length > 0 ? actionQuestion(verb, title, actions) : `${verb === 'approve' ? 'Approve' : 'Reject'} the pending actions of ${title}?`} [y/n]`, width)}
			</Text>
			{warning ? (
				<Text bold color="red" wrap="truncate">
					{line(warning, width)}
				</Text>
			) : null}
			<Text dimColor={loaded.state !== 'failed'} color={loaded.state === 'failed' ? 'red' : undefined} wrap="truncate">
				{line(status, width)}
			</Text>
			{shown.map((entry, index) => (
				<Text key={index} color={entry.color} bold={entry.color === 'red'} wrap="truncate">
					{line(`  ${entry.text}`, width)}
				</Text>
			))}
		</Box>
	);
}

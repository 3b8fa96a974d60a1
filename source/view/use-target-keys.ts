import {useEffect, type Dispatch} from 'react';
import type {DashboardController, DashboardSnapshot} from '../state/dashboard-types.js';
import {awaitedList, awaitingText} from './awaited-key.js';
import {keyOf} from './keymap.js';
import {sandboxKeyActions} from './sandbox-key-actions.js';
import {triageKeyActions} from './triage/triage-key-actions.js';
import type {ListWindowControls} from './use-list-window.js';
import type {ViewCommands} from './view-commands.js';
import type {PaneId, TargetVerb, ViewAction, ViewState} from './view-state.js';

/**
 * Keys on one conversation or sandbox (p r i c a x m d l), planned over the lists the server
 * sends. Pressed before the list its plan reads has arrived, a key waits for it (the notice says
 * so) and is planned once, when it has: never "not loaded, try again". Esc cancels it.
 */
export function useTargetKeys(args: {
	view: ViewState;
	dispatch: Dispatch<ViewAction>;
	commands: ViewCommands;
	snapshot: DashboardSnapshot;
	controller: DashboardController;
	conversationKeys: readonly string[];
	conversations: ListWindowControls;
	sandboxes: ListWindowControls;
}) {
	const {view, dispatch, commands, snapshot, conversations, sandboxes} = args;
	const {say, openOverlay} = commands;
	const sandbox = sandboxKeyActions(args);
	const triage = triageKeyActions(args);

	const plan = (verb: TargetVerb, pane: PaneId, key: string | null | undefined) => {
		switch (verb) {
			case 'pause':
			case 'resume':
				sandbox.askOn(verb, pane, key);
				return;
			case 'interrupt':
			case 'continueAgent':
				triage.askAgent(verb, key);
				return;
			case 'approve':
			case 'reject':
			case 'nudge':
				triage.triage(verb, key);
				return;
			case 'changes':
				if (key) openOverlay({kind: 'changes', conversationKey: key, file: null});
				else say('Select a conversation first.');
				return;
			case 'links':
				if (key) openOverlay({kind: 'links', conversationKey: key});
				else say('No conversation selected.');
		}
	};
	const act = (verb: TargetVerb, pane: PaneId, key: string | null | undefined) => {
		const list = awaitedList(snapshot, verb, pane, key);
		if (list === null) {
			plan(verb, pane, key);
			return;
		}
		dispatch({type: 'await-key', awaited: {verb, pane, key: key ?? null, overlay: null, notice: awaitingText(verb, list)}, at: Date.now()});
	};
	const selectedIn = (pane: PaneId) => (pane === 'sandboxes' ? sandboxes.selectedKey : pane === 'conversations' ? conversations.selectedKey : snapshot.timeline?.conversationKey);
	// The awaited key, once its lists are there and the user is back where it was pressed.
	useEffect(() => {
		const awaited = view.awaited;
		if (!awaited || (view.overlay?.kind ?? null) !== awaited.overlay) return;
		const key = awaited.key ?? selectedIn(awaited.pane);
		if (awaitedList(snapshot, awaited.verb, awaited.pane, key) !== null) return;
		dispatch({type: 'awaited'});
		plan(awaited.verb, awaited.pane, key);
	});

	const on = (pane: PaneId, key: () => string | null | undefined) => ({
		agent: {
			interrupt: () => act('interrupt', pane, key()),
			continueAgent: () => act('continueAgent', pane, key()),
			links: () => act('links', pane, key()),
		},
		triage: {
			approve: () => act('approve', pane, key()),
			reject: () => act('reject', pane, key()),
			nudge: () => act('nudge', pane, key()),
			ask: () => triage.openAsk(key()),
		},
		sandbox: {
			pause: () => act('pause', pane, key()),
			resume: () => act('resume', pane, key()),
		},
		changes: () => act('changes', pane, key()),
	});

	return {
		on,
		openBulk: sandbox.openBulk,
		runRetryable: triage.runRetryable,
		/** Esc: a waiting key is cancelled first. */
		cancelAwaited: (): boolean => {
			if (!view.awaited) return false;
			dispatch({type: 'awaited'});
			say(`Cancelled: ${keyOf(view.awaited.verb)} will not act when the list arrives.`);
			return true;
		},
	};
}

import type {Dispatch} from 'react';
import type {DashboardController, DashboardSnapshot} from '../state/dashboard-types.js';
import {shortTitle} from '../state/triage-plan.js';
import {wideColumns} from './layout.js';
import {runAgentControl} from './triage/run-agent-control.js';
import {useKeyHandlers, type KeyRegistry} from './use-key-dispatch.js';
import type {ViewCommands} from './view-commands.js';
import type {ViewAction, ViewState} from './view-state.js';

/**
 * The dashboard's keys that hold wherever the focus is (quit, help, profiles, panes, zoom,
 * refresh, start), and the y/n question's answer (use-dashboard-keys.ts has the panes' own).
 */
export function useGlobalKeys(args: {
	registry: KeyRegistry;
	view: ViewState;
	commands: ViewCommands;
	dispatch: Dispatch<ViewAction>;
	snapshot: DashboardSnapshot;
	controller: DashboardController;
	roomForTwo: boolean;
	onQuit(): void;
	onAllProfiles?: (() => void) | undefined;
}): void {
	const {registry, view, commands, dispatch, snapshot, controller} = args;
	const {say, openOverlay, closeOverlay, focus} = commands;
	const defaults = {registry, fallback: true};
	useKeyHandlers('always', {forceQuit: args.onQuit}, defaults);
	useKeyHandlers(
		'global',
		{
			quit: args.onQuit,
			help: () => openOverlay({kind: 'help'}),
			profiles: () => openOverlay({kind: 'profiles'}),
			allProfiles: () => (args.onAllProfiles ? args.onAllProfiles() : say('Every profile at once needs the dashboard started by agent-tui.')),
			nextPane: () => dispatch({type: 'cycle-pane', direction: 1}),
			previousPane: () => dispatch({type: 'cycle-pane', direction: -1}),
			paneConversations: () => focus('conversations'),
			paneSandboxes: () => focus('sandboxes'),
			paneTimeline: () => focus('timeline'),
			zoom: () => {
				if (!args.roomForTwo && !view.zoomed) {
					say(`One pane at a time already: panes sit side by side from ${wideColumns} columns.`);
					return;
				}
				dispatch({type: 'toggle-zoom'});
			},
			refresh: () => {
				controller.refresh();
				say('Refreshing…');
			},
			start: () => {
				controller.resetStart();
				openOverlay({kind: 'start'});
			},
		},
		defaults,
	);
	useKeyHandlers(
		'confirm',
		{
			confirmYes: () => {
				const overlay = view.overlay;
				closeOverlay();
				if (overlay?.kind !== 'confirm') return;
				const request = overlay.request;
				if ('conversationKey' in request) {
					// runAgentControl reports every outcome on the notice line itself.
					void runAgentControl(controller, request.action, {conversationKey: request.conversationKey, title: shortTitle(snapshot, request.conversationKey)}, say);
					return;
				}
				// The store reports failures itself (pending.error, notice); nothing to catch here but the promise.
				const run = request.action === 'pause' ? controller.pauseSandbox(request.sandboxKey) : controller.resumeSandbox(request.sandboxKey);
				run.catch(() => undefined);
			},
			confirmNo: () => {
				closeOverlay();
				say('Cancelled.');
			},
		},
		defaults,
	);
	useKeyHandlers('start', {back: closeOverlay}, defaults);
}

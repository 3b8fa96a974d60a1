import type {Dispatch} from 'react';
import type {DashboardController, DashboardSnapshot} from '../../state/dashboard-types.js';
import {sanitizeLine} from '../../format/sanitize.js';
import {snoozeText} from '../../state/snoozes.js';
import {shortTitle} from '../../state/triage-plan.js';
import type {ViewAction} from '../view-state.js';
import {sayOn} from '../view-commands.js';

/**
 * `s` and `u` on the conversations list: `s` asks how long (SnoozeChooser), `u` ends a snooze.
 * The snooze itself is the controller's (state/snoozed-dashboard.ts): kept per server, on disk.
 */
export function snoozeHandlers(args: {snapshot: DashboardSnapshot; controller: DashboardController; dispatch: Dispatch<ViewAction>; selectedKey: () => string | null | undefined}) {
	const {snapshot, controller, dispatch} = args;
	const notice = sayOn(dispatch);
	return {
		snooze: () => {
			const key = args.selectedKey();
			if (!controller.snooze) return notice('Snoozing is not available here.');
			if (!key || !snapshot.conversations.has(key)) return notice('Select a conversation first.');
			dispatch({type: 'open-overlay', overlay: {kind: 'snooze', title: shortTitle(snapshot, key), conversationKeys: [key], fromQueue: false}});
		},
		unsnooze: () => {
			const key = args.selectedKey();
			if (!key || !controller.unsnooze) return notice('Select a conversation first.');
			notice(controller.unsnooze(key) ? `Unsnoozed ${shortTitle(snapshot, key)}: back in the queue.` : `${shortTitle(snapshot, key)} is not snoozed.`);
		},
	};
}

/** The chooser's pick: every conversation it was opened on, snoozed; the notice says until when. */
export function applySnooze(controller: DashboardController, keys: readonly string[], pick: 'change' | number, title: string): string {
	if (!controller.snooze) return 'Snoozing is not available here.';
	const until = pick === 'change' ? 'change' : Date.now() + pick;
	let done = 0;
	let unsaved: string | null = null;
	for (const key of keys) {
		const mark = controller.snooze(key, until);
		if (mark) done++;
		unsaved ??= mark?.unsaved ?? null;
	}
	if (done === 0) return `${title}: not in the list any more; nothing snoozed.`;
	const what = keys.length === 1 ? title : `${done} conversation${done === 1 ? '' : 's'} of ${title}`;
	const kept = unsaved === null ? '' : ` Not saved, so only until you quit: ${sanitizeLine(unsaved)}`;
	return `Snoozed ${what} ${snoozeText({until}, Date.now())}.${kept}`;
}

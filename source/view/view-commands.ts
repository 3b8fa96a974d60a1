import type {Dispatch} from 'react';
import type {Overlay, PaneId, ViewAction} from './view-state.js';

/**
 * The view's own changes that the dashboard, its overlays and its key handlers all make, in one
 * place: a notice on the notice line, opening and closing an overlay, moving the focus.
 */

export type NoticeLevel = 'info' | 'warn' | 'error';
/** Puts a line on the notice line (`info` unless told). */
export type Say = (text: string, level?: NoticeLevel) => void;

export function noticeAction(text: string, level?: NoticeLevel): ViewAction {
	return {type: 'notice', text, at: Date.now(), ...(level ? {level} : {})};
}

export function sayOn(dispatch: Dispatch<ViewAction>): Say {
	return (text, level) => dispatch(noticeAction(text, level));
}

export type ViewCommands = {
	say: Say;
	closeOverlay(): void;
	openOverlay(overlay: Overlay): void;
	focus(pane: PaneId): void;
	/** The timeline pane focused; `clearFilter`: a filter typed for another conversation's events goes. */
	showTimeline(clearFilter: boolean): void;
};

export function viewCommands(dispatch: Dispatch<ViewAction>): ViewCommands {
	return {
		say: sayOn(dispatch),
		closeOverlay: () => dispatch({type: 'close-overlay'}),
		openOverlay: (overlay) => dispatch({type: 'open-overlay', overlay}),
		focus: (pane) => dispatch({type: 'focus', pane}),
		showTimeline: (clearFilter) => {
			if (clearFilter) dispatch({type: 'set-filter', target: 'timeline', text: ''});
			dispatch({type: 'focus', pane: 'timeline'});
		},
	};
}

/**
 * Switches to a profile (app.tsx rebuilds the dashboard); `opening` goes on the notice line
 * meanwhile, and the reason it could not, if it could not.
 */
export function switchProfile(onSwitchProfile: (name: string) => Promise<string | null>, name: string, opening: string, say: Say): void {
	say(opening);
	void onSwitchProfile(name).then((problem) => {
		if (problem) say(problem);
	});
}

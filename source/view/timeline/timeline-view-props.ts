import type {Dispatch} from 'react';
import type {ViewAction, ViewState} from '../view-state.js';

/**
 * The timeline pane's wiring to the view's reducer: focus, its filter line, the details overlay,
 * esc back to the list. The dashboard and the key tests' harness (test/helpers/pane-harness.tsx)
 * both use it, so a test drives the wiring the dashboard has.
 */
export function timelineViewProps(view: ViewState, dispatch: Dispatch<ViewAction>) {
	return {
		focused: view.pane === 'timeline' && (view.overlay === null || view.overlay.kind === 'details'),
		filter: view.timelineFilter,
		editingFilter: view.editing === 'timeline',
		detailsOpen: view.overlay?.kind === 'details',
		onFilterChange: (text: string) => dispatch({type: 'set-filter', target: 'timeline', text}),
		onFilterType: (text: string) => dispatch({type: 'type-filter', target: 'timeline', text}),
		onEditFilter: () => dispatch({type: 'edit-filter', target: 'timeline'}),
		onFilterDone: () => dispatch({type: 'stop-editing'}),
		onOpenDetails: () => dispatch({type: 'open-overlay', overlay: {kind: 'details'}}),
		onCloseDetails: () => dispatch({type: 'close-overlay'}),
		onBack: () => dispatch({type: 'focus', pane: view.listPane}),
		focusEvent: view.timelineFocus,
		onFocused: () => dispatch({type: 'focused'}),
	};
}

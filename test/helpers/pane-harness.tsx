import {type ReactNode, useReducer, useSyncExternalStore} from 'react';
import type {KeyContext} from '../../source/view/keymap.js';
import type {ShownRange, TimelineState} from '../../source/state/dashboard-types.js';
import {TimelinePane} from '../../source/view/timeline/TimelinePane.js';
import {timelineViewProps} from '../../source/view/timeline/timeline-view-props.js';
import {KeyRegistryContext, useKeyRegistry} from '../../source/view/key-registry.js';
import {useKeyDispatch} from '../../source/view/use-key-dispatch.js';
import {initialViewState, keyContexts, viewReducer} from '../../source/view/view-state.js';

/**
 * The shell's key plumbing around one component: the real registry, dispatcher, keymap and view
 * reducer; TimelineHarness wires the pane with the Dashboard's own wiring (timeline-view-props.ts),
 * so key flows are tested end to end.
 */
export function KeyHarness({stack, children}: {stack: readonly KeyContext[]; children: ReactNode}) {
	const registry = useKeyRegistry();
	useKeyDispatch(registry, stack);
	return <KeyRegistryContext.Provider value={registry}>{children}</KeyRegistryContext.Provider>;
}

/** A timeline that tests can change from outside, like the store does. */
export class TimelineSource {
	#state: TimelineState;
	readonly #listeners = new Set<() => void>();

	constructor(state: TimelineState) {
		this.#state = state;
	}

	get = (): TimelineState => this.#state;

	subscribe = (listener: () => void): (() => void) => {
		this.#listeners.add(listener);
		return () => this.#listeners.delete(listener);
	};

	update(change: Partial<TimelineState>): void {
		this.#state = {...this.#state, ...change, version: this.#state.version + 1};
		for (const listener of this.#listeners) listener();
	}
}

export function TimelineHarness({
	source,
	width,
	height,
	onLoadOlder,
	onLoadNewer,
	onToNewest,
	onPin,
}: {
	source: TimelineSource;
	width: number;
	height: number;
	onLoadOlder?: () => void;
	onLoadNewer?: () => void;
	onToNewest?: () => void;
	onPin?: (range: ShownRange | null) => void;
}) {
	const timeline = useSyncExternalStore(source.subscribe, source.get);
	const [view, dispatch] = useReducer(viewReducer, {...initialViewState, pane: 'timeline'});
	return (
		<KeyHarness stack={keyContexts(view)}>
			<TimelinePane
				timeline={timeline}
				width={width}
				height={height}
				{...timelineViewProps(view, dispatch)}
				{...(onLoadOlder ? {onLoadOlder} : {})}
				{...(onLoadNewer ? {onLoadNewer} : {})}
				{...(onToNewest ? {onToNewest} : {})}
				{...(onPin ? {onPin} : {})}
			/>
		</KeyHarness>
	);
}

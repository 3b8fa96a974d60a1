import {useMemo, useSyncExternalStore} from 'react';
import type {DashboardSnapshot, DashboardStore} from '../state/dashboard-types.js';
import type {FrameHold} from './frame-hold.js';

/**
 * The store's current snapshot; re-renders when the store publishes (it batches to ~100 ms), or,
 * while a key's frame is held for its request (frame-hold.ts), when the hold is released.
 */
export function useDashboardSnapshot(store: DashboardStore, hold?: FrameHold): DashboardSnapshot {
	const subscribe = useMemo(() => (hold ? hold.gate(store.subscribe) : store.subscribe), [store, hold]);
	return useSyncExternalStore(subscribe, store.getSnapshot, store.getSnapshot);
}

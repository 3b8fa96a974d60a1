import {useSyncExternalStore} from 'react';
import type {DashboardSnapshot, DashboardStore} from '../state/dashboard-types.js';

/** The store's current snapshot; re-renders when the store publishes (it batches to ~100 ms). */
export function useDashboardSnapshot(store: DashboardStore): DashboardSnapshot {
	return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
}

import type {DashboardSnapshot, DashboardStore} from '../../source/state/dashboard-types.js';

/**
 * Resolves with the first published snapshot that satisfies `predicate` (the current one counts);
 * fails after `timeoutMs` naming what was awaited and the last notice the store showed.
 * Event-driven: it listens to the store instead of polling.
 */
export function waitForSnapshot(store: DashboardStore, predicate: (snapshot: DashboardSnapshot) => boolean, what: string, timeoutMs = 20_000): Promise<DashboardSnapshot> {
	return new Promise((resolve, reject) => {
		const check = () => {
			const snapshot = store.getSnapshot();
			if (!predicate(snapshot)) return;
			clearTimeout(timer);
			unsubscribe();
			resolve(snapshot);
		};
		const timer = setTimeout(() => {
			unsubscribe();
			reject(new Error(`timed out waiting for ${what} (last notice: ${JSON.stringify(store.getSnapshot().notice?.text ?? null)})`));
		}, timeoutMs);
		const unsubscribe = store.subscribe(check);
		check();
	});
}

/**
 * No errored row waits for its cause any more (the store reads each once, state/error-causes.ts):
 * a test that counts requests or injects a one-shot fault waits for this, so those reads are not
 * in flight at that moment.
 */
export function causesRead(snapshot: DashboardSnapshot): boolean {
	for (const row of snapshot.conversations.values()) if (row.agentStatus === 'error' && row.errorCause === undefined) return false;
	return true;
}

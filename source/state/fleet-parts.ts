import type {ConnectionHealth, ConnectionState, DashboardSnapshot, ServerState} from './dashboard-types.js';
import type {SearchProgress} from './event-search.js';
import {sameFields} from './same-fields.js';

/**
 * The pure pieces of the all-servers merge (fleet-store.ts): whether a server's rows are stale,
 * the header's connection over all servers, search progress summed over servers, and the
 * "nothing changed" checks that keep an idle fleet from re-rendering.
 */

const staleHealth = new Set<ConnectionHealth>(['stale', 'offline']);

/** Whether a server's rows are its last known state rather than current: it does not answer, or refused the key. */
export function serverIsStale(connection: ConnectionState): boolean {
	return connection.keyRejected || staleHealth.has(connection.health);
}

export function sumProgress(all: readonly SearchProgress[], server: string, latest: SearchProgress): SearchProgress {
	const sum = (pick: (progress: SearchProgress) => number) => all.reduce((total, progress) => total + pick(progress), 0);
	return {
		searched: sum((progress) => progress.searched),
		stored: sum((progress) => progress.stored ?? 0),
		skipped: sum((progress) => progress.skipped),
		failed: sum((progress) => progress.failed),
		total: sum((progress) => progress.total),
		done: all.every((progress) => progress.done),
		lastError: latest.lastError ? `${server}: ${latest.lastError}` : (all.find((progress) => progress.lastError)?.lastError ?? null),
	};
}

/** What the header shows of the fleet's connection: while none changed, the previous one is kept. */
const connectionFields: ReadonlyArray<keyof ConnectionState> = ['health', 'lastSuccessAt', 'lastError', 'keyRejected', 'requestsLastMinute', 'budgetPerMinute'];

/**
 * The header's connection for the whole view: the best health any server has (one server down is
 * that server's news, said per server, not the view's), the newest success, the first failing
 * server's error named, and the request budget of the server nearest its own limit. No clock
 * offset: each row carries its own server's.
 */
export function fleetConnection(servers: readonly ServerState[], previous: ConnectionState | null): ConnectionState {
	const order: ConnectionHealth[] = ['live', 'polling', 'reconnecting', 'stale', 'offline'];
	let health: ConnectionHealth = 'offline';
	let lastSuccessAt: number | null = null;
	let lastError: string | null = null;
	let budget = {requestsLastMinute: 0, budgetPerMinute: 0};
	for (const {name, connection} of servers) {
		const rank = connection.keyRejected ? order.length : order.indexOf(connection.health);
		if (rank >= 0 && rank < order.indexOf(health)) health = connection.health;
		if (connection.lastSuccessAt !== null && (lastSuccessAt === null || connection.lastSuccessAt > lastSuccessAt)) lastSuccessAt = connection.lastSuccessAt;
		if (lastError === null && connection.lastError) lastError = `${name}: ${connection.lastError}`;
		if (connection.budgetPerMinute > 0 && connection.requestsLastMinute / connection.budgetPerMinute >= budget.requestsLastMinute / Math.max(1, budget.budgetPerMinute)) {
			budget = {requestsLastMinute: connection.requestsLastMinute, budgetPerMinute: connection.budgetPerMinute};
		}
	}
	const next: ConnectionState = {
		health,
		lastSuccessAt,
		lastError,
		keyRejected: servers.every((server) => server.connection.keyRejected),
		nextRetryAt: null,
		...budget,
		clockOffsetMs: 0,
	};
	return previous && sameFields(previous, next, connectionFields) ? previous : next;
}

export function sameList(a: readonly unknown[], b: readonly unknown[]): boolean {
	return a.length === b.length && a.every((value, index) => value === b[index]);
}

/** Nothing shown changed: an idle fleet does not re-render. */
export function sameSnapshot(a: DashboardSnapshot, b: DashboardSnapshot): boolean {
	const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
	keys.delete('version');
	for (const key of keys) if ((a as Record<string, unknown>)[key] !== (b as Record<string, unknown>)[key]) return false;
	return true;
}

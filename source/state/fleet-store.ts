import {BatchedPublisher} from './batched-publisher.js';
import type {DashboardController, DashboardSnapshot, DashboardStore} from './dashboard-types.js';
import {fleetMember, fleetMerger, type FleetServer} from './fleet-merge.js';
import {fleetController, type FleetRoutingState} from './fleet-routing.js';

export {serverIsStale} from './fleet-parts.js';
export type {FleetServer} from './fleet-merge.js';

/**
 * The all-servers view (`--all-profiles`): one list over several servers' stores. Each server
 * keeps everything of its own (state/dashboard-session.ts: key, transport, request budget, clock
 * estimate, health, poller, store); this only merges what they publish and routes what the view
 * asks for back to the server a row came from.
 * - Keys are qualified by server (`<key>@<profile>`, server-keys.ts), conversations and sandboxes
 *   alike; each row carries its server (`row.server`: name, stale, clock offset).
 * - One server down marks its own rows stale (they keep their last known state) and leaves the
 *   others as they are: nothing of one server's health reaches another's rows.
 * - An action on a row goes to that row's server with that server's own key (fleet-routing.ts);
 *   one timeline is open at a time, on the server of its conversation.
 * Snapshots are merged at most once per `flushMs` and only from what changed (fleet-merge.ts):
 * rows are rewrapped when their server's row or its stale mark changed, so memoised rows stay still.
 */

export type Fleet = {store: DashboardStore; controller: DashboardController};

export function createFleet(servers: readonly FleetServer[], options: {flushMs?: number; now?: () => number} = {}): Fleet {
	if (servers.length === 0) throw new Error('the all-servers view needs at least one server');
	const now = options.now ?? (() => Date.now());
	const members = servers.map(fleetMember);
	const state: FleetRoutingState = {timelineServer: null, notice: null};
	let closed = false;

	const build = fleetMerger(members, {notice: () => state.notice, timelineServer: () => state.timelineServer});
	const publisher = new BatchedPublisher<DashboardSnapshot>(build(null), options.flushMs ?? 50);
	const touch = () => {
		if (!closed) publisher.schedule(() => build(publisher.get()));
	};
	for (const member of members) member.unsubscribe = member.store.subscribe(() => publisher.schedule(() => build(publisher.get())));

	const controller = fleetController(members, state, {
		touch,
		now,
		close: () => {
			closed = true;
			for (const member of members) member.unsubscribe();
			publisher.close();
		},
	});
	return {store: {subscribe: publisher.subscribe, getSnapshot: publisher.get}, controller};
}

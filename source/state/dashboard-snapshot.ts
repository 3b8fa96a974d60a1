import type {ConnectionHealth, ConnectionState, DashboardSnapshot} from './dashboard-types.js';
import {budgetSharing, sameBudgetSharing} from './budget-connection.js';
import type {PollerHealth} from './conversation-poller.js';
import type {DashboardClocks} from './dashboard-clocks.js';
import {zoneLabel} from './data-clock.js';
import {redact} from './redact.js';
import type {RequestBudget} from './request-budget.js';

/**
 * What a snapshot is made of, and the connection line it carries: how the poller and the stream
 * fare, the request budget, and the data clock (its offset, its source, whether ages are known or
 * assumed). dashboard-store.ts publishes; this says what changed.
 *
 * Snapshot discipline: parts are replaced only when they changed (a new conversations Map only
 * when a row changed, a row only when something shown in it changed), and a flush that finds
 * nothing new publishes nothing: an idle dashboard does not re-render.
 */

/** The parts of a snapshot the concerns hand in, each replaced only when it changed. */
export type SnapshotParts = Pick<
	DashboardSnapshot,
	| 'conversations'
	| 'sandboxes'
	| 'conversationsListed'
	| 'sandboxesListed'
	| 'specs'
	| 'runningSandboxCap'
	| 'invalidItems'
	| 'unreadableRows'
	| 'timeline'
	| 'start'
	| 'notice'
	| 'answers'
>;

export function initialSnapshot(
	header: {serverLabel: string; keySource: string | null | undefined; demo: boolean; secrets: readonly string[]; budgetPerMinute: number},
	parts: SnapshotParts,
): DashboardSnapshot {
	return {
		version: 0,
		serverLabel: redact(header.serverLabel, header.secrets),
		keySource: header.keySource ? redact(header.keySource, header.secrets) : null,
		demo: header.demo,
		connection: {
			health: 'polling',
			lastSuccessAt: null,
			lastError: null,
			keyRejected: false,
			nextRetryAt: null,
			requestsLastMinute: 0,
			budgetPerMinute: header.budgetPerMinute,
			clockOffsetMs: 0,
			clockSource: 'none',
			eventZone: null,
		},
		...parts,
	};
}

export function partsChanged(parts: SnapshotParts, previous: DashboardSnapshot): boolean {
	return (
		parts.conversations !== previous.conversations ||
		parts.sandboxes !== previous.sandboxes ||
		parts.sandboxesListed !== previous.sandboxesListed ||
		parts.conversationsListed !== previous.conversationsListed ||
		parts.specs !== previous.specs ||
		parts.runningSandboxCap !== previous.runningSandboxCap ||
		parts.invalidItems !== previous.invalidItems ||
		parts.unreadableRows !== previous.unreadableRows ||
		parts.timeline !== previous.timeline ||
		parts.start !== previous.start ||
		parts.notice !== previous.notice ||
		parts.answers !== previous.answers
	);
}

export type ConnectionSources = {
	health: PollerHealth;
	/** The open timeline's stream state, if one is open. */
	stream: string | undefined;
	clocks: DashboardClocks;
	budget: RequestBudget;
	secrets: readonly string[];
};

export function connectionState(previous: ConnectionState, dataChanged: boolean, sources: ConnectionSources): ConnectionState {
const {health, stream, clocks, budget, secrets} = sources;
	let state: ConnectionHealth;
	if (health.keyRejected) state = 'offline';
	else if (!health.ok) state = health.lastSuccessAt === null ? 'offline' : 'stale';
	else if (stream === 'live') state = 'live';
	else if (stream === 'reconnecting' || stream === 'failed') state = 'reconnecting';
	else state = 'polling';
	const clockOffsetMs = clocks.publishedOffset(previous.clockOffsetMs);
	const clockSource = clocks.dataClock.source();
	const naiveOffset = clocks.dataClock.naiveOffsetMs();
	const eventZone = naiveOffset === null ? null : zoneLabel(naiveOffset);
	const agesUnverified = !clocks.agesKnown;
	const agesAssumed = !agesUnverified && clocks.dataClock.ageBasis() === 'assumed';
	const same =
		previous.clockOffsetMs === clockOffsetMs &&
		previous.clockSource === clockSource &&
		previous.eventZone === eventZone &&
		(previous.agesUnverified ?? false) === agesUnverified &&
		(previous.agesAssumed ?? false) === agesAssumed &&
		previous.health === state &&
		previous.lastError === health.lastError &&
		previous.keyRejected === health.keyRejected &&
		previous.nextRetryAt === health.nextRetryAt &&
		sameBudgetSharing(previous, budget);
	// A newer success time alone is not worth a render: polls that bring nothing new must not
	// re-render an idle dashboard. It is published with the next change, and always together
	// with a change of health (so "stale since" is exact).
	if (same && !dataChanged && previous.lastSuccessAt !== null) return previous;
	return {
		health: state,
		lastSuccessAt: health.lastSuccessAt,
		lastError: health.lastError === null ? null : redact(health.lastError, secrets),
		keyRejected: health.keyRejected,
		nextRetryAt: health.nextRetryAt,
		requestsLastMinute: budget.requestsLastMinute(),
		...budgetSharing(budget),
		clockOffsetMs,
		clockSource,
		eventZone,
		...(agesUnverified ? {agesUnverified} : {}),
		...(agesAssumed ? {agesAssumed} : {}),
	};
}

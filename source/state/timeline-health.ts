import type {StreamHealth} from './dashboard-types.js';
import {redact} from './redact.js';
import type {StreamLag} from './stream-lag.js';
import {sameFields} from './same-fields.js';

/** A timeline stream's health as the session publishes it (timeline-session.ts): what changed, and how far behind it is. */

/** The health as shown: only what the stream reported, its error without secrets. */
export function shownHealth(incoming: StreamHealth, secrets: readonly string[]): StreamHealth {
	const health: StreamHealth = {state: incoming.state, attempt: incoming.attempt};
	if (incoming.nextRetryInMs !== undefined) health.nextRetryInMs = incoming.nextRetryInMs;
	if (incoming.lastError !== undefined) health.lastError = redact(incoming.lastError, secrets);
	if (incoming.overRest) health.overRest = true;
	if (incoming.restReadAt !== undefined) health.restReadAt = incoming.restReadAt;
	return health;
}

const healthFields: ReadonlyArray<keyof StreamHealth> = ['state', 'attempt', 'nextRetryInMs', 'lastError', 'overRest', 'restReadAt'];

export function sameHealth(previous: StreamHealth, health: StreamHealth): boolean {
	return sameFields(previous, health, healthFields);
}

/** Since when the timeline is behind, after the health changed from `previous` to `health` (our clock `now`). */
export function lagAfter(lag: StreamLag, previous: StreamHealth, health: StreamHealth, now: number): StreamLag {
	let next = lag;
	if (previous.state === 'live' && health.state !== 'live') next = {...next, behindSince: now};
	else if (health.state === 'live' && next.behindSince !== null) next = {...next, behindSince: null};
	// A REST read reached the end while no socket holds (reported as it happens): the timeline
	// was complete just now, so it is behind since then, not since the drop.
	if (health.state !== 'live' && health.restReadAt !== undefined && health.restReadAt !== previous.restReadAt && next.behindSince !== null) {
		next = {...next, behindSince: now};
	}
	return next;
}

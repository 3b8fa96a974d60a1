import {parseTimestamp} from '../format/time.js';

/**
 * How far the live timeline is behind the server. Two figures, because they answer different
 * questions (and neither is the list's polling age, which the header shows apart):
 * - while the stream is live, the delivery lag of the newest event it delivered: the server's
 *   clock when it arrived minus the event's own time. A quiet agent does not make it grow (its
 *   stream is not behind, it just has nothing to say);
 * - while the stream is down after having been live, since when: everything the agent did since
 *   then is not on screen yet.
 */

export type StreamLag = {
	/** Delivery lag of the newest event that arrived while live, or null before one did. */
	lagMs: number | null;
	/** Our clock when the stream stopped being live (null while live, or before it first was). */
	behindSince: number | null;
};

/** Time zones differ by whole quarter hours: a naive timestamp read in our zone is off by one. */
const zoneStepMs = 15 * 60_000;

/**
 * The server's clock when the event arrived (`serverNowMs`: our clock plus the offset estimated
 * from the servers' `Date` headers) minus the event's own time; null when unreadable.
 *
 * Agent-server timestamps are naive server-local time; we read them in our own zone. When the
 * server's zone is not ours that is off by whole quarter hours, which no live delivery is: a
 * difference of 15 minutes or more is taken as the zones' difference and removed.
 */
export function deliveryLagMs(eventTimestamp: string, serverNowMs: number): number | null {
	const eventMs = parseTimestamp(eventTimestamp);
	if (eventMs === null) return null;
	let lag = serverNowMs - eventMs;
	const naive = !/(?:Z|[+-]\d{2}:?\d{2})$/i.test(eventTimestamp);
	if (naive && Math.abs(lag) >= zoneStepMs) lag -= Math.round(lag / zoneStepMs) * zoneStepMs;
	return Math.max(0, Math.round(lag));
}

/**
 * How far the live timeline is behind the server. Two figures, because they answer different
 * questions (and neither is the list's polling age, which the header shows apart):
 * - while the stream is live, the delivery lag of the newest event it delivered: its arrival on
 *   the clock that wrote the data minus the event's own time, its naive zone found by comparing
 *   with the app server's UTC (DataClock.deliveryLagMs, state/data-clock.ts). A quiet agent does
 *   not make it grow (its stream is not behind, it just has nothing to say);
 * - while the stream is down after having been live, since when: everything the agent did since
 *   then is not on screen yet.
 */

export type StreamLag = {
	/** Delivery lag of the newest event that arrived while live, or null before one did (or while its zone is unknown). */
	lagMs: number | null;
	/** Our clock when the stream stopped being live (null while live, or before it first was). */
	behindSince: number | null;
};

import type {EventLog} from './event-log.js';

/**
 * A follower (`events --follow`, `start --wait`) prints each event once and forgets it: its log
 * keeps only the newest events, enough to know a replayed one (a reconnect's resync, a socket's
 * replay) as already printed. Dropping the oldest sets the log's floor (event-log.ts): an event
 * older than the oldest kept is taken as printed and not announced again. Before this, a follow
 * held every event of the conversation (104 -> 168 MB over 20,000 events, still rising).
 */

/** Events a follower keeps. A resync reads again from a second before what it had. */
export const followKeepEvents = 1000;

/** Drops the oldest events beyond `keep`, in steps of half of it (a trim is a splice: not per event). */
export function forgetPrinted(log: EventLog, keep = followKeepEvents): number {
	if (log.size <= keep + Math.floor(keep / 2)) return 0;
	return log.trimOldest(keep);
}

/**
 * How often the store publishes while the open conversation's stream floods in. At 10 snapshots a
 * second, 200 events a second bring 20 rows per frame; side by side, where the terminal cannot
 * scroll the timeline's columns on their own, each of those frames rewrites nearly the whole pane
 * for rows that are gone a frame later, and every frame is a whole React render. Once a window
 * brings more new events than an 80x24 timeline shows, the next windows are longer: each frame
 * then brings in a pane of rows that are all new, and fewer frames write fewer bytes for the same
 * rows (bench `traffic`). A window that brings fewer goes back to the normal pace, and a person's
 * own actions publish at once either way (the store's urgent flush).
 */

/** Live events in one window past which the stream counts as a flood: more than an 80x24 pane shows. */
export const floodEvents = 16;
/** How much longer a window is while the stream floods: 100 ms becomes 250 ms, 4 frames a second. */
export const floodStretch = 2.5;

/** The next publishing window, from the normal one and the live events the last window brought. */
export function publishWindowMs(baseMs: number, liveEventsInLastWindow: number): number {
	return liveEventsInLastWindow >= floodEvents ? baseMs * floodStretch : baseMs;
}

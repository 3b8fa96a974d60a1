import {eventSummary} from '../format/event-summary.js';
import {cellWidth, padToWidth, truncateToWidth} from '../format/width.js';
import type {WireEvent} from '../wire/schemas/events.js';

/**
 * The human form of `events`: one line per event, `time  source  kind  summary`. The summary
 * (command run, file edited, message start, error text) comes from the format layer, which
 * sanitizes every piece; the source and kind columns are padded so a terminal scan lines up.
 */
/** Wide enough for ConversationStateUpdateEvent, the longest kind name. */
const kindWidth = 28;

/** `width`: cut the line to the terminal (only when stdout is one; a pipe gets it whole). */
export function eventLine(event: WireEvent, width?: number): string {
	const summary = eventSummary(event);
	const kind = cellWidth(summary.kind) > kindWidth ? summary.kind : padToWidth(summary.kind, kindWidth);
	const line = `${summary.time || '--:--:--'}  ${padToWidth(summary.source, 11)}  ${kind}  ${summary.text}`.trimEnd();
	return width === undefined ? line : truncateToWidth(line, width);
}

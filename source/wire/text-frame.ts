import {shortEventKind} from './event-kinds.js';
import {type LoggedEvent, mayHoldEncryptedContent, parseEvent, parseEventLater, parseFrameLater} from './schemas/events.js';

/** Something wrong with one frame of an event socket; the socket stays open. */
export type SocketProblem = {
	kind: 'malformed-frame' | 'invalid-event';
	message: string;
	bytes: number;
	/** For an invalid event: the kind it claims, and its id. */
	eventKind?: string;
	eventId?: string;
};

export type TextFrameRead = {event?: LoggedEvent; problem?: SocketProblem};

/**
 * What one text frame of an event socket becomes: an event, a problem, or both (an event that
 * failed validation is still shown, as unknown). One function for the socket and for the bench's
 * ingest row (bench/ingest.ts), so the figure is the cost of the path that ships.
 *
 * `validateOnRead` (the dashboard): the usual frame's envelope is scanned and the rest held as
 * text, validated when a row first needs it; a frame the scan cannot take (it may hold
 * `encrypted_content`, its envelope is not plain strings) is parsed whole and held the same way.
 * Otherwise (headless commands print every event) each frame is validated at once.
 */
export function readTextFrame(text: string, bytes: number, validateOnRead: boolean): TextFrameRead {
	const fast = validateOnRead ? parseFrameLater(text) : null;
	if (fast) return {event: fast};
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		// The frame's text is not repeated: it is server data and could be anything.
		return {problem: {kind: 'malformed-frame', message: `ignored a frame that is not JSON (${bytes} bytes)`, bytes}};
	}
	if (value === null || typeof value !== 'object' || Array.isArray(value)) {
		return {problem: {kind: 'malformed-frame', message: `ignored a frame that is not a JSON object (${bytes} bytes)`, bytes}};
	}
	const parseOptions = {mayHoldEncryptedContent: mayHoldEncryptedContent(text)};
	if (validateOnRead) return {event: parseEventLater(value, {...parseOptions, text})};
	const event = parseEvent(value, parseOptions);
	if (event.kind === 'UnknownEvent' && event.problem !== 'unknown event kind') {
		return {event, problem: {kind: 'invalid-event', message: `event ${event.id.slice(0, 40)}: ${event.problem}`, bytes, eventKind: shortEventKind(event.originalKind), eventId: event.id}};
	}
	return {event};
}

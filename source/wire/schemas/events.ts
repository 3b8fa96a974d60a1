import {z} from 'zod';
import {shortEventKind} from '../event-kinds.js';
import {describeIssues, dropEncryptedContent, optionalString, withoutNulls, type InvalidItem} from './common.js';
import {defaultSource, eventKindNames, eventSchemas, eventSources, type EventOf, type KnownEvent, type KnownEventKindName, type UnknownEvent, type WireEvent} from './event-schemas.js';
import {scanTopLevelStrings} from './json-scan.js';

export type {EventOf, KnownEvent, KnownEventKindName, UnknownEvent, WireEvent} from './event-schemas.js';

/**
 * Events of a conversation (docs/service-behaviour.md §4). Parsing is two steps, because
 * a discriminated union fails on any kind it does not know: read the envelope (id, kind,
 * timestamp, source), then validate by kind. Anything unknown or invalid becomes an
 * `UnknownEvent` that keeps its raw JSON, so one odd event never costs the rest of a page.
 */

/** FNV-1a, to give an event that arrived without an id a stable one (so it still dedupes). */
function fingerprint(text: string): string {
	let hash = 0x811c9dc5;
	for (let index = 0; index < text.length; index++) {
		hash ^= text.charCodeAt(index);
		hash = Math.imul(hash, 0x01000193);
	}
	return (hash >>> 0).toString(16).padStart(8, '0');
}

function stringField(value: unknown): string | undefined {
	if (typeof value === 'string') return value;
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return undefined;
}

export type ParseEventOptions = {
	/**
	 * False when the caller has checked the JSON text and it cannot hold an `encrypted_content`
	 * key (no such word and no `\\u` escape that could spell it): skips the scrubbing walk, the
	 * costliest step after validation for a socket frame.
	 */
	mayHoldEncryptedContent?: boolean;
};

/**
 * Can JSON `text` hold an `encrypted_content` key once parsed? (An escape could spell it.)
 * Looks for `ypted_c`, which every unescaped spelling holds: a search starts from the pattern's
 * first character, and `y` is rare in JSON where `e` is everywhere (0.25 µs a frame, not 0.64).
 * A frame that holds `ypted_c` in another word is only scrubbed for nothing.
 */
export function mayHoldEncryptedContent(text: string): boolean {
	return text.includes('ypted_c') || text.includes('\\u');
}

/** Parses one event. Never throws. */
export function parseEvent(input: unknown, options: ParseEventOptions = {}): WireEvent {
	const envelope = readEnvelope(input, options);
	return envelope.kind === 'PendingEvent' ? validatePayload(envelope) : envelope;
}

/**
 * An event whose envelope (id, kind, timestamp, source) was read and whose payload is validated
 * the first time something needs it (`settleEvent`). The live stream stores events this way: a
 * socket frame costs JSON.parse and a few field reads instead of a zod pass (about 4x the parse),
 * and only the rows someone looks at, the state updates and the filters ever pay for validation.
 * An unknown kind needs no validation and is an UnknownEvent at once.
 */
export type PendingEvent = {
	kind: 'PendingEvent';
	/** The short kind name, a known one (see eventSchemas). */
	pendingKind: KnownEventKindName;
	originalKind: string;
	id: string;
	timestamp: string;
	source: string;
	/**
	 * A state update's `key` as received (null for other kinds, or when it is not a string): the
	 * stream checks every event for a status change, and most updates are `stats`, which then
	 * need no validation to be passed over.
	 */
	stateKey: string | null;
	/** The validated event, once settleEvent made it. */
	settled: WireEvent | undefined;
	/**
	 * The event as received, as JSON text with any `encrypted_content` removed. One flat string per
	 * event is what makes holding a long stream cheap: a parsed object is dozens of small objects,
	 * about three times the text, for the garbage collector to copy and trace, and most are never
	 * shown. Empty once settled. (The parsed object only between reading the envelope and
	 * `parseEventLater` writing it out, or `parseEvent` validating it.)
	 */
	payload: string | Record<string, unknown>;
	/** Characters of that JSON text: what settling the event brings back into the heap. */
	textLength: number;
};

/** What an event log holds: validated events and events validated on first use. */
export type LoggedEvent = WireEvent | PendingEvent;

/**
 * Reads an event's envelope and leaves its payload for `settleEvent`. Never throws. `text` is the
 * JSON `input` was parsed from (a socket frame): kept instead of `input` when it cannot hold an
 * `encrypted_content` key.
 */
export function parseEventLater(input: unknown, options: ParseEventOptions & {text?: string} = {}): LoggedEvent {
	const envelope = readEnvelope(input, options);
	if (envelope.kind !== 'PendingEvent') return envelope;
	// The frame's own text when it cannot hold an `encrypted_content` key; else the scrubbed object
	// written out again (readEnvelope removed the key), so a frame with a `\u001b` of coloured
	// terminal output is held as text too, not as a parsed object three times its size.
	holdAsText(envelope, options.text !== undefined && options.mayHoldEncryptedContent === false ? options.text : JSON.stringify(envelope.payload));
	return envelope;
}

/** Holds a pending event's payload as its (scrubbed) JSON text. */
export function holdAsText(event: PendingEvent, text: string): void {
	event.payload = text;
	event.textLength = text.length;
}

/** Roughly what an event in a log takes: its held payload, or its text's length once settled into objects. */
export function heldBytes(event: LoggedEvent): number {
	if (event.kind !== 'PendingEvent') return 2048;
	// A validated event is objects: counted at about three times its text.
	if (event.settled !== undefined) return event.textLength * 3 + 200;
	return (typeof event.payload === 'string' ? event.payload.length : 4096) + 200;
}

const envelopeKeys = ['kind', 'id', 'timestamp', 'source', 'key'];

/**
 * A socket frame's event without parsing the whole frame: its envelope read by a scan of the
 * top-level keys, its text held as it came. JSON.parse of every frame made a tree of objects
 * three times the frame's size, for the garbage collector, only to read five fields; on a real
 * stream (kilobytes a frame) that churn, not what was held, decided the resident memory. Null
 * when the fast path does not apply (the frame may hold `encrypted_content`, its id or kind is
 * not a plain string, the kind is unknown, the scan finds no object): then parse it as usual.
 */
export function parseFrameLater(text: string): PendingEvent | null {
	if (mayHoldEncryptedContent(text)) return null;
	const fields = scanTopLevelStrings(text, envelopeKeys);
	if (!fields) return null;
	const givenKind = fields.get('kind');
	const id = fields.get('id');
	if (givenKind === undefined || id === undefined) return null;
	const originalKind = commonNames.get(givenKind) ?? givenKind;
	const kind = commonNames.get(originalKind) ?? shortEventKind(originalKind);
	if (!Object.hasOwn(eventSchemas, kind)) return null;
	const givenSource = fields.get('source');
	const source = givenSource === undefined ? (defaultSource[kind] ?? 'unknown') : (commonNames.get(givenSource) ?? givenSource);
	const stateKey = kind === 'ConversationStateUpdateEvent' ? (fields.get('key') ?? null) : null;
	const event: PendingEvent = {kind: 'PendingEvent', pendingKind: kind as KnownEventKindName, originalKind, id, timestamp: fields.get('timestamp') ?? '', source, stateKey, settled: undefined, payload: '', textLength: 0};
	holdAsText(event, text);
	return event;
}

/** The validated event (validated once, then remembered). Never throws. */
export function settleEvent(event: LoggedEvent): WireEvent {
	if (event.kind !== 'PendingEvent') return event;
	if (event.settled === undefined) {
		event.settled = validatePayload(event);
		// Only validation reads the payload. Dropped, so an event that was shown (or searched)
		// holds its validated form alone, not that and its text too.
		event.payload = '';
	}
	return event.settled;
}

/**
 * The validated event without keeping it on the pending one: for a look that is remembered
 * elsewhere (a row's summary) or repeated rarely (the last tool call, each refresh). A followed
 * stream shows every event in its newest rows for a moment; settling each kept its objects, about
 * three times its text, for as long as the log keeps it.
 */
export function peekEvent(event: LoggedEvent): WireEvent {
	if (event.kind !== 'PendingEvent') return event;
	return event.settled ?? validatePayload(event);
}

/** `peekEvent` when the event is of `kind`, else undefined (others are not validated). */
export function peekIf<K extends KnownEventKindName>(event: LoggedEvent, kind: K): EventOf<K> | undefined {
	if (event.kind === kind) return event as EventOf<K>;
	if (event.kind !== 'PendingEvent' || event.pendingKind !== kind) return undefined;
	const result = peekEvent(event);
	return result.kind === kind ? (result as EventOf<K>) : undefined;
}

/** Settles only when the event is of `kind`: a filter on kind that does not validate every other event. */
export function settleIf<K extends KnownEventKindName>(event: LoggedEvent, kind: K): EventOf<K> | undefined {
	if (event.kind === kind) return event as EventOf<K>;
	if (event.kind !== 'PendingEvent' || event.pendingKind !== kind) return undefined;
	const result = settleEvent(event);
	return result.kind === kind ? (result as EventOf<K>) : undefined;
}

/**
 * The one copy of each known kind and source name. Every parsed event brings its own copy of
 * these strings; a log holding 100,000 events then keeps one instead of 100,000.
 */
const commonNames = new Map<string, string>([...eventKindNames, ...eventSources].map((name) => [name, name]));

function readEnvelope(input: unknown, options: ParseEventOptions): UnknownEvent | PendingEvent {
	const isRecord = input !== null && typeof input === 'object' && !Array.isArray(input);
	const raw = (isRecord ? (options.mayHoldEncryptedContent === false ? input : dropEncryptedContent(input)) : {value: input}) as Record<string, unknown>;
	const givenKind = stringField(raw.kind) ?? '';
	const originalKind = commonNames.get(givenKind) ?? givenKind;
	const kind = commonNames.get(originalKind) ?? shortEventKind(originalKind);
	const timestamp = stringField(raw.timestamp) ?? '';
	// The same event with or without its null fields gets the same made-up id.
	const id = stringField(raw.id) ?? `missing-id:${fingerprint(safeStringify(withoutNulls(raw)))}`;
	const givenSource = stringField(raw.source);
	const source = givenSource === undefined ? (defaultSource[kind] ?? 'unknown') : (commonNames.get(givenSource) ?? givenSource);
	if (!Object.hasOwn(eventSchemas, kind)) return unknownEvent(originalKind, originalKind ? 'unknown event kind' : 'event has no kind', id, timestamp, source, withoutNulls(raw));
	const stateKey = kind === 'ConversationStateUpdateEvent' && typeof raw.key === 'string' ? raw.key : null;
	return {kind: 'PendingEvent', pendingKind: kind as KnownEventKindName, originalKind, id, timestamp, source, stateKey, settled: undefined, payload: raw, textLength: 0};
}

let validations = 0;

/** How many payloads were validated so far in this process (settled or peeked): what a view made the log pay. */
export function validationsSoFar(): number {
	return validations;
}

function validatePayload(pending: PendingEvent): WireEvent {
	validations++;
	const {pendingKind: kind, originalKind, id, timestamp, source, payload} = pending;
	// The text was parsed once already, at arrival, so it is JSON. Null fields go first: absent
	// and null are one thing from here on (common.ts withoutNulls).
	let parsed: unknown;
	try {
		parsed = typeof payload === 'string' ? JSON.parse(payload) : payload;
	} catch {
		// A frame whose envelope scanned but whose body is not JSON (parseFrameLater).
		return unknownEvent(originalKind, `invalid ${kind}: its JSON is broken`, id, timestamp, source, {});
	}
	if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return unknownEvent(originalKind, `invalid ${kind}: not a JSON object`, id, timestamp, source, {});
	const raw = withoutNulls(parsed as Record<string, unknown>);
	const schema = eventSchemas[kind];
	// A copy only when the envelope had to be normalised (a qualified kind, a filled-in id or
	// source): zod builds its own output objects anyway, and a copy per event is felt at ingest.
	const normalised = raw.kind === kind && raw.id === id && raw.timestamp === timestamp && raw.source === source;
	const result = schema.safeParse(normalised ? raw : {...raw, kind, id, timestamp, source});
	if (!result.success) return unknownEvent(originalKind, `invalid ${kind}: ${describeIssues(result.error)}`, id, timestamp, source, raw);
	return result.data as KnownEvent;
}

function unknownEvent(originalKind: string, problem: string, id: string, timestamp: string, source: string, raw: Record<string, unknown>): UnknownEvent {
	return {kind: 'UnknownEvent', originalKind: originalKind || '(no kind)', problem, id, timestamp, source, raw};
}

function safeStringify(value: unknown): string {
	try {
		return JSON.stringify(value) ?? '';
	} catch {
		return String(value);
	}
}

/** Parses a list of events; invalid ones are kept as UnknownEvent and also reported. */
export function parseEvents(items: readonly unknown[]): {events: WireEvent[]; invalid: InvalidItem[]} {
	const events: WireEvent[] = [];
	const invalid: InvalidItem[] = [];
	items.forEach((item, index) => {
		const parsed = parseEvent(item);
		events.push(parsed);
		if (parsed.kind === 'UnknownEvent' && parsed.problem !== 'unknown event kind') {
			invalid.push({index, message: parsed.problem, raw: item});
		}
	});
	return {events, invalid};
}


/** Total order used everywhere events are merged: timestamp (string), then id. */
export function compareEvents(a: {timestamp: string; id: string}, b: {timestamp: string; id: string}): number {
	if (a.timestamp !== b.timestamp) return a.timestamp < b.timestamp ? -1 : 1;
	if (a.id === b.id) return 0;
	return a.id < b.id ? -1 : 1;
}

export const eventPageSchema = z.looseObject({
	items: z.array(z.unknown()),
	next_page_id: optionalString,
});

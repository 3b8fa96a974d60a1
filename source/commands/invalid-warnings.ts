import {claimedKind} from '../wire/event-kinds.js';
import type {InvalidItem} from '../wire/schemas/common.js';
import {note, type Io} from './io.js';

/**
 * Warnings about events that do not match the API, once per event kind and command: a model that
 * loops on one odd shape must not bury stderr (one `events --follow` printed 322 of them). The
 * first of a kind is printed with its reason; the rest are counted and said once at the end.
 */

/** Per kind, the ids already reported: a history read twice (a resync) reports each event once. */
type Seen = Map<string, Set<string>>;

const seenByIo = new WeakMap<Io, Seen>();

function seenFor(io: Io): Seen {
	let seen = seenByIo.get(io);
	if (!seen) {
		seen = new Map();
		seenByIo.set(io, seen);
	}
	return seen;
}

/** `message` the first time events of `kind` do not match, else only counted (each event id once). */
export function warnInvalid(io: Io, kind: string, message: string, eventId?: string): void {
	const seen = seenFor(io);
	let ids = seen.get(kind);
	if (!ids) {
		ids = new Set();
		seen.set(kind, ids);
		note(io, `warning: ${message} (further ${kind} events that do not match are counted, not repeated)`);
	}
	ids.add(eventId ?? `#${ids.size}`);
}

/** For a page's invalid items: one warning per kind among them. */
export function warnInvalidItems(io: Io, items: readonly InvalidItem[], where: string): void {
	for (const item of items) warnInvalid(io, claimedKind(item.raw), `${where}: ${item.message}`, idOf(item.raw));
}

function idOf(raw: unknown): string | undefined {
	const id = raw !== null && typeof raw === 'object' ? (raw as {id?: unknown}).id : undefined;
	return typeof id === 'string' ? id : undefined;
}

/** Per kind of stream problem that names no event (a malformed frame), how many there were. */
const problemsByIo = new WeakMap<Io, Map<string, number>>();

/**
 * A problem of the event stream that is not an event's (a frame that is not JSON, a server error
 * event): the first of each kind with its words, the rest counted and said at the end. A server
 * that sent 305 bad frames in 30 s printed 305 lines.
 */
export function warnProblem(io: Io, kind: string, message: string): void {
	let problems = problemsByIo.get(io);
	if (!problems) {
		problems = new Map();
		problemsByIo.set(io, problems);
	}
	const count = problems.get(kind) ?? 0;
	if (count === 0) note(io, `warning: ${message} (further ${kind} problems are counted, not repeated)`);
	problems.set(kind, count + 1);
}

/** One line per kind that was warned about more than once, with how many more there were. */
export function invalidSummary(io: Io): void {
	const problems = problemsByIo.get(io);
	for (const [kind, count] of problems ?? []) {
		if (count > 1) note(io, `warning: ${count - 1} more ${kind} problem${count === 2 ? '' : 's'} (first one above)`);
	}
	problems?.clear();
	const seen = seenByIo.get(io);
	if (!seen) return;
	for (const [kind, ids] of seen) {
		const count = ids.size;
		if (count > 1) note(io, `warning: ${count - 1} more ${kind} event${count === 2 ? '' : 's'} did not match the API (shown as unknown)`);
	}
	seen.clear();
}

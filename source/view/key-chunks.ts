import type {ActionName, InkKey} from './keymap.js';

/**
 * What one chunk of input, as Ink hands it over, is (use-key-dispatch.ts acts on the plan): one
 * key, several typed ahead, text for a field, a paste held back, or a terminal's reply dropped.
 */

export const escapeKey = '\u001B';

/** More printable characters than this in one chunk is a paste, not keys typed ahead. */
export const typeaheadLimit = 8;

/**
 * What to do with one chunk of input, as Ink hands it over. Ink splits a read at escape
 * sequences but hands over a run of anything else as one string: over SSH two backspaces, or
 * `/status:error` and Enter, arrive in one read, and every key in it counts, in order.
 * - `key`: one key, dispatch it.
 * - `drop`: not typed by a person: a terminal's reply to a query (`ESC]11;rgb:…`, cursor
 *   reports), ESC plus punctuation or a string introducer.
 * - `hold`: more than `typeaheadLimit` characters at once outside a text field that are not keys
 *   typed ahead (typedAhead): an unbracketed paste, whose letters must not run as commands. None
 *   of it runs, and the dispatcher says so on screen (`onHeld`).
 * - `split`: several keys. The first is dispatched now and the rest after the screen has
 *   caught up, so each key meets the contexts its predecessor opened (a `/` opens the filter,
 *   and the text after it lands in the field).
 * - `text`: in a text field, the printable text at the front goes into the field at once (it
 *   opens and closes nothing); the rest (a backspace, an Enter, more text) follows.
 */
export type ChunkPlan =
	| {kind: 'key'}
	| {kind: 'drop'}
	| {kind: 'hold'; count: number}
	| {kind: 'split'; first: string; rest: string}
	| {kind: 'text'; text: string; rest: string};

export function planChunk(
	input: string,
	key: InkKey,
	textEntry: boolean,
	raw: string = input,
	opensTextLine: (first: string) => boolean = () => false,
): ChunkPlan {
	// Esc and the key typed right after it, read together (a slow link, a loaded machine): Ink
	// reports Alt+key. No binding uses Alt, and no terminal reply is ESC and a letter or digit
	// (but for the SS2/SS3/DCS/SOS introducers N, O, P, X), so it is Esc, then that key.
	if (key.meta && !key.escape && /^\u001B[a-zA-Z\d]$/.test(raw) && !/^\u001B[NOPX]$/.test(raw)) return {kind: 'split', first: escapeKey, rest: input};
	if (key.meta && !key.escape && input.length > 0) return {kind: 'drop'};
	// Ink strips the ESC of a sequence it cannot name (an incomplete one, flushed after a pause):
	// only a sequence Ink recognised as a key is one. Under the kitty keyboard protocol a key with
	// a modifier (ctrl-r, ctrl-u) arrives as `ESC[114;5u`: a key too.
	if (raw.startsWith('\u001B') && !isNamedKey(key) && !isKittyKey(raw)) return {kind: 'drop'};
	// A run Ink did not split: the raw read, so control keys in it (DEL, ctrl-u) are seen too.
	const run = raw.startsWith('\u001B') ? input : raw;
	const points = [...run];
	if (points.length <= 1) return {kind: 'key'};
	// Ink splits escape sequences into their own chunks; one that still holds ESC is foreign.
	if (run.includes('\u001B')) return {kind: 'drop'};
	if (textEntry) {
		const printable = /^[^\u0000-\u001F\u007F-\u009F]+/.exec(run)?.[0] ?? '';
		if (printable) return {kind: 'text', text: printable, rest: run.slice(printable.length)};
		return {kind: 'split', first: points[0] ?? '', rest: points.slice(1).join('')};
	}
	const first = points[0] ?? '';
	if (points.length > typeaheadLimit && !typedAhead(points, opensTextLine)) return {kind: 'hold', count: points.length};
	return {kind: 'split', first, rest: points.slice(1).join('')};
}

/**
 * Whether a chunk longer than `typeaheadLimit`, outside a text field, is keys a person typed: one
 * key repeated (auto-repeat over a slow link: `jjjjjjjjjj`), or a few keys and then one that opens
 * a text line (`g/status:error` typed fast: `g`, then the filter and its text). Anything else is
 * held back as a paste, and said on screen (`hold`).
 */
function typedAhead(points: readonly string[], opensTextLine: (first: string) => boolean): boolean {
	if (points.every((point) => point === points[0])) return true;
	const opener = points.findIndex((point) => opensTextLine(point));
	return opener !== -1 && opener <= typeaheadLimit;
}

/** The notice for a chunk held back as a paste: what happened to it, and how to type text. */
export function heldText(count: number): string {
	return `Held back ${count} characters that came at once (a paste?): none ran as keys. Paste into a field (/ opens the filter).`;
}

/** Keys that open a text line: a long chunk that starts with one is a fast typist, not a paste. */
export const textLineOpeners: readonly ActionName[] = ['filter', 'search'];

const namedKeys = ['upArrow', 'downArrow', 'leftArrow', 'rightArrow', 'pageUp', 'pageDown', 'home', 'end', 'escape', 'tab', 'return', 'delete', 'backspace'] as const;

/** A key in the kitty keyboard protocol's own form (CSI code;modifiers u), which Ink parses. */
function isKittyKey(raw: string): boolean {
	return /^\u001B\[\d+(?::\d*)*(?:;[\d:]*)*u$/.test(raw);
}

function isNamedKey(key: InkKey): boolean {
	const flags = key as Partial<Record<(typeof namedKeys)[number], boolean>>;
	return namedKeys.some((name) => flags[name]);
}

/**
 * ESC followed by `]`, `P`, `_`, `^` or `X` opens a string (OSC, DCS, APC, PM, SOS): a terminal
 * reply. Ink hands over the introducer and the payload as separate chunks of the same read, so
 * the payload would look like typed text: everything in the same burst is swallowed with it.
 */
export function opensControlString(raw: string): boolean {
	return /^\u001B[\]P_^X]$/.test(raw);
}

/** Kept for callers that only ask "is this one key?" (tests, the start form). */
export function isForeignInput(input: string, key: InkKey): boolean {
	return planChunk(input, key, false).kind !== 'key';
}

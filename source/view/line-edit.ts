import {stripVTControlCharacters} from 'node:util';
import {graphemeSegments} from '../format/grapheme-segments.js';
import type {InkKey} from './keymap.js';

/**
 * The one line editor behind every text field (filter lines, the message and reject-reason box,
 * the start form, search, the bulk count): a pure reducer from a key to the next value and cursor,
 * so ctrl-u does the same thing everywhere and is tested once.
 *
 * Keys, as in readline and most shells: ←/→ move by one character (a grapheme cluster: an emoji
 * or a letter with its accents is one), home/ctrl-a and end/ctrl-e jump, backspace deletes before
 * the cursor, delete (ESC[3~) and ctrl-d after it, ctrl-u deletes to the start, ctrl-k to the end,
 * ctrl-w the word before the cursor. Text is inserted at the cursor with newlines and tabs made
 * spaces, escape sequences and other control characters dropped (a field is one line, echoed as
 * typed: coloured terminal output pasted in becomes its text), and a lone surrogate made U+FFFD.
 */

/**
 * `selected`: the whole value is selected, as a field opened on a value it already had starts (the
 * `/` filter): typing replaces it, a delete key clears it, a movement keeps it and drops the selection.
 */
export type LineState = {value: string; cursor: number; selected?: boolean};

export type LineEdit =
	| {type: 'insert'; text: string}
	| {type: 'backspace'}
	| {type: 'delete'}
	| {type: 'left'}
	| {type: 'right'}
	| {type: 'home'}
	| {type: 'end'}
	| {type: 'deleteToStart'}
	| {type: 'deleteToEnd'}
	| {type: 'deleteWordBefore'};

/** What a typed or pasted piece of text becomes in a one-line field. */
export function cleanLineText(text: string): string {
	return stripVTControlCharacters(text)
		.toWellFormed()
		.replaceAll(/[\t\r\n]+/g, ' ')
		.replaceAll(/[\u0000-\u001F\u007F-\u009F]/g, '');
}

const controlEdits: Partial<Record<string, LineEdit>> = {
	a: {type: 'home'},
	e: {type: 'end'},
	u: {type: 'deleteToStart'},
	k: {type: 'deleteToEnd'},
	w: {type: 'deleteWordBefore'},
	d: {type: 'delete'},
	h: {type: 'backspace'},
};

/** The edit a key makes, or null when it is not an editing key (enter, esc, tab, ↑/↓ belong to the form). */
export function lineEditForKey(input: string, key: InkKey & {home?: boolean; end?: boolean; backspace?: boolean; delete?: boolean}, raw = input): LineEdit | null {
	if (key.return || key.escape || key.tab || key.upArrow || key.downArrow || key.pageUp || key.pageDown) return null;
	if (key.leftArrow) return {type: 'left'};
	if (key.rightArrow) return {type: 'right'};
	if (key.home) return {type: 'home'};
	if (key.end) return {type: 'end'};
	// Ink names both DEL (what the Backspace key sends) and ESC[3~ (the Delete key) `delete`.
	if (key.backspace) return {type: 'backspace'};
	if (key.delete) return raw === '\u001B[3~' ? {type: 'delete'} : {type: 'backspace'};
	if (key.ctrl) return controlEdits[input] ?? null;
	if (key.meta) return null;
	const text = cleanLineText(input);
	return text ? {type: 'insert', text} : null;
}

/** Enough code units for any grapheme cluster a person types. */
const clusterWindow = 64;

/** Where the cluster before `at` starts. */
function previousBoundary(value: string, at: number): number {
	if (at <= 0) return 0;
	const from = Math.max(0, at - clusterWindow);
	let start = from;
	for (const {index} of graphemeSegments(value.slice(from, at))) start = from + index;
	return start;
}

/** Where the cluster at `at` ends. */
function nextBoundary(value: string, at: number): number {
	if (at >= value.length) return value.length;
	const first = graphemeSegments(value.slice(at, at + clusterWindow))[Symbol.iterator]().next();
	return first.done ? value.length : at + first.value.segment.length;
}

export function editLine(state: LineState, edit: LineEdit): LineState {
	if (state.selected && state.value !== '') return editSelected(state.value, edit);
	const {value} = state;
	const cursor = Math.max(0, Math.min(state.cursor, value.length));
	switch (edit.type) {
		case 'insert': {
			const text = cleanLineText(edit.text);
			return {value: value.slice(0, cursor) + text + value.slice(cursor), cursor: cursor + text.length};
		}
		case 'backspace': {
			const start = previousBoundary(value, cursor);
			return {value: value.slice(0, start) + value.slice(cursor), cursor: start};
		}
		case 'delete': {
			return {value: value.slice(0, cursor) + value.slice(nextBoundary(value, cursor)), cursor};
		}
		case 'left': {
			return {value, cursor: previousBoundary(value, cursor)};
		}
		case 'right': {
			return {value, cursor: nextBoundary(value, cursor)};
		}
		case 'home': {
			return {value, cursor: 0};
		}
		case 'end': {
			return {value, cursor: value.length};
		}
		case 'deleteToStart': {
			return {value: value.slice(cursor), cursor: 0};
		}
		case 'deleteToEnd': {
			return {value: value.slice(0, cursor), cursor};
		}
		case 'deleteWordBefore': {
			// readline's unix-word-rubout: the spaces before the cursor, then the word before them.
			let start = cursor;
			while (start > 0 && /\s/.test(value[start - 1] ?? '')) start--;
			while (start > 0 && !/\s/.test(value[start - 1] ?? '')) start--;
			return {value: value.slice(0, start) + value.slice(cursor), cursor: start};
		}
	}
}

/** An edit of a value that is selected as a whole. */
function editSelected(value: string, edit: LineEdit): LineState {
	switch (edit.type) {
		case 'insert': {
			const text = cleanLineText(edit.text);
			return {value: text, cursor: text.length};
		}
		case 'left':
		case 'home': {
			return {value, cursor: 0};
		}
		case 'right':
		case 'end': {
			return {value, cursor: value.length};
		}
		default: {
			// backspace, delete, ctrl-u, ctrl-k, ctrl-w: the selection goes.
			return {value: '', cursor: 0};
		}
	}
}

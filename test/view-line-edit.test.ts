import {test} from 'node:test';
import assert from 'node:assert/strict';
import {cleanLineText, editLine, type LineEdit, lineEditForKey, type LineState} from '../source/view/line-edit.js';

/** The one line editor behind every text field: what each key does to a value and its cursor. */

const at = (text: string): LineState => {
	const cursor = text.indexOf('|');
	return {value: text.replace('|', ''), cursor};
};
const show = (state: LineState) => `${state.value.slice(0, state.cursor)}|${state.value.slice(state.cursor)}`;
const apply = (text: string, ...edits: LineEdit[]) => show(edits.reduce(editLine, at(text)));

test('insert, backspace and delete at the cursor', () => {
	assert.equal(apply('ab|cd', {type: 'insert', text: 'X'}), 'abX|cd');
	assert.equal(apply('ab|cd', {type: 'backspace'}, {type: 'backspace'}), '|cd', 'two backspaces delete two characters');
	assert.equal(apply('|cd', {type: 'backspace'}), '|cd');
	assert.equal(apply('ab|cd', {type: 'delete'}), 'ab|d');
	assert.equal(apply('ab|', {type: 'delete'}), 'ab|');
	assert.equal(apply('a|', {type: 'insert', text: 'line one\nline\ttwo\u0007'}), 'aline one line two|', 'one line, no control characters');
});

test('a grapheme cluster is one character to the cursor and to backspace', () => {
	assert.equal(apply('ok👍🏽|', {type: 'backspace'}), 'ok|');
	assert.equal(apply('e\u0301|x', {type: 'left'}), '|e\u0301x');
	assert.equal(apply('|👨‍👩‍👧x', {type: 'right'}), '👨‍👩‍👧|x');
	assert.equal(apply('|👨‍👩‍👧x', {type: 'delete'}), '|x');
});

test('readline keys: ctrl-a, ctrl-e, ctrl-u, ctrl-k, ctrl-w', () => {
	assert.equal(apply('abc d|ef', {type: 'home'}), '|abc def');
	assert.equal(apply('abc d|ef', {type: 'end'}), 'abc def|');
	assert.equal(apply('abc d|ef', {type: 'deleteToStart'}), '|ef');
	assert.equal(apply('abc d|ef', {type: 'deleteToEnd'}), 'abc d|');
	assert.equal(apply('status:stuck repo:acme/api  |', {type: 'deleteWordBefore'}), 'status:stuck |');
	assert.equal(apply('status:stuck |', {type: 'deleteWordBefore'}, {type: 'deleteWordBefore'}), '|');
});

test('keys as Ink reports them become edits; keys of the form are not edits', () => {
	assert.deepEqual(lineEditForKey('u', {ctrl: true}, '\u0015'), {type: 'deleteToStart'});
	assert.deepEqual(lineEditForKey('w', {ctrl: true}, '\u0017'), {type: 'deleteWordBefore'});
	assert.deepEqual(lineEditForKey('a', {ctrl: true}, '\u0001'), {type: 'home'});
	assert.deepEqual(lineEditForKey('e', {ctrl: true}, '\u0005'), {type: 'end'});
	assert.deepEqual(lineEditForKey('', {delete: true}, '\u007F'), {type: 'backspace'}, 'DEL is what the Backspace key sends');
	assert.deepEqual(lineEditForKey('', {delete: true}, '\u001B[3~'), {type: 'delete'});
	assert.deepEqual(lineEditForKey('q', {}), {type: 'insert', text: 'q'});
	assert.equal(lineEditForKey('x', {ctrl: true}, '\u0018'), null, 'an unbound ctrl key types nothing');
	for (const key of [{return: true}, {escape: true}, {tab: true}, {upArrow: true}, {downArrow: true}]) assert.equal(lineEditForKey('', key), null);
});

test('text pasted with colour codes and other escape sequences keeps its words; a lone surrogate becomes U+FFFD', () => {
	assert.equal(cleanLineText('\u001B[31merror\u001B[0m: \u001B]8;;https://x\u0007link\u001B]8;;\u0007 \u001B[1;32mok\u001B[m'), 'error: link ok');
	assert.equal(cleanLineText('a\uD800b\uDFFFc'), 'a\uFFFDb\uFFFDc');
	assert.equal(cleanLineText('tab\there\r\nnext\u0007'), 'tab here next');
});

test('a value selected as a whole (a filter reopened): typing replaces it, arrows keep it, delete keys clear it', () => {
	const selected: LineState = {value: 'agent', cursor: 5, selected: true};
	assert.deepEqual(editLine(selected, {type: 'insert', text: 's'}), {value: 's', cursor: 1});
	assert.deepEqual(([{type: 'insert', text: 's'}, {type: 'insert', text: 'tuck'}] as LineEdit[]).reduce(editLine, selected), {value: 'stuck', cursor: 5}, 'the first key replaces, the rest add');
	assert.deepEqual(editLine(selected, {type: 'end'}), {value: 'agent', cursor: 5});
	assert.deepEqual(editLine(selected, {type: 'left'}), {value: 'agent', cursor: 0});
	assert.deepEqual(([{type: 'end'}, {type: 'insert', text: ' stuck'}] as LineEdit[]).reduce(editLine, selected), {value: 'agent stuck', cursor: 11}, 'an arrow first keeps it and types after it');
	for (const type of ['backspace', 'delete', 'deleteToStart', 'deleteToEnd', 'deleteWordBefore'] as const) {
		assert.deepEqual(editLine(selected, {type}), {value: '', cursor: 0}, type);
	}
	assert.deepEqual(editLine({value: '', cursor: 0, selected: true}, {type: 'insert', text: 'x'}), {value: 'x', cursor: 1}, 'nothing to select: typed as usual');
});

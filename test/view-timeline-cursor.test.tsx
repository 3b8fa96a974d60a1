import {test} from 'node:test';
import assert from 'node:assert/strict';
import {type CursorRows, cursorReducer, cursorView, type EventKey, findRow, initialCursor} from '../source/view/timeline/timeline-cursor.js';
import {kindPrefix, pickerKinds, withKind} from '../source/view/timeline/filter-text.js';

const key = (index: number): EventKey => ({id: `e${String(index).padStart(6, '0')}`, timestamp: `2026-01-01T00:00:${String(index).padStart(6, '0')}`});

function rowsOf(indexes: readonly number[], descending = false): CursorRows {
	const sorted = [...indexes].sort((a, b) => a - b);
	const list = (descending ? sorted.reverse() : sorted).map(key);
	return {length: list.length, at: (index) => list[index], descending};
}

test('findRow finds an event in ascending and descending rows, or where it would be', () => {
	const ascending = rowsOf([1, 3, 5, 7]);
	assert.equal(findRow(ascending, key(5)), 2);
	assert.equal(findRow(ascending, key(4)), 2);
	assert.equal(findRow(ascending, key(99)), 3);
	const descending = rowsOf([1, 3, 5, 7], true);
	assert.equal(findRow(descending, key(5)), 1);
	assert.equal(findRow(descending, key(1)), 3);
});

test('following keeps the newest row selected at the window edge, in both orders', () => {
	const state = initialCursor();
	const rows = rowsOf(Array.from({length: 50}, (_, index) => index));
	assert.deepEqual(cursorView(state, rows, 10), {selected: 49, offset: 40, newSincePause: 0});
	const newestFirst = rowsOf(Array.from({length: 50}, (_, index) => index), true);
	assert.deepEqual(cursorView(state, newestFirst, 10), {selected: 0, offset: 0, newSincePause: 0});
	assert.deepEqual(cursorView(state, rowsOf([]), 10), {selected: -1, offset: 0, newSincePause: 0});
});

test('moving pauses following; the selection stays on its event when history is inserted above it', () => {
	let rows = rowsOf(Array.from({length: 50}, (_, index) => index + 100));
	let state = cursorReducer(initialCursor(), {type: 'move', delta: -3, rows, height: 10});
	assert.equal(state.follow, false);
	let view = cursorView(state, rows, 10);
	assert.equal(rows.at(view.selected)?.id, key(146).id);
	const screenRow = view.selected - view.offset;
	// Backfill: 100 older events arrive above, and 2 new ones below.
	rows = rowsOf([...Array.from({length: 100}, (_, index) => index), ...Array.from({length: 52}, (_, index) => index + 100)]);
	view = cursorView(state, rows, 10);
	assert.equal(rows.at(view.selected)?.id, key(146).id, 'same event selected');
	assert.equal(view.selected - view.offset, screenRow, 'same screen row');
	assert.equal(view.newSincePause, 2, 'the two newer ones are new; the history read in above is not');
	// Newest first the same two count.
	const newestFirst = rowsOf([...Array.from({length: 100}, (_, index) => index), ...Array.from({length: 52}, (_, index) => index + 100)], true);
	assert.equal(cursorView(state, newestFirst, 10).newSincePause, 2);
	// A window whose newest end was dropped and read back: nothing newer than at the pause.
	assert.equal(cursorView(state, rowsOf(Array.from({length: 50}, (_, index) => index + 100)), 10).newSincePause, 0);
	state = cursorReducer(state, {type: 'toggle-follow', rows, height: 10});
	view = cursorView(state, rows, 10);
	assert.equal(view.selected, rows.length - 1);
	assert.equal(view.newSincePause, 0);
});

test('paging and the ends clamp; the window scrolls only at its edges', () => {
	const rows = rowsOf(Array.from({length: 100}, (_, index) => index));
	let state = cursorReducer(initialCursor(), {type: 'first', rows, height: 10});
	assert.deepEqual(cursorView(state, rows, 10), {selected: 0, offset: 0, newSincePause: 0});
	state = cursorReducer(state, {type: 'move', delta: 5, rows, height: 10});
	assert.deepEqual(cursorView(state, rows, 10).offset, 0);
	state = cursorReducer(state, {type: 'page', direction: 1, rows, height: 10});
	assert.deepEqual(cursorView(state, rows, 10), {selected: 14, offset: 5, newSincePause: 0});
	state = cursorReducer(state, {type: 'move', delta: -1000, rows, height: 10});
	assert.equal(cursorView(state, rows, 10).selected, 0);
	state = cursorReducer(state, {type: 'last', rows, height: 10});
	assert.deepEqual(cursorView(state, rows, 10), {selected: 99, offset: 90, newSincePause: 0});
	assert.equal(state.follow, false, 'reaching the end does not resume following by itself');
});

test('the kind picker completes what is being typed or appends a term', () => {
	assert.equal(kindPrefix('source:agent kind:Obs'), 'Obs');
	assert.equal(kindPrefix('kind:'), '');
	assert.equal(kindPrefix('pytest'), null);
	assert.equal(withKind('source:agent kind:Obs', 'ObservationEvent'), 'source:agent kind:ObservationEvent ');
	assert.equal(withKind('pytest', 'ActionEvent'), 'pytest kind:ActionEvent ');
	assert.equal(withKind('', 'ActionEvent'), 'kind:ActionEvent ');
	assert.deepEqual(pickerKinds(['ActionEvent', 'ObservationEvent', 'UserRejectObservation'], 'kind:obs'), ['ObservationEvent', 'UserRejectObservation']);
});

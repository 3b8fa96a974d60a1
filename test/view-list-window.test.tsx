import {test} from 'node:test';
import assert from 'node:assert/strict';
import {initialListWindow, listWindowReducer, resolveWindow, type ListWindowState} from '../source/view/list-window.js';
import {initialViewState, keyContexts, sortKeys, viewReducer} from '../source/view/view-state.js';

const keys = Array.from({length: 50}, (_, index) => `k${index}`);

function run(state: ListWindowState, ...actions: Array<(keys: readonly string[]) => Parameters<typeof listWindowReducer>[1]>) {
	return actions.reduce((current, make) => listWindowReducer(current, make(keys)), state);
}

test('moving keeps the selection inside the window', () => {
	let state = initialListWindow;
	for (let step = 0; step < 12; step++) state = listWindowReducer(state, {type: 'move', delta: 1, keys, height: 10});
	const window = resolveWindow(state, keys, 10);
	assert.equal(window.index, 12);
	assert.equal(window.selectedKey, 'k12');
	assert.equal(window.offset, 3);
	state = listWindowReducer(state, {type: 'last', keys, height: 10});
	assert.deepEqual(resolveWindow(state, keys, 10), {index: 49, offset: 40, selectedKey: 'k49'});
	state = listWindowReducer(state, {type: 'first', keys, height: 10});
	assert.deepEqual(resolveWindow(state, keys, 10), {index: 0, offset: 0, selectedKey: 'k0'});
	state = listWindowReducer(state, {type: 'move', delta: -5, keys, height: 10});
	assert.equal(resolveWindow(state, keys, 10).index, 0);
});

test('pages scroll the window with the selection', () => {
	const state = run(initialListWindow, (k) => ({type: 'page', direction: 1, keys: k, height: 10}));
	const window = resolveWindow(state, keys, 10);
	assert.equal(window.index, 9);
	assert.ok(window.index >= window.offset && window.index < window.offset + 10);
	const back = resolveWindow(listWindowReducer(state, {type: 'page', direction: -1, keys, height: 10}), keys, 10);
	assert.equal(back.index, 0);
});

test('the selection follows its key when rows are re-ordered, and lands on a neighbour when it goes', () => {
	const state = listWindowReducer(initialListWindow, {type: 'select', key: 'k20', keys, height: 10});
	const shuffled = [...keys].reverse();
	assert.equal(resolveWindow(state, shuffled, 10).selectedKey, 'k20');
	assert.equal(resolveWindow(state, shuffled, 10).index, 29);
	const without = keys.filter((key) => key !== 'k20');
	assert.equal(resolveWindow(state, without, 10).selectedKey, 'k21');
	assert.deepEqual(resolveWindow(state, [], 10), {index: -1, offset: 0, selectedKey: null});
	// A shrinking terminal keeps the selection visible.
	const small = resolveWindow(state, keys, 3);
	assert.ok(small.index >= small.offset && small.index < small.offset + 3);
});

test('view state: panes cycle, overlays shadow the panes, filters edit in place', () => {
	let state = viewReducer(initialViewState, {type: 'cycle-pane', direction: 1});
	assert.equal(state.pane, 'sandboxes');
	state = viewReducer(state, {type: 'cycle-pane', direction: 1});
	assert.equal(state.pane, 'timeline');
	assert.equal(state.listPane, 'sandboxes', 'the wide layout keeps showing the last list');
	state = viewReducer(state, {type: 'cycle-pane', direction: 1});
	assert.equal(state.pane, 'conversations');
	state = viewReducer(state, {type: 'cycle-pane', direction: -1});
	assert.equal(state.pane, 'timeline');
	assert.deepEqual(keyContexts(state), ['timeline', 'global', 'always']);
	state = viewReducer(state, {type: 'open-overlay', overlay: {kind: 'details'}});
	assert.deepEqual(keyContexts(state), ['details', 'global', 'always']);
	state = viewReducer(state, {type: 'focus', pane: 'conversations'});
	assert.equal(state.overlay, null, 'leaving the timeline closes its details');
	state = viewReducer(state, {type: 'edit-filter', target: 'conversations'});
	assert.deepEqual(keyContexts(state), ['filter', 'always']);
	state = viewReducer(state, {type: 'cycle-sort'});
	assert.equal(state.sort, 'activity');
	// Round the whole cycle (attention, activity, created, cost, context, title) back to the start.
	for (let step = 0; step < sortKeys.length - 1; step++) state = viewReducer(state, {type: 'cycle-sort'});
	assert.equal(state.sort, 'attention');
});

test('a panel opened clears the last message, which spoke of what came before it', () => {
	let state = viewReducer(initialViewState, {type: 'notice', text: 'Cancelled: nothing was done.', at: 1});
	assert.equal(state.notice?.text, 'Cancelled: nothing was done.');
	state = viewReducer(state, {type: 'open-overlay', overlay: {kind: 'queue'}});
	assert.equal(state.overlay?.kind, 'queue');
	assert.equal(state.notice, null, 'the next panel does not sit above an old "Cancelled"');
	// A message given while the panel is open is shown.
	state = viewReducer(state, {type: 'notice', text: 'Stopped: 1 of 2 sent.', at: 2});
	assert.equal(state.notice?.text, 'Stopped: 1 of 2 sent.');
});

test('an adoption queued by a render never undoes a key pressed after that render', () => {
	const keys = ['a', 'b', 'c', 'd'];
	// The filter hid the selected row 'x': the render resolved to 'c' and queued its adoption.
	const before: ListWindowState = {selectedKey: 'x', index: 2, offset: 0, chosen: true};
	assert.equal(resolveWindow(before, keys, 3).selectedKey, 'c');
	// The user pressed g before the adoption ran: the first row stays selected.
	const afterG = listWindowReducer(before, {type: 'first', keys, height: 3});
	assert.equal(afterG.selectedKey, 'a');
	const late = listWindowReducer(afterG, {type: 'adopt', key: 'c', expected: 'x', keys, height: 3});
	assert.equal(late.selectedKey, 'a', 'the stale adoption is dropped');
	// With nothing pressed in between, the adoption applies.
	assert.equal(listWindowReducer(before, {type: 'adopt', key: 'c', expected: 'x', keys, height: 3}).selectedKey, 'c');
});

test('until a row is picked the selection is the top row, whatever re-sorts; once picked it follows its key', () => {
	// The first screen drew k0 on top and the render adopted it (no key pressed).
	let state = listWindowReducer(initialListWindow, {type: 'adopt', key: 'k0', expected: null, keys, height: 10});
	assert.equal(resolveWindow(state, keys, 10).selectedKey, 'k0');
	// Rows that need you arrive or change later and sort above it: the cursor stays on the top row.
	const resorted = ['k40', 'k41', 'k42', 'k43', 'k44', ...keys.filter((key) => !['k40', 'k41', 'k42', 'k43', 'k44'].includes(key))];
	assert.deepEqual(resolveWindow(state, resorted, 10), {index: 0, offset: 0, selectedKey: 'k40'});
	state = listWindowReducer(state, {type: 'adopt', key: 'k40', expected: 'k0', keys: resorted, height: 10});
	assert.equal(resolveWindow(state, keys, 10).selectedKey, 'k0', 'still the top row, not the adopted key');
	// A key pressed picks a row: from then on it follows that row.
	state = listWindowReducer(state, {type: 'move', delta: 1, keys, height: 10});
	assert.equal(resolveWindow(state, keys, 10).selectedKey, 'k1');
	assert.equal(resolveWindow(state, resorted, 10).selectedKey, 'k1');
	assert.equal(resolveWindow(state, resorted, 10).index, 6);
});

import {test} from 'node:test';
import assert from 'node:assert/strict';
import {computeLayout, minColumns, minRows, wideColumns} from '../source/view/layout.js';

test('layout: one pane below the wide width, two halves from it, one row short of the terminal', () => {
	const narrow = computeLayout(80, 24);
	assert.equal(narrow.wide, false);
	assert.equal(narrow.leftWidth, 80);
	assert.equal(narrow.frameHeight, 23, 'a frame as tall as the terminal makes Ink clear the screen on every render');
	assert.equal(narrow.paneHeight, 19);
	const wide = computeLayout(160, 48);
	assert.equal(wide.wide, true);
	assert.equal(wide.leftWidth + 1 + wide.rightWidth, 160);
	assert.ok(wide.leftWidth >= 80, `the list keeps room for titles: ${wide.leftWidth}`);
	assert.ok(wide.rightWidth >= 78, `the timeline keeps room for summaries: ${wide.rightWidth}`);
	assert.equal(computeLayout(400, 60).leftWidth, 110, 'the list stops growing; the timeline takes the rest');
	assert.equal(computeLayout(wideColumns - 1, 40).wide, false);
	const zoomed = computeLayout(160, 48, true);
	assert.deepEqual([zoomed.wide, zoomed.roomForTwo, zoomed.leftWidth, zoomed.rightWidth], [false, true, 160, 0], 'z: one pane, the whole width');
	assert.equal(computeLayout(wideColumns - 1, 40, true).roomForTwo, false);
	assert.equal(computeLayout(minColumns - 1, 40).tooSmall, true);
	assert.equal(computeLayout(80, minRows - 1).tooSmall, true);
});

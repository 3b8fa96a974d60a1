import assert from 'node:assert/strict';
import {test} from 'node:test';
import type {TreeNode} from '../source/state/conversation-tree.js';
import {treePrefix} from '../source/view/conversation-cells.js';
import {Dashboard} from '../source/view/Dashboard.js';
import {type ConversationSeed, fixtureSnapshot, fixtureStore, hexId, recordingController} from './helpers/dashboard-fixture.js';
import {press, renderSized, waitForFrame} from './helpers/ink.js';

/**
 * The conversations list as a tree, in Ink: sub-agents under their parent with a count, folded
 * with space and ←, a parent raised by the sub-agent that waits for approval (the badge and the
 * preview name it), filters that keep the tree, and n that goes to the child itself. Then a
 * sandbox's reason (status_detail) and UNKNOWN in the list, the preview and the Sandboxes pane.
 */

const parent = hexId(1);
const worker = hexId(2);
const waiting = hexId(3);
const planner = hexId(4);
const leftArrow = '\u001B[D';

const fleet: ConversationSeed[] = [
	{id: hexId(9), title: 'Migrate the billing tables', execution: 'running', updatedMinutesAgo: 1},
	{id: parent, title: 'Refactor payments', execution: 'running', updatedMinutesAgo: 2},
	{id: worker, title: 'Write the unit tests', execution: 'running', parent, updatedMinutesAgo: 1},
	{id: waiting, title: 'Clean the build output', execution: 'waiting_for_confirmation', parent, updatedMinutesAgo: 3},
	{id: planner, title: 'Plan the refactor', execution: 'finished', parent, updatedMinutesAgo: 40},
	{id: hexId(5), title: 'Investigate the memory growth', execution: 'stuck', updatedMinutesAgo: 6},
];

const selected = (frame: string) => frame.split('\n').find((line) => line.startsWith('› ')) ?? '';
const lineOf = (frame: string, text: string) => frame.split('\n').find((line) => line.includes(text)) ?? '';
const rowIndex = (frame: string, text: string) => frame.split('\n').findIndex((line) => line.includes(text));

/** 139 columns: the widest one-pane layout (from 140 the timeline sits beside the list). */
function render(seeds: ConversationSeed[] = fleet, columns = 139) {
	return renderSized(<Dashboard store={fixtureStore(fixtureSnapshot({}, seeds))} controller={recordingController()} onQuit={() => undefined} />, {columns, rows: 24});
}

test('sub-agents under their parent with a count; the waiting one raises its parent, which names it', async () => {
	const rendered = render();
	const frame = await waitForFrame(rendered.lastFrame, (text) => text.includes('Refactor paym'));
	assert.match(lineOf(frame, 'Refactor payments'), /! sub: approve\? \d+[smhd] · ▾( 3 sub-agents ·|3) Refactor payments/);
	// First in the attention order, before the stuck run; its children right under it, the waiting one first.
	assert.equal(rowIndex(frame, 'Clean the build'), rowIndex(frame, 'Refactor payments') + 1);
	assert.ok(rowIndex(frame, 'Refactor payments') < rowIndex(frame, 'Investigate the memory'));
	assert.match(lineOf(frame, 'Clean the build'), /! approve\? \d+[smhd] · ├ Clean the build output/);
	assert.match(lineOf(frame, 'Write the unit'), /├ Write the unit tests/);
	assert.match(lineOf(frame, 'Plan the refactor'), /└ Plan the refactor/);
	// The preview of the selected parent names the child and what it waits for (the list has no room for it).
	assert.match(/Refactor payments/.test(selected(frame)) ? frame : '', /a sub-agent needs you: waiting for you to approve an action for \d+[smhd] · "Clean the build output" \(00000000\)/);
	rendered.unmount();
});

test('80x24: the tree keeps its marks in the title column (▾, ├, └) and the reason badge first', async () => {
	const rendered = render(fleet, 80);
	const frame = await waitForFrame(rendered.lastFrame, (text) => text.includes('Refactor paym'));
	assert.match(lineOf(frame, 'Refactor paym'), /! ↓approve\? · ▾ Refactor paym/, 'the shortest badge that still says a sub-agent waits');
	assert.match(lineOf(frame, 'Clean the build'), /! approve\? (\d+[smhd] )?· ├ Clean the build/);
	assert.match(lineOf(frame, 'Plan the refactor'), /└ Plan the refactor/);
	for (const line of frame.split('\n')) assert.ok(line.length <= 80, line);
	// The parent is selected: its preview says what the sub-agent needs before its (long) title.
	assert.match(selected(frame), /Refactor paym/);
	assert.match(lineOf(frame, 'needs you'), /^! a sub-agent needs you: waiting for you to approve an action for \d+[smhd] · "Clean/);
	rendered.unmount();
});

test('space folds and unfolds a parent\'s sub-agents; ← on a sub-agent folds its parent and selects it', async () => {
	const rendered = render();
	let frame = await waitForFrame(rendered.lastFrame, (text) => /Refactor payments/.test(selected(text)));
	frame = await press(rendered, ' ', (text) => !text.includes('Write the unit'), 'folded');
	assert.match(lineOf(frame, 'Refactor payments'), /▸( 3 sub-agents ·|3) Refactor/);
	assert.match(frame, /Refactor payments · no repository/, 'the preview is still the parent\'s');
	frame = await press(rendered, ' ', (text) => text.includes('Write the unit'), 'unfolded');
	assert.match(lineOf(frame, 'Refactor payments'), /▾( 3 sub-agents ·|3) Refactor/);
	await press(rendered, 'jj', (text) => /Write the unit/.test(selected(text)));
	frame = await press(rendered, leftArrow, (text) => !text.includes('Write the unit') && /Refactor payments/.test(selected(text)), '← to the parent, folded');
	assert.match(lineOf(frame, 'Refactor payments'), /▸ ?3/);
	rendered.unmount();
});

test('a filter keeps the tree: a matching sub-agent shows under its parent, even when folded', async () => {
	const rendered = render();
	await waitForFrame(rendered.lastFrame, (text) => /Refactor payments/.test(selected(text)));
	await press(rendered, ' ', (text) => !text.includes('Write the unit'));
	const frame = await press(rendered, '/status:waiting\r', (text) => text.includes('Clean the build') && text.includes('2 of 6'));
	assert.ok(rowIndex(frame, 'Clean the build') === rowIndex(frame, 'Refactor payments') + 1, frame);
	assert.ok(!frame.includes('Investigate the memory') && !frame.includes('Write the unit'), 'the rest is filtered out');
	rendered.unmount();
});

test('n goes to the sub-agent that needs you, not to its raised parent', async () => {
	const rendered = render();
	await waitForFrame(rendered.lastFrame, (text) => /Refactor payments/.test(selected(text)));
	await press(rendered, 'G', (text) => /Investigate|Migrate/.test(selected(text)));
	let frame = await press(rendered, 'n', (text) => /Clean the build/.test(selected(text)), 'n to the waiting child');
	frame = await press(rendered, 'n', (text) => /Investigate the memory/.test(selected(text)), 'then the stuck run, the parent skipped');
	assert.ok(frame.includes('Refactor payments'));
	// Folded, the parent is where the child is.
	await press(rendered, 'gg', (text) => /Refactor payments/.test(selected(text)));
	await press(rendered, ' ', (text) => /▸ ?3/.test(lineOf(text, 'Refactor payments')));
	await press(rendered, 'G', (text) => !/Refactor payments/.test(selected(text)));
	frame = await press(rendered, 'n', (text) => /Refactor payments/.test(selected(text)), 'n to the folded parent');
	rendered.unmount();
});

test('a sandbox that is down says why: the row\'s reason and the preview carry status_detail; UNKNOWN is its own word', async () => {
	const seeds: ConversationSeed[] = [
		{id: hexId(11), title: 'Upgrade the image pipeline', execution: null, sandbox: 'ERROR', sandboxDetail: 'ImagePullBackOff', updatedMinutesAgo: 5},
		{id: hexId(12), title: 'Reindex the search cluster', execution: null, lastKnown: 'running', sandbox: 'UNKNOWN', sandboxDetail: 'runtime provider unavailable', updatedMinutesAgo: 2},
		{id: hexId(13), title: 'Nightly audit', execution: null, sandbox: 'STARTING', sandboxDetail: 'insufficient kvm', updatedMinutesAgo: 12},
		{id: hexId(14), title: 'A healthy run', execution: 'running', updatedMinutesAgo: 1},
	];
	const rendered = render(seeds);
	let frame = await waitForFrame(rendered.lastFrame, (text) => text.includes('Upgrade the image'));
	// The runtime's reason is the badge: the SANDBOX column beside it says the status.
	assert.match(lineOf(frame, 'Upgrade the image'), /✗ error +! ImagePullBackOff · Upgrade the image/);
	assert.match(lineOf(frame, 'Reindex the search'), /▸ was running +\? unknown +! runtime provider unavail(able|…) · Reindex/, 'the agent was running; its sandbox is UNKNOWN: two words');
	assert.match(lineOf(frame, 'Nightly audit'), /◐ starting +! insufficient kvm · Nightly audit/);
	assert.doesNotMatch(lineOf(frame, 'Reindex the search'), /● running|□ paused/, 'UNKNOWN is never running or stopped');
	// The preview of the selected one.
	frame = await press(rendered, 'j', (text) => /Upgrade the image/.test(selected(text)));
	assert.match(frame, /sandbox ERROR: ImagePullBackOff/);
	assert.match(frame, /its sandbox failed \(ERROR: ImagePullBackOff\)/);
	// The Sandboxes pane: the same reason beside the sandbox.
	frame = await press(rendered, '2', (text) => text.includes('USED BY'));
	assert.match(lineOf(frame, 'Upgrade the image'), /✗ error .*ImagePullBackOff · Upgrade the image pipeline/);
	assert.match(lineOf(frame, 'Reindex the search'), /\? unknown .*runtime provider unavailable · Reindex/);
	assert.match(lineOf(frame, 'Nightly audit'), /◐ starting .*insufficient kvm · Nightly audit/);
	rendered.unmount();
});

test('treePrefix: the count in words when the title has room, then ▾3, then ▾; children indented by depth', () => {
	const parent: TreeNode = {depth: 0, children: 3, collapsed: false, last: false, context: false};
	assert.equal(treePrefix(parent, 60), '▾ 3 sub-agents · ');
	assert.equal(treePrefix({...parent, collapsed: true}, 60), '▸ 3 sub-agents · ');
	assert.equal(treePrefix({...parent, children: 1}, 60), '▾ 1 sub-agent · ');
	assert.equal(treePrefix(parent, 20), '▾3 ');
	assert.equal(treePrefix(parent, 10), '▾ ');
	assert.equal(treePrefix({depth: 1, children: 0, collapsed: false, last: false, context: false}, 60), '├ ');
	assert.equal(treePrefix({depth: 2, children: 0, collapsed: false, last: true, context: false}, 60), '  └ ');
	assert.equal(treePrefix({depth: 0, children: 0, collapsed: false, last: false, context: false, orphanOf: 'x'}, 60), '↳ ');
	assert.equal(treePrefix(undefined, 60), '');
});

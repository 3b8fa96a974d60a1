import {test} from 'node:test';
import assert from 'node:assert/strict';
import {stripVTControlCharacters} from 'node:util';
import {Dashboard} from '../source/view/Dashboard.js';
import {dashboardOnSimulator} from './helpers/sim-dashboard.js';
import {keys, press, renderSized, waitForFrame} from './helpers/ink.js';

/**
 * Opening another conversation shows it at once, never the previous one's events. The store
 * batches what it publishes; behind a busy stream a batch can wait (the issue saw the previous
 * conversation's events for about 2 s). Here the batch window is 1.5 s and the open timeline
 * streams, so any frame between the key and the next batch would show the stale timeline.
 */

test('80x24: enter on another conversation draws it (or its loading line) in the next frame, never the previous one', {timeout: 60_000}, async (t) => {
	const {sim, store, controller} = await dashboardOnSimulator(t, {seed: 7, tickMs: 0, conversations: 12}, {
		polling: {budget: {perSecond: 200, perMinute: 10_000}, intervals: {refreshMs: 200, sandboxesMs: 300, sandboxesPendingMs: 100, searchMs: 60_000}, flushMs: 1500},
	});
	const rendered = renderSized(<Dashboard store={store} controller={controller} onQuit={() => {}} />, {columns: 80, rows: 24});
	t.after(() => rendered.unmount());
	const first = sim.world.conversationList().find((entry) => entry.scenario === 'long-runner')!;
	const second = sim.world.conversationList().find((entry) => entry.scenario === 'coding' && sim.world.findSandbox(entry.sandboxId)?.status === 'RUNNING')!;
	const selected = (frame: string) => frame.split('\n').find((line) => line.startsWith('› ')) ?? '';
	const pick = async (title: string) => {
		await press(rendered, '/', (frame) => frame.includes(' of 12'));
		rendered.stdin.write(title.slice(0, 20));
		await waitForFrame(rendered.lastFrame, (frame) => frame.includes(' 1 of 12'), {timeoutMs: 10_000});
		await press(rendered, keys.enter, (frame) => selected(frame).includes(title.slice(0, 12)) && frame.includes('esc clears'), undefined);
	};
	await waitForFrame(rendered.lastFrame, (frame) => frame.includes('need you') && frame.includes(first.title.slice(0, 12)), {timeoutMs: 20_000});
	await pick(first.title);
	await press(rendered, keys.enter, (frame) => frame.includes(`[3 Timeline: ${first.title.slice(0, 12)}`) && / live /.test(frame), undefined);
	await press(rendered, '1', (frame) => frame.includes('[1 Conversations'));
	await pick(second.title);
	// The stream brings an event: the store's next batch is now up to 1.5 s away.
	sim.step(1);
	await new Promise((resolve) => setTimeout(resolve, 50));
	const before = rendered.stdout.frames.length;
	rendered.stdin.write(keys.enter);
	const opened = await waitForFrame(rendered.lastFrame, (frame) => frame.includes(`[3 Timeline: ${second.title.slice(0, 12)}`), {timeoutMs: 10_000});
	const after = rendered.stdout.frames.slice(before).map((frame) => stripVTControlCharacters(frame));
	const stale = after.filter((frame) => frame.includes(`[3 Timeline: ${first.title.slice(0, 12)}`));
	assert.equal(stale.length, 0, `frames after enter that showed the previous conversation: ${stale.length}\n${stale[0] ?? ''}`);
	assert.doesNotMatch(opened, new RegExp(first.title.slice(0, 12)));
});

import {test} from 'node:test';
import assert from 'node:assert/strict';
import diagnostics from 'node:diagnostics_channel';
import {Dashboard} from '../source/view/Dashboard.js';
import {dashboardOnSimulator} from './helpers/sim-dashboard.js';
import {keys, press, renderSized, waitForFrame} from './helpers/ink.js';

/**
 * The request a key asks for leaves before the frame that key draws. Ink 8 renders a key's update
 * in the same turn as the key; a request that waited for even one resolved promise on its way to
 * undici (the transport's pacing, when nothing is paced) went out only after that frame was
 * built and written: opening a stored conversation sent its request 2-12 ms after the key.
 */

const storedSearch = /\/api\/v1\/.*events\/search/;

test('enter on a stopped conversation: its stored-history request is made before any frame after the key', {timeout: 60_000}, async (t) => {
	const {sim, store, controller} = await dashboardOnSimulator(t, {seed: 7, tickMs: 0, conversations: 12});
	const rendered = renderSized(<Dashboard store={store} controller={controller} onQuit={() => {}} />, {columns: 120, rows: 30});
	t.after(() => rendered.unmount());
	const stopped = sim.world.conversationList().find((entry) => sim.world.findSandbox(entry.sandboxId)?.status === 'PAUSED');
	assert.ok(stopped, 'the simulator has a conversation whose sandbox is paused');
	const title = stopped.title.slice(0, 20);
	await waitForFrame(rendered.lastFrame, (frame) => frame.includes('Conversations (12)'), {timeoutMs: 20_000});
	await press(rendered, '/', (frame) => frame.includes(' of 12'));
	rendered.stdin.write(title);
	await waitForFrame(rendered.lastFrame, (frame) => frame.includes(' 1 of 12'), {timeoutMs: 10_000});
	await press(rendered, keys.enter, (frame) => frame.includes('esc clears'));

	// Frames written when each stored-history request was made (undici publishes as it creates one).
	const framesAtRequest: number[] = [];
	const onCreate = (message: unknown) => {
		if (storedSearch.test((message as {request: {path: string}}).request.path)) framesAtRequest.push(rendered.stdout.frames.length);
	};
	diagnostics.subscribe('undici:request:create', onCreate);
	t.after(() => diagnostics.unsubscribe('undici:request:create', onCreate));
	const before = rendered.stdout.frames.length;
	rendered.stdin.write(keys.enter);
	await waitForFrame(rendered.lastFrame, (frame) => frame.includes('stored history'), {timeoutMs: 10_000});
	assert.ok(framesAtRequest.length >= 1, 'the stored history was requested');
	assert.ok(rendered.stdout.frames.length > before, 'the key drew frames');
	assert.equal(framesAtRequest[0], before, `frames written between the key and its request: ${framesAtRequest[0]! - before}`);
});

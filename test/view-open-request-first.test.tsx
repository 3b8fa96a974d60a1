import {type TestContext, test} from 'node:test';
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

/** The dashboard on a simulator, the list filtered to one stopped conversation and the filter closed. */
async function stoppedSelected(t: TestContext) {
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
	return rendered;
}

/** The number of frames written when each stored-history request reached `channel`. */
function framesWhen(t: TestContext, channel: string, frames: () => number): number[] {
	const seen: number[] = [];
	const listener = (message: unknown) => {
		if (storedSearch.test((message as {request: {path: string}}).request.path)) seen.push(frames());
	};
	diagnostics.subscribe(channel, listener);
	t.after(() => diagnostics.unsubscribe(channel, listener));
	return seen;
}

test('enter on a stopped conversation: its stored-history request is made before any frame after the key', {timeout: 60_000}, async (t) => {
	const rendered = await stoppedSelected(t);
	// Frames written when each stored-history request was made (undici publishes as it creates one).
	const framesAtRequest = framesWhen(t, 'undici:request:create', () => rendered.stdout.frames.length);
	const before = rendered.stdout.frames.length;
	rendered.stdin.write(keys.enter);
	await waitForFrame(rendered.lastFrame, (frame) => frame.includes('stored history'), {timeoutMs: 10_000});
	assert.ok(framesAtRequest.length >= 1, 'the stored history was requested');
	assert.ok(rendered.stdout.frames.length > before, 'the key drew frames');
	assert.equal(framesAtRequest[0], before, `frames written between the key and its request: ${framesAtRequest[0]! - before}`);
});

test('enter on a stopped conversation: the request is on the socket before the key draws its frame (frame-hold.ts)', {timeout: 60_000}, async (t) => {
	// The list's polls used the keep-alive socket the read goes over: undici checks such a socket
	// in a later turn of the event loop before writing to it.
	const rendered = await stoppedSelected(t);
	const framesAtWrite = framesWhen(t, 'undici:client:sendHeaders', () => rendered.stdout.frames.length);
	const before = rendered.stdout.frames.length;
	rendered.stdin.write(keys.enter);
	await waitForFrame(rendered.lastFrame, (frame) => frame.includes('stored history') && /\d\d:\d\d:\d\d /.test(frame), {timeoutMs: 10_000});
	assert.ok(framesAtWrite.length >= 1, 'the stored history was read');
	assert.ok(rendered.stdout.frames.length > before, 'the key drew frames');
	assert.equal(framesAtWrite[0], before, `frames written between the key and its request going out: ${framesAtWrite[0]! - before}`);
	// And the pane the key asked for came: the timeline, focused.
	assert.match(rendered.lastFrame() ?? '', /stored history/);
});

test('a key typed right after enter, before the held frame is drawn, acts on the timeline enter opened', {timeout: 60_000}, async (t) => {
	const rendered = await stoppedSelected(t);
	// Two reads, back to back: the second comes while the first one's frame is held for its request.
	rendered.stdin.write(keys.enter);
	rendered.stdin.write('/');
	const frame = await waitForFrame(rendered.lastFrame, (shown) => shown.includes('kind:ActionEvent source:agent') || shown.includes(' of 12'), {timeoutMs: 10_000});
	assert.match(frame, /kind:ActionEvent source:agent/, 'the / opened the timeline\'s filter, not the list\'s');
	assert.doesNotMatch(frame, / of 12/);
});

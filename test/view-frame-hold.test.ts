import {test} from 'node:test';
import assert from 'node:assert/strict';
import {BatchedPublisher} from '../source/state/batched-publisher.js';
import {FrameHold} from '../source/view/frame-hold.js';

/**
 * The hold that lets a key's request go out before the key's frame is drawn: what waits, for how
 * long (turns of the event loop, never the clock), and that the next key never waits for it.
 */

const checkPhase = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The store's real publisher, publishing a new value at once (a new number each time). */
function publisher() {
	const published = new BatchedPublisher(0, 0);
	let next = 0;
	return {
		subscribe: published.subscribe,
		publish: () => {
			published.schedule(() => ++next);
			published.flush();
		},
		close: () => published.close(),
	};
}

test('not allowed (a key fed back from a longer read): the act and what follows run at once, in order', () => {
	const hold = new FrameHold();
	const seen: string[] = [];
	hold.hold(
		() => seen.push('act'),
		() => seen.push('after'),
	);
	assert.deepEqual(seen, ['act', 'after']);
	assert.equal(hold.held, false);
	assert.equal(hold.release(), false, 'nothing to release');
});

test('allowed: the act runs now; the view and the store listeners wait until released, each once', () => {
	const hold = new FrameHold();
	const store = publisher();
	const told: string[] = [];
	const unsubscribe = hold.gate(store.subscribe)(() => told.push('listener'));
	store.publish();
	assert.deepEqual(told, ['listener'], 'not held: told at once');
	hold.allowed = true;
	hold.hold(
		() => {
			told.push('act');
			store.publish();
			store.publish();
		},
		() => told.push('after'),
	);
	hold.allowed = false;
	assert.deepEqual(told, ['listener', 'act']);
	assert.equal(hold.held, true);
	assert.equal(hold.release(), true);
	assert.deepEqual(told, ['listener', 'act', 'listener', 'after'], 'the listener told twice runs once');
	assert.equal(hold.held, false);
	store.publish();
	assert.equal(told.at(-1), 'listener', 'released: told at once again');
	unsubscribe();
	store.close();
});

test('released by itself two check phases on, after an immediate queued by the act\'s promise chain (where undici writes)', async () => {
	const hold = new FrameHold();
	const order: string[] = [];
	hold.allowed = true;
	hold.hold(
		() => {
			// A request made a few awaits into the act, as the stored-history read is; undici then
			// writes it in the next check phase.
			void (async () => {
				await Promise.resolve();
				await Promise.resolve();
				setImmediate(() => order.push('request written'));
			})();
		},
		() => order.push('frame'),
	);
	hold.allowed = false;
	await checkPhase();
	assert.equal(hold.held, true, 'one check phase on: still held');
	await checkPhase();
	assert.equal(hold.held, false, 'two check phases on: released');
	assert.deepEqual(order, ['request written', 'frame']);
});

test('a second act while held waits with the first, and they run in the order they came', () => {
	const hold = new FrameHold();
	const order: string[] = [];
	hold.allowed = true;
	hold.hold(
		() => order.push('act 1'),
		() => order.push('after 1'),
	);
	hold.allowed = false;
	// Not allowed itself, but something is held already: it must not jump ahead of it.
	hold.hold(
		() => order.push('act 2'),
		() => order.push('after 2'),
	);
	hold.release();
	assert.deepEqual(order, ['act 1', 'act 2', 'after 1', 'after 2']);
});

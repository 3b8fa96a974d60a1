import {test, mock} from 'node:test';
import assert from 'node:assert/strict';
import {BudgetClosedError, RequestBudget} from '../source/state/request-budget.js';
import {RateLimitedError} from '../source/wire/errors.js';
import {maxInWindow} from './helpers/send-window.js';

// Real timers never appear here: mock.timers drives setTimeout and Date, setImmediate stays real
// so promise callbacks can run between ticks.
const flush = async () => {
	for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
};

function withMockTime(t: {after: (fn: () => void) => void}) {
	mock.timers.enable({apis: ['setTimeout', 'Date'], now: 1_000_000});
	t.after(() => mock.timers.reset());
}

async function advance(ms: number, step = 50) {
	for (let elapsed = 0; elapsed < ms; elapsed += step) {
		mock.timers.tick(step);
		await flush();
	}
}

test('never more than perSecond in any second nor perMinute in any minute', async (t) => {
	withMockTime(t);
	const budget = new RequestBudget();
	const sent: number[] = [];
	const results: Array<Promise<number>> = [];
	for (let index = 0; index < 150; index++) {
		results.push(
			budget.schedule(`key-${index}`, async () => {
				sent.push(Date.now());
				return index;
			}),
		);
	}

	await flush();
	assert.equal(sent.length, 10, 'the first second sends exactly perSecond');
	assert.equal(budget.requestsLastMinute(), 10);
	await advance(1000);
	assert.equal(sent.length, 10, 'a send stays counted a little longer than its second (guard)');
	await advance(100);
	assert.equal(sent.length, 20);
	await advance(58_000, 250);
	assert.equal(sent.length, 100, 'the first minute sends exactly perMinute');
	assert.equal(budget.requestsLastMinute(), 100);
	await advance(750, 250);
	assert.equal(sent.length, 100, 'nothing until the first sends leave the minute (plus the guard)');
	await advance(8000, 250);
	assert.equal(sent.length, 150);
	assert.deepEqual(await Promise.all(results), Array.from({length: 150}, (_, index) => index));
	assert.ok(maxInWindow(sent, 1000) <= 10, `1 s window max ${maxInWindow(sent, 1000)}`);
	assert.ok(maxInWindow(sent, 60_000) <= 100, `60 s window max ${maxInWindow(sent, 60_000)}`);
	budget.close();
});

test('one request in flight per key; others keep going', async (t) => {
	withMockTime(t);
	const budget = new RequestBudget();
	let releaseFirst!: () => void;
	const order: string[] = [];
	const first = budget.schedule('search', () => {
		order.push('search-1');
		return new Promise<void>((resolve) => {
			releaseFirst = resolve;
		});
	});
	const second = budget.schedule('search', async () => {
		order.push('search-2');
	});
	const other = budget.schedule('sandboxes', async () => {
		order.push('sandboxes');
	});
	await flush();
	assert.deepEqual(order, ['search-1', 'sandboxes']);
	assert.ok(budget.busy('search'));
	releaseFirst();
	await Promise.all([first, second, other]);
	assert.deepEqual(order, ['search-1', 'sandboxes', 'search-2']);
	assert.ok(!budget.busy('search'));
	budget.close();
});

test('user actions go before queued background polls', async (t) => {
	withMockTime(t);
	const budget = new RequestBudget({perSecond: 1, perMinute: 100, guardMs: 0});
	const order: string[] = [];
	const job = (name: string) => async () => {
		order.push(name);
	};
	void budget.schedule('a', job('a'), 'background');
	void budget.schedule('b', job('b'), 'background');
	void budget.schedule('c', job('c'), 'visible');
	void budget.schedule('d', job('d'), 'action');
	await flush();
	assert.deepEqual(order, ['a']);
	await advance(3000);
	assert.deepEqual(order, ['a', 'd', 'c', 'b']);
	budget.close();
});

test('a 429 starts one shared backoff that honours a long Retry-After', async (t) => {
	withMockTime(t);
	const budget = new RequestBudget();
	const start = Date.now();
	await assert.rejects(
		budget.schedule('search', async () => {
			throw new RateLimitedError('rate limited', 120_000);
		}),
		RateLimitedError,
	);
	assert.equal(budget.backoffUntil(), start + 120_000);
	const sent: Array<[string, number]> = [];
	const later = ['search', 'ids', 'sandboxes'].map((key) =>
		budget.schedule(key, async () => {
			sent.push([key, Date.now() - start]);
		}),
	);
	await advance(119_000, 1000);
	assert.equal(sent.length, 0, 'nothing at all goes out while backing off');
	await advance(1000, 100);
	await Promise.all(later);
	assert.equal(sent.length, 3);
	for (const [, at] of sent) assert.ok(at >= 120_000, `sent at ${at}`);
	assert.equal(budget.backoffUntil(), null);
	budget.close();
});

test('without Retry-After the backoff grows with jitter and resets on success', async (t) => {
	withMockTime(t);
	const budget = new RequestBudget({random: () => 1});
	const fail = () =>
		budget
			.schedule('search', async () => {
				throw new RateLimitedError('rate limited', undefined);
			})
			.catch(() => undefined);
	await fail();
	const first = budget.backoffUntil()! - Date.now();
	await advance(first + 100, 100);
	await fail();
	const second = budget.backoffUntil()! - Date.now();
	assert.ok(second > first, `${second} > ${first}`);
	await advance(second + 100, 100);
	await budget.schedule('search', async () => undefined);
	await fail();
	assert.equal(budget.backoffUntil()! - Date.now(), first, 'streak reset after a success');
	budget.close();
});

test('record() counts requests made outside schedule (client retries)', async (t) => {
	withMockTime(t);
	const budget = new RequestBudget({perSecond: 2, guardMs: 0});
	budget.record();
	budget.record();
	let ran = false;
	const job = budget.schedule('x', async () => {
		ran = true;
	});
	await flush();
	assert.equal(ran, false);
	await advance(1000);
	await job;
	assert.equal(ran, true);
	assert.equal(budget.requestsLastMinute(), 3);
});

test('a weighted job reserves its pages, re-stamped when it finishes', async (t) => {
	withMockTime(t);
	const budget = new RequestBudget({perSecond: 3, guardMs: 0});
	let release!: () => void;
	const order: string[] = [];
	const walk = budget.schedule(
		'walk',
		() =>
			new Promise<void>((resolve) => {
				order.push('walk');
				release = resolve;
			}),
		'background',
		3,
	);
	const one = budget.schedule('one', async () => void order.push('one'));
	const two = budget.schedule('two', async () => void order.push('two'));
	await flush();
	assert.deepEqual(order, ['walk'], 'the walk takes all three slots');
	await advance(500);
	release();
	await walk;
	// Its later pages went out before it finished: they count from t=500, not t=0.
	await advance(600);
	assert.deepEqual(order, ['walk', 'one']);
	await advance(500);
	await Promise.all([one, two]);
	assert.deepEqual(order, ['walk', 'one', 'two']);
	budget.close();
});

test('close rejects what is queued and aborts what is in flight', async (t) => {
	withMockTime(t);
	const budget = new RequestBudget({perSecond: 1});
	let aborted = false;
	const inFlight = budget.schedule('a', (signal) => {
		return new Promise<void>((_resolve, reject) => {
			signal.addEventListener('abort', () => {
				aborted = true;
				reject(signal.reason);
			});
		});
	});
	const queued = budget.schedule('b', async () => undefined);
	await flush();
	budget.close();
	await assert.rejects(queued, BudgetClosedError);
	await assert.rejects(inFlight, BudgetClosedError);
	assert.ok(aborted);
	await assert.rejects(budget.schedule('c', async () => undefined), BudgetClosedError);
});

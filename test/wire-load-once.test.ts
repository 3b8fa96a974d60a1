import assert from 'node:assert/strict';
import {test} from 'node:test';
import {loadOnce} from '../source/wire/load-once.js';

test('loadOnce: callers share one load, and a loaded value is kept', async () => {
	let calls = 0;
	const load = loadOnce(async () => {
		calls++;
		return {loaded: calls};
	});
	const [first, second] = await Promise.all([load(), load()]);
	assert.equal(calls, 1);
	assert.equal(first, second);
	assert.equal(await load(), first);
	assert.equal(calls, 1);
});

test('loadOnce: a failed load is not kept; the next caller loads again and keeps that', async () => {
	let calls = 0;
	const load = loadOnce(async () => {
		calls++;
		if (calls === 1) throw new Error('cannot read ws/index.js');
		return 'ws';
	});
	// Both callers of the failed load see its error.
	const failed = await Promise.allSettled([load(), load()]);
	assert.deepEqual(
		failed.map((result) => (result.status === 'rejected' ? (result.reason as Error).message : result.status)),
		['cannot read ws/index.js', 'cannot read ws/index.js'],
	);
	assert.equal(calls, 1);
	assert.equal(await load(), 'ws');
	assert.equal(await load(), 'ws');
	assert.equal(calls, 2);
});

import {test} from 'node:test';
import assert from 'node:assert/strict';
import {RowsMemo} from '../source/state/rows-memo.js';

/**
 * RowsMemo keeps an answer while its rows object lives: the same rows and key compute once, a
 * falsy answer (0, '', null) included; new rows or a new key compute again.
 */

test('the same rows and key compute once, a falsy answer too; new rows or a new key compute again', () => {
	const memo = new RowsMemo<object, number | string | null>();
	const rows = {};
	let computed = 0;
	const count = (value: number | string | null) => () => {
		computed++;
		return value;
	};
	for (const value of [0, '', null, 7]) {
		const key = `k${String(value)}`;
		const before = computed;
		assert.equal(memo.get(rows, key, count(value)), value);
		assert.equal(memo.get(rows, key, count(value)), value);
		assert.equal(computed, before + 1, `${JSON.stringify(value)}: computed once`);
	}

	const before = computed;
	assert.equal(memo.get({}, 'k0', count(1)), 1, 'other rows: their own answer');
	assert.equal(computed, before + 1);
});

test('an answer is the same object each time (identity), until more than 20 keys start the rows afresh', () => {
	const memo = new RowsMemo<object, string[]>();
	const rows = {};
	const first = memo.get(rows, 'a', () => ['a']);
	assert.equal(memo.get(rows, 'a', () => ['other']), first);
	for (let index = 0; index < 21; index++) memo.get(rows, `key ${index}`, () => [String(index)]);
	const again = memo.get(rows, 'a', () => ['a']);
	assert.notEqual(again, first, 'cleared: computed anew');
	assert.deepEqual(again, ['a']);
});

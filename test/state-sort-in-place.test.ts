import assert from 'node:assert/strict';
import {test} from 'node:test';
import fc from 'fast-check';
import {sortInPlace} from '../source/state/sort-in-place.js';

/** The tree's sort of each parent's children: the same order as Array.prototype.sort, ties kept in place. */

test('sortInPlace gives the order Array.prototype.sort gives, stable, short lists and long', {timeout: 30_000}, () => {
	type Item = {rank: number; at: number};
	const byRank = (a: Item, b: Item) => a.rank - b.rank;
	fc.assert(
		fc.property(fc.array(fc.integer({min: 0, max: 5}), {maxLength: 40}), (ranks) => {
			// Few ranks: many ties, so a sort that is not stable shows.
			const items = ranks.map((rank, at) => ({rank, at}));
			const expected = [...items].sort(byRank);
			const sorted = [...items];
			assert.equal(sortInPlace(sorted, byRank), sorted, 'in place');
			assert.deepEqual(sorted, expected);
		}),
		{numRuns: 500},
	);
});

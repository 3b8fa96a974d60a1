/**
 * Budget checks on send times: the largest number of `times` (ascending, in ms) inside any
 * interval of `windowMs`, so "never more than N in any second/minute" is one comparison.
 */
export function maxInWindow(times: readonly number[], windowMs: number): number {
	let best = 0;
	let start = 0;
	for (let end = 0; end < times.length; end++) {
		while (times[end]! - times[start]! >= windowMs) start++;
		best = Math.max(best, end - start + 1);
	}
	return best;
}

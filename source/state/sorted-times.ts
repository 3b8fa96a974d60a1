/** Sorted lists of request times, shared by the request budget and the ledger kept on disk. */

/** Index of the first time in the sorted `times` that is after `boundary` (binary search). */
export function firstInside(times: readonly number[], boundary: number): number {
	let low = 0;
	let high = times.length;
	while (low < high) {
		const middle = (low + high) >>> 1;
		if (times[middle]! <= boundary) low = middle + 1;
		else high = middle;
	}

	return low;
}

/** Puts `time` into the sorted `times`, after any equal ones. */
export function insertSorted(times: number[], time: number): void {
	times.splice(firstInside(times, time), 0, time);
}

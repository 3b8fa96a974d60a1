/** Longer lists go to Array.prototype.sort: insertion is quadratic, its allocation then negligible. */
const insertionUpTo = 16;

/**
 * Sorts `list` in place, stably, as Array.prototype.sort does; a short list (a parent's few
 * sub-agents) by insertion. Array.prototype.sort allocates its working state on every call, about
 * 800 bytes: the conversation tree sorts each parent's children, and with 20,000 parents that
 * was 17 MB of garbage per change of a 100,000-row list, which under --optimize-for-size cost a
 * full collection on most changes (bench/frame-cost.ts, the tree order row).
 */
export function sortInPlace<T>(list: T[], compare: (a: T, b: T) => number): T[] {
	if (list.length > insertionUpTo) return list.sort(compare);
	for (let index = 1; index < list.length; index++) {
		const item = list[index]!;
		let at = index - 1;
		while (at >= 0 && compare(list[at]!, item) > 0) {
			list[at + 1] = list[at]!;
			at--;
		}
		list[at + 1] = item;
	}
	return list;
}

/** Whether `a` and `b` hold the same value (`===`) in each of `fields`: a store publishes again only when one changed. */
export function sameFields<T>(a: T, b: T, fields: ReadonlyArray<keyof T>): boolean {
	for (const field of fields) if (a[field] !== b[field]) return false;
	return true;
}

/**
 * `load`, run at most once while it succeeds: every caller shares the first call's promise, and
 * once it has loaded the value is kept. A load that failed is not kept: the next caller tries again
 * (a module whose file could not be read a moment ago may be readable now), and the callers of the
 * failed one each see its error.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
	let pending: Promise<T> | undefined;
	return () => {
		pending ??= load().catch((error: unknown) => {
			pending = undefined;
			throw error;
		});
		return pending;
	};
}

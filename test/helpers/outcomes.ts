/** What a call under test came to, for tests that check how it ended rather than what it returned. */

/** The error `promise` fails with; throws if it does not fail. */
export async function failure(promise: Promise<unknown>): Promise<Error> {
	try {
		await promise;
	} catch (error) {
		return error as Error;
	}
	throw new Error('expected a failure');
}

/** Every item of `iterable`, pushed onto `seen` as it comes (so a test still has them when the iteration fails). */
export async function drain<T>(iterable: AsyncIterable<T>, seen: T[] = []): Promise<T[]> {
	for await (const item of iterable) seen.push(item);
	return seen;
}

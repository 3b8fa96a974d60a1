/**
 * A value built the first time it is asked for, then kept. For the large tables of zod schemas
 * (actions.ts, observations.ts): building them costs milliseconds of every start-up, and the
 * dashboard's first frame reads only the conversation list, so they are built when the first event
 * is parsed instead of when the wire modules load.
 */
export function builtOnce<T>(build: () => T): () => T {
	let built: {value: T} | undefined;
	return () => (built ??= {value: build()}).value;
}

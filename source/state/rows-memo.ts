/**
 * Answers computed from one rows object (the conversations Map of a snapshot), kept while that
 * object lives: the same rows and the same key give the same answer (identity), so `useMemo` and
 * `React.memo` consumers skip work. At most 20 keys per rows object; a new snapshot starts afresh.
 */
export class RowsMemo<Rows extends object, Value> {
	readonly #entries = new WeakMap<Rows, Map<string, Value>>();

	get(rows: Rows, key: string, compute: () => Value): Value {
		let entries = this.#entries.get(rows);
		if (entries?.has(key)) return entries.get(key) as Value;
		const value = compute();
		if (!entries) {
			entries = new Map();
			this.#entries.set(rows, entries);
		}

		if (entries.size > 20) entries.clear();
		entries.set(key, value);
		return value;
	}
}

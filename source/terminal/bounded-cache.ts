/**
 * A string-keyed cache that forgets everything when full. Frames reuse the same few hundred
 * lines, so a cleared cache refills within a frame or two, and memory stays bounded however
 * long the dashboard runs.
 */
export class BoundedCache<V> {
	readonly #map = new Map<string, V>();
	constructor(readonly limit: number) {}

	get(key: string, make: (key: string) => V): V {
		let value = this.#map.get(key);
		if (value === undefined) {
			if (this.#map.size >= this.limit) this.#map.clear();
			value = make(key);
			this.#map.set(key, value);
		}
		return value;
	}
}

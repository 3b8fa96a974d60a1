/**
 * Seeded randomness. Everything the simulator invents (ids, keys, titles, event contents) comes
 * from here, so the same seed and the same calls give the same world; tests compare two runs.
 */

const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const hexDigits = '0123456789abcdef';

/** FNV-1a over the parts, then a murmur finalizer: turns (seed, label) into a well-mixed 32-bit state. */
export function hashSeed(...parts: Array<string | number>): number {
	let hash = 0x811c9dc5;
	const text = parts.join('\u0000');
	for (let index = 0; index < text.length; index++) {
		hash ^= text.charCodeAt(index);
		hash = Math.imul(hash, 0x01000193);
	}
	hash ^= hash >>> 16;
	hash = Math.imul(hash, 0x85ebca6b);
	hash ^= hash >>> 13;
	hash = Math.imul(hash, 0xc2b2ae35);
	hash ^= hash >>> 16;
	return hash >>> 0;
}

export class Rng {
	private state: number;

	constructor(readonly seed: number) {
		this.state = hashSeed(seed) || 1;
	}

	/** mulberry32: tiny, fast, good enough for test data (not for secrets). */
	next(): number {
		this.state = (this.state + 0x6d2b79f5) | 0;
		let t = this.state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	}

	/**
	 * An independent stream named by `label`. It depends on the seed and the label only, never on
	 * how much of this stream was used, so conversations built lazily in any order come out the same.
	 */
	fork(label: string | number): Rng {
		return new Rng(hashSeed(this.seed, label));
	}

	/** Integer in [min, max], both inclusive. */
	int(min: number, max: number): number {
		return min + Math.floor(this.next() * (max - min + 1));
	}

	float(min: number, max: number): number {
		return min + this.next() * (max - min);
	}

	chance(probability: number): boolean {
		return this.next() < probability;
	}

	pick<T>(items: readonly T[]): T {
		if (items.length === 0) throw new Error('pick from an empty list');
		return items[Math.floor(this.next() * items.length)]!;
	}

	token(length: number, alphabet: string = base62): string {
		let out = '';
		for (let index = 0; index < length; index++) out += alphabet[Math.floor(this.next() * alphabet.length)];
		return out;
	}

	/** Eight hex digits per draw: ids are made by the ten thousand at start, so this is the hot path. */
	hex(length: number): string {
		let out = '';
		while (out.length < length) out += Math.floor(this.next() * 4294967296).toString(16).padStart(8, '0');
		return out.slice(0, length);
	}

	/** A version-4-shaped UUID as 32 hex characters (the app server's OpenHandsUUID spelling). */
	uuidHex(): string {
		const raw = this.hex(32);
		const variant = hexDigits[8 + Math.floor(this.next() * 4)];
		return `${raw.slice(0, 12)}4${raw.slice(13, 16)}${variant}${raw.slice(17)}`;
	}

	/** The same as `uuidHex`, in the dashed 8-4-4-4-12 form events and the agent server use. */
	uuid(): string {
		const hex = this.uuidHex();
		return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
	}
}

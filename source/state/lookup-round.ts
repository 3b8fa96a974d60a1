import {normalizeId} from '../wire/ids.js';
import type {AppConversation} from '../wire/schemas/app.js';
import {lookupBatchSize} from './poller-types.js';

/**
 * The conversation poller's refresh rounds (conversation-poller.ts): every known conversation
 * (key -> the id the server spells) is looked up once a round, in batches of `lookupBatchSize`,
 * in the order visible rows, rows needing attention, then the rest round-robin from where the
 * last round stopped (so a round cut short still reaches everyone over time); each key once.
 */
export class LookupRounds {
	/** key -> the id to send (the server's own spelling). Insertion order = order first seen. */
	#known = new Map<string, string>();
	#visible: readonly string[] = [];
	#attention: readonly string[] = [];
	#rest: string[] = [];
	#restCursor = 0;
	#round: string[][] | null = null;
	#roundBatches = 0;
	#roundStartedAt = 0;

	/** How many conversations are known. */
	get size(): number {
		return this.#known.size;
	}

	/** A conversation seen (a search page, a start): looked up from now on. Its key. */
	remember(conversation: AppConversation): string {
		const key = normalizeId(String(conversation.id));
		if (!this.#known.has(key)) {
			this.#known.set(key, String(conversation.id));
			this.#rest.push(key);
		}

		return key;
	}

	/** The keys on screen, refreshed first in every round (a screen holds far fewer than two batches). */
	setVisible(keys: readonly string[]): void {
		this.#visible = keys.slice(0, lookupBatchSize * 2);
	}

	/** The keys needing attention, refreshed right after the visible ones. */
	setAttention(keys: readonly string[]): void {
		this.#attention = keys;
	}

	/** A refresh: the next look-up starts a fresh round. */
	dropRound(): void {
		this.#round = null;
	}

	/** Keys the server no longer knows. */
	forget(keys: readonly string[]): void {
		for (const key of keys) this.#known.delete(key);
	}

	/** The next batch to look up (a new round begins when none is under way); null: nothing known. */
	nextBatch(now: number): {round: string[][]; batch: string[]; ids: string[]} | null {
		if (!this.#round || this.#round.length === 0) {
			this.#round = this.#buildRound();
			this.#roundBatches = 0;
			this.#roundStartedAt = now;
			if (this.#round.length === 0) {
				this.#round = null;
				return null;
			}
		}

		const round = this.#round;
		const batch = round[0]!;
		return {round, batch, ids: batch.map((key) => this.#known.get(key) ?? key)};
	}

	/**
	 * Only once it is answered is a batch done: a failure retries the same batch. A refresh
	 * meanwhile dropped this round (a new one starts with the walk's results).
	 */
	batchAnswered(round: string[][], batch: readonly string[]): void {
		if (this.#round !== round) return;
		round.shift();
		this.#roundBatches++;
		this.#restCursor += batch.length;
	}

	/** After a batch's answer was handed on: null when the round was dropped meanwhile, else whether more of it is left, or the round's end. */
	afterBatch(round: string[][]): {more: true} | {more: false; batches: number; startedAt: number} | null {
		if (this.#round !== round) return null;
		if (round.length > 0) return {more: true};
		this.#round = null;
		this.#restCursor = 0;
		return {more: false, batches: this.#roundBatches, startedAt: this.#roundStartedAt};
	}

	/** The round's order: visible, attention, then the rest round-robin; each key once. */
	#buildRound(): string[][] {
		const seen = new Set<string>();
		const ordered: string[] = [];
		const add = (key: string) => {
			if (!seen.has(key) && this.#known.has(key)) {
				seen.add(key);
				ordered.push(key);
			}
		};

		for (const key of this.#visible) add(key);
		for (const key of this.#attention) add(key);
		// Drop forgotten keys from the rotation, then continue from where the last round stopped.
		this.#rest = this.#rest.filter((key) => this.#known.has(key));
		const count = this.#rest.length;
		const start = count === 0 ? 0 : this.#restCursor % count;
		for (let offset = 0; offset < count; offset++) add(this.#rest[(start + offset) % count]!);
		const batches: string[][] = [];
		for (let index = 0; index < ordered.length; index += lookupBatchSize) batches.push(ordered.slice(index, index + lookupBatchSize));
		return batches;
	}
}

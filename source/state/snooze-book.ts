import {loadSnoozes, saveSnoozes, snoozeFilePath} from './snooze-store.js';
import type {Snooze} from './snoozes.js';

/**
 * One server's snoozes, by conversation key (normalized id), kept on disk (snooze-store.ts): every
 * change is written at once, so a snooze survives a restart or a crash. `version` moves on every
 * change, for the memo of the rows that carry the marks (snoozed-dashboard.ts).
 */
export class SnoozeBook {
	readonly #entries: Map<string, Snooze>;
	readonly #path: string | null;
	readonly #listeners = new Set<() => void>();
	#version = 0;
	#writeError: string | null = null;

	/** `path` null: kept in memory only (tests, a server with no address). */
	constructor(path: string | null, entries?: Map<string, Snooze>) {
		this.#path = path;
		this.#entries = entries ?? (path === null ? new Map() : loadSnoozes(path));
	}

	static forServer(baseUrl: string, env: NodeJS.ProcessEnv = process.env): SnoozeBook {
		return new SnoozeBook(snoozeFilePath(baseUrl, env));
	}

	get version(): number {
		return this.#version;
	}

	/** Why the last change could not be written (the snooze then holds for this run only), or null. */
	get writeError(): string | null {
		return this.#writeError;
	}

	get size(): number {
		return this.#entries.size;
	}

	get(key: string): Snooze | undefined {
		return this.#entries.get(key);
	}

	entries(): IterableIterator<[string, Snooze]> {
		return this.#entries.entries();
	}

	set(key: string, snooze: Snooze): void {
		this.#entries.set(key, snooze);
		this.#changed();
	}

	/** Ends a snooze; false when there was none. */
	drop(key: string): boolean {
		if (!this.#entries.delete(key)) return false;
		this.#changed();
		return true;
	}

	subscribe(listener: () => void): () => void {
		this.#listeners.add(listener);
		return () => this.#listeners.delete(listener);
	}

	#changed(): void {
		this.#version++;
		if (this.#path !== null) {
			try {
				saveSnoozes(this.#path, this.#entries);
				this.#writeError = null;
			} catch (error) {
				// A read-only state directory: the snooze holds for this run, and the caller says so.
				this.#writeError = error instanceof Error ? error.message : String(error);
			}
		}
		for (const listener of this.#listeners) listener();
	}
}

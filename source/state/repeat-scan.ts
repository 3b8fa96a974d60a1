import {hasAgentServer} from '../wire/agent-base-url.js';
import type {AppConversation} from '../wire/schemas/app.js';
import type {LoggedEvent} from '../wire/schemas/events.js';
import {trailingRepeat} from './attention.js';

/**
 * A model re-sending the same call, found for every running conversation, not only the one whose
 * timeline is open (issue 41, item 5). Round-robin over the running conversations, one read at a
 * time, `intervalMs` apart: the newest `tailLimit` events of one conversation (newest first, one
 * request, at background priority in the request budget), run through the same detector the open
 * timeline uses (attention.ts trailingRepeat). What it found is kept per conversation until it
 * stops running or a later read finds otherwise; the row's attention decides with its threshold.
 */

export type Repeat = {tool: string; count: number};

export type RepeatScanOptions = {
	/** The conversation's newest events, newest first (one request), or null when it cannot be read now. */
	readTail(key: string, limit: number, signal: AbortSignal): Promise<readonly LoggedEvent[]> | null;
	/** Runs the read in the request budget (background priority). */
	schedule<T>(key: string, task: (signal: AbortSignal) => Promise<T>): Promise<T>;
	/** What was found for this conversation changed: rebuild its row. */
	onChange(key: string): void;
	intervalMs?: number;
	tailLimit?: number;
};

/** One read every 6 s: a tenth of the default budget (100 a minute), the poller keeps its share. */
export const defaultRepeatScanMs = 6000;
/** Newest events read per conversation: an action and its observation per call, a run of 4 and more. */
export const defaultTailLimit = 20;

export class RepeatScan {
	readonly #options: RepeatScanOptions;
	#running: readonly string[] = [];
	#cursor = 0;
	#found = new Map<string, Repeat>();
	#timer: ReturnType<typeof setTimeout> | undefined;
	#busy = false;
	#closed = false;

	constructor(options: RepeatScanOptions) {
		this.#options = options;
	}

	/** What the last read of this conversation found (null: nothing repeated, or not read). */
	repeatOf(key: string): Repeat | null {
		return this.#found.get(key) ?? null;
	}

	/** The conversations to scan now (running agent in a running sandbox, timeline not open). */
	setRunning(keys: readonly string[]): void {
		if (this.#closed) return;
		const same = keys.length === this.#running.length && keys.every((key, index) => key === this.#running[index]);
		if (same) return;
		this.#running = [...keys];
		const running = new Set(keys);
		for (const key of [...this.#found.keys()]) {
			if (running.has(key)) continue;
			this.#found.delete(key);
			this.#options.onChange(key);
		}
		this.#arm();
	}

	close(): void {
		this.#closed = true;
		clearTimeout(this.#timer);
		this.#timer = undefined;
	}

	#arm(): void {
		if (this.#closed || this.#busy || this.#timer !== undefined || this.#running.length === 0) return;
		this.#timer = setTimeout(() => {
			this.#timer = undefined;
			void this.#next();
		}, this.#options.intervalMs ?? defaultRepeatScanMs);
		this.#timer.unref?.();
	}

	async #next(): Promise<void> {
		if (this.#closed || this.#running.length === 0) return;
		this.#cursor %= this.#running.length;
		const key = this.#running[this.#cursor]!;
		this.#cursor++;
		this.#busy = true;
		try {
			const limit = this.#options.tailLimit ?? defaultTailLimit;
			const events = await this.#options.schedule(`repeat-scan:${key}`, async (signal) => this.#options.readTail(key, limit, signal));
			if (this.#closed || events === null || !this.#running.includes(key)) return;
			const repeat = trailingRepeat([...events].reverse());
			const before = this.#found.get(key);
			if (repeat && repeat.count > 1) this.#found.set(key, repeat);
			else this.#found.delete(key);
			const after = this.#found.get(key);
			if (before?.tool !== after?.tool || before?.count !== after?.count) this.#options.onChange(key);
		} catch {
			// Unread this round (the agent server went away, the budget closed): the next round tries again.
		} finally {
			this.#busy = false;
			this.#arm();
		}
	}
}

/** The rows worth scanning: an agent at work (`running`) in a running sandbox with an agent server, not the open one (its timeline has the events). */
export function runningForScan(rows: Iterable<{key: string; agentStatus: string | null; conversation: AppConversation}>, openKey: string | null | undefined): string[] {
	const keys: string[] = [];
	for (const row of rows) {
		if (row.key === openKey || row.agentStatus !== 'running') continue;
		if (String(row.conversation.sandbox_status ?? '').toUpperCase() !== 'RUNNING' || !hasAgentServer(row.conversation)) continue;
		keys.push(row.key);
	}
	return keys;
}

import type {LoggedEvent} from '../wire/schemas/events.js';
import type {EventLog} from './event-log.js';

/**
 * Events received and not yet in a StreamSupervisor's log: socket frames held until a resync has
 * merged (or, in server order, until the log is proven complete below them), and resync results
 * that must wait with them. Frames of one burst are flushed together, in one later I/O turn.
 */
export class HeldFrames {
	#pending: LoggedEvent[] = [];
	readonly #ids = new Set<string>();
	#flush: NodeJS.Immediate | undefined;

	/** How many events are held. */
	get size(): number {
		return this.#pending.length;
	}

	has(id: string): boolean {
		return this.#ids.has(id);
	}

	/** The ids held now (a copy). */
	ids(): ReadonlySet<string> {
		return new Set(this.#ids);
	}

	/** A frame from the socket (kept even if one with its id is held: the log dedupes). */
	add(event: LoggedEvent): void {
		this.#ids.add(event.id);
		this.#pending.push(event);
	}

	/** Events that must wait with the held frames; those held or logged already are skipped. */
	hold(events: readonly LoggedEvent[], log: EventLog): void {
		for (const event of events) {
			if (this.#ids.has(event.id) || log.has(event.id)) continue;
			this.#ids.add(event.id);
			this.#pending.push(event);
		}
	}

	/** Everything held, in arrival order; nothing is held afterwards and no flush is due. */
	takeAll(): LoggedEvent[] {
		const waiting = this.#pending;
		this.#pending = [];
		this.#ids.clear();
		this.cancelFlush();
		return waiting;
	}

	/** The held events with these ids (the rest stay held). */
	take(ids: ReadonlySet<string>): LoggedEvent[] {
		if (ids.size === 0) return [];
		const now = this.#pending.filter((event) => ids.has(event.id));
		if (now.length === 0) return now;
		this.#pending = this.#pending.filter((event) => !ids.has(event.id));
		this.#ids.clear();
		for (const event of this.#pending) this.#ids.add(event.id);
		return now;
	}

	/** The newest timestamp among `logTip` (the log's newest) and the held events; null when there is none. */
	tip(logTip: string | null): string | null {
		let tip = logTip;
		for (const event of this.#pending) if (tip === null || event.timestamp > tip) tip = event.timestamp;
		return tip;
	}

	/** Runs `flush` in a later I/O turn, unless one is due already. */
	scheduleFlush(flush: () => void): void {
		this.#flush ??= setImmediate(() => {
			this.#flush = undefined;
			flush();
		});
	}

	cancelFlush(): void {
		if (this.#flush) clearImmediate(this.#flush);
		this.#flush = undefined;
	}
}

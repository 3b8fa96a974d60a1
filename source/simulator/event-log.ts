import {formatNaive, naiveMicrosOf} from './clock.js';
import type {SimEvent} from './event-factory.js';
import type {Rng} from './rng.js';

/**
 * One conversation's persisted events, in append order. Timestamps are stamped here and are
 * strictly increasing, so append order, timestamp order and (timestamp, id) order all agree and
 * clients that sort or page by timestamp never see two events swap.
 */
export class EventLog {
	readonly events: SimEvent[] = [];
	private readonly index = new Map<string, number>();
	private lastMicros = 0;

	/** `now`: the simulated server's clock (ours plus its skew, see World.now). */
	constructor(private readonly now: () => number = () => Date.now()) {}

	/** The next timestamp: the server's clock, pushed forward when two events land in the same microsecond. */
	stamp(nowMs: number = this.now()): string {
		const fraction = Math.floor((performance.now() % 1) * 1000);
		const micros = Math.max(naiveMicrosOf(nowMs) + fraction, this.lastMicros + 1);
		this.lastMicros = micros;
		return formatNaive(micros);
	}

	push(event: SimEvent): void {
		this.index.set(event.id, this.events.length);
		this.events.push(event);
	}

	get(id: string): SimEvent | undefined {
		const at = this.index.get(id);
		return at === undefined ? undefined : this.events[at];
	}

	has(id: string): boolean {
		return this.index.has(id);
	}

	/**
	 * Spreads the events built for a seeded conversation's history over [fromMs, toMs] with
	 * irregular gaps, so the history looks like it happened before the simulator started.
	 * Only safe before anyone has seen the events.
	 */
	spreadOver(fromMs: number, toMs: number, rng: Rng): void {
		const count = this.events.length;
		if (count === 0) return;
		const weights = Array.from({length: count}, () => 0.2 + rng.next() * 1.8);
		const total = weights.reduce((sum, weight) => sum + weight, 0);
		const start = naiveMicrosOf(fromMs);
		const span = Math.max(naiveMicrosOf(toMs) - start, count);
		let elapsed = 0;
		let previous = 0;
		for (let position = 0; position < count; position++) {
			elapsed += weights[position]!;
			const micros = Math.max(start + Math.floor((span * elapsed) / total), previous + 1);
			previous = micros;
			this.events[position]!.timestamp = formatNaive(micros);
		}
		this.lastMicros = previous;
	}
}

/**
 * Spend and its progress. The service reports only a conversation's total cost
 * (`metrics.accumulated_cost`); what a person triaging wants is how fast it grows and whether the
 * money buys anything. This keeps, per conversation, the cost seen at each poll on the servers'
 * clock (never ours), and derives:
 * - the cost per hour over the last `rateWindowMs`;
 * - whether the cost rose over a span (for *spending without progress*, decided with the
 *   conversation's progress marks, spend-progress.ts).
 * Pure apart from its own memory; the store feeds it and reads it.
 */

export type CostSample = {at: number; cost: number};

/**
 * Samples kept per conversation, at most one per `sampleGapMs` (a newer cost within the gap moves
 * the last sample instead of adding one): 128 of them span at least 21 minutes, more than the window.
 */
const maxSamples = 128;
const sampleGapMs = 10_000;
/** A clock that went back further than this has been replaced (the data's clock learned): series restart. */
const clockStepMs = 60_000;

/** Cost per hour over this span, by default. */
export const defaultRateWindowMs = 15 * 60_000;
/** A rate over less than this is noise (two polls a few seconds apart): none is given. */
export const minRateSpanMs = 20_000;

export class CostHistory {
	readonly #samples = new Map<string, CostSample[]>();

	/** The cost seen now; a sample only when it changed (or the first), so memory grows with spend, not with polls. */
	observe(key: string, cost: number | null | undefined, at: number): void {
		if (typeof cost !== 'number' || !Number.isFinite(cost)) return;
		const list = this.#samples.get(key);
		if (!list) {
			this.#samples.set(key, [{at, cost}]);
			return;
		}
		const last = list.at(-1)!;
		if (last.at - at > clockStepMs) {
			// The clock it is read on went back (the data's clock learned after the Date header's):
			// a new series, not samples ignored until that clock catches up (weeks, on a skewed server).
			this.#samples.set(key, [{at, cost}]);
			return;
		}
		if (last.cost === cost || at < last.at) return;
		const before = list.at(-2);
		if (before && last.at - before.at < sampleGapMs) list[list.length - 1] = {at, cost};
		else list.push({at, cost});
		if (list.length > maxSamples) list.splice(0, list.length - maxSamples);
	}

	forget(key: string): void {
		this.#samples.delete(key);
	}

	samples(key: string): readonly CostSample[] {
		return this.#samples.get(key) ?? [];
	}

	/** The cost as known at `at`: the last sample at or before it (the first one before any). */
	costAt(key: string, at: number): number | null {
		const list = this.#samples.get(key);
		if (!list || list.length === 0) return null;
		let value = list[0]!.cost;
		for (const sample of list) {
			if (sample.at > at) break;
			value = sample.cost;
		}
		return value;
	}
}

/**
 * Cost per hour at `now`: what the cost grew by over the last `windowMs`, per hour, as watched.
 * A rate is an observed change: none before two observations that differ (the history keeps a
 * sample only when the cost changed, so two samples), none over less than `minRateSpanMs`, and
 * none for a conversation whose sandbox is not running (`running: false`): it spends nothing,
 * whatever it spent before. A conversation's creation is no observation: its cost at creation is
 * not known to have been 0 at that moment on our watch, and counting its whole cost as spent
 * since then made rates out of costs that never moved.
 */
export function costPerHour(samples: readonly CostSample[], now: number, options: {windowMs?: number; running?: boolean} = {}): number | null {
	if (options.running === false || samples.length < 2) return null;
	const windowMs = options.windowMs ?? defaultRateWindowMs;
	const first = samples[0]!;
	const last = samples.at(-1)!;
	const start = Math.max(now - windowMs, first.at);
	const span = now - start;
	if (span < minRateSpanMs) return null;
	let startCost = first.cost;
	for (const sample of samples) {
		if (sample.at > start) break;
		startCost = sample.cost;
	}
	const rise = Math.max(0, last.cost - startCost);
	return (rise / span) * 3_600_000;
}

/** A rate rounded so that small wobbles do not make a new row (and a redraw): two significant digits. */
export function roundRate(rate: number | null): number | null {
	if (rate === null) return null;
	if (rate < 0.005) return 0;
	const digits = Math.max(0, 1 - Math.floor(Math.log10(rate)));
	const factor = 10 ** Math.min(2, digits);
	return Math.round(rate * factor) / factor;
}

/** How much the cost rose from `from` to `now` (0 when it did not, null when nothing is known). */
export function costRise(history: CostHistory, key: string, from: number, now: number): number | null {
	const then = history.costAt(key, from);
	const current = history.costAt(key, now);
	if (then === null || current === null) return null;
	return Math.max(0, current - then);
}

/** The service's hard cap on one running session (its docs: 12 hours, not configurable). */
export const sessionCapMs = 12 * 3_600_000;

/**
 * Time left before the session cap, from when its sandbox started running. `exact` when the
 * dashboard saw it start; otherwise the start is at the latest its creation, so the time left is
 * at least the value (`atLeast`). Null when nothing sensible can be said (no start known, or a
 * creation older than the cap: it was resumed since, at a time we did not see).
 */
export function sessionTimeLeft(start: {at: number; exact: boolean} | null, now: number): {ms: number; atLeast: boolean} | null {
	if (!start) return null;
	const left = sessionCapMs - (now - start.at);
	if (!start.exact && left <= 0) return null;
	return {ms: Math.max(0, left), atLeast: !start.exact};
}

/** The share of the task budget spent, when the conversation has one. */
export function budgetShare(cost: number | null | undefined, budget: number | null | undefined): number | null {
	if (typeof cost !== 'number' || typeof budget !== 'number' || !(budget > 0)) return null;
	return cost / budget;
}

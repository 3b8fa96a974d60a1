/**
 * What one server said, with where and when (docs/state.md). Only code holding a server's answer
 * makes a `Fact`; anything computed here from facts (an age, a rate, a cause, a plan) is an
 * inference and is never shown as if a server had said it.
 */

/** How a fact came: a poll's search walk, a look-up by id, a stream, an action's own answer. */
export type FactVia = 'search' | 'lookup' | 'list' | 'stream' | 'action';

export type Fact<T> = {
	readonly value: T;
	/** The server that said it (its label, as the header shows it). */
	readonly server: string;
	/** When it was true on that server's data clock (ms), null while that clock is not known. */
	readonly observedAt: number | null;
	/** When the answer arrived, on our clock (ms). */
	readonly receivedAt: number;
	readonly via: FactVia;
};

/** A fact's place on both clocks, for whoever records one (data-clock ms or null, local ms). */
export type Observed = Omit<Fact<unknown>, 'value'>;

export function fact<T>(value: T, observed: Observed): Fact<T> {
	return {value, ...observed};
}

export type Freshness = {
	/** fresh: received within `maxAgeMs`; old: before that; missing: no fact at all. */
	readonly state: 'fresh' | 'old' | 'missing';
	/** How long ago it arrived, on our clock (null when missing). */
	readonly ageMs: number | null;
};

/**
 * Whether a plan may act on a fact as of `at` (our clock): the arrival time is compared on our
 * own clock, so no server clock is needed to tell fresh from old. A plan that must act on what
 * the server says now passes `maxAgeMs` 0 and reads again whatever is not fresh.
 */
export function freshness(observed: Pick<Observed, 'receivedAt'> | undefined, at: number, maxAgeMs: number): Freshness {
	if (!observed) return {state: 'missing', ageMs: null};
	const ageMs = Math.max(0, at - observed.receivedAt);
	return {state: ageMs <= maxAgeMs ? 'fresh' : 'old', ageMs};
}

/**
 * How an age is known: the one rule every age on every screen and in every headless command
 * follows (`3m`, `quiet 12m`, `stuck for 4d`, a sandbox's AGE, LAST).
 *
 * - `known`: now is read on the data's own clock (state/data-clock.ts learned it from a change
 *   or a live event), or the `Date` header is backed by the data (a conversation written within
 *   a minute of its now: the data's clock is at most a minute behind it).
 * - `assumed`: the `Date` header (or our own clock, when no answer had one) stands in, and
 *   nothing in the data contradicts it. Ages are told, and said to rest on that assumption
 *   (the header's `⏱ … ages assumed`, `"age_clock": "assumed"` in JSON, a note on stderr).
 * - `unknown`: the data contradicts the header: agents are at work (running, in a RUNNING
 *   sandbox) yet nothing listed was written within `disputeAfterMs` of the header's now. A
 *   sandbox runs at most 12 hours (spend.ts sessionCapMs) and an agent at work writes as it
 *   goes, so that is the mark of a data clock far behind the header (weeks, on the hosted
 *   service behind a proxy), not of a quiet fleet. Ages are `?` until the data's clock is learned.
 *
 * A quiet fleet on a right clock (every agent silent for twenty minutes) is therefore `assumed`,
 * never `unknown`: silence alone proves nothing about the clock.
 */

export type AgeBasis = 'known' | 'assumed' | 'unknown';

/** Agents at work with nothing written for this long (by the header) contradict it: one session's cap. */
export const disputeAfterMs = 12 * 3_600_000;

/** What the data said of the `Date` header, as DataClock keeps it. */
export type ClockEvidence = {
	/** The data's clock was learned from the data itself (changes, live events). */
	fromData: boolean;
	/** Something listed was written within a minute of the header's now. */
	backed: boolean;
	/** Agents at work, yet nothing listed was written within `disputeAfterMs` of the header's now. */
	disputed: boolean;
};

export function ageBasisOf(evidence: ClockEvidence): AgeBasis {
	if (evidence.fromData || evidence.backed) return 'known';
	return evidence.disputed ? 'unknown' : 'assumed';
}

/**
 * A moment seen on our clock (a stream event's arrival) placed on the data's clock, so it can be
 * compared with the data's timestamps: with a data clock weeks behind ours, a local stamp would
 * be weeks in the data's future (LAST stuck at `0s`, never `quiet`).
 */
export function onDataClock(localMs: number, dataOffsetMs: number): number {
	return localMs + dataOffsetMs;
}

/** Said once on stderr by a headless listing whose ages rest on the `Date` header alone. */
export const agesAssumedNote =
	"ages assume the server's Date header is the data's clock: nothing listed contradicts it, nothing confirms it (no conversation was written within a minute of it)";

/** Said once on stderr by a headless listing whose ages are `?`. */
export const agesUnknownNote =
	"ages are '?': agents are at work but nothing listed was written in the 12 hours before the server's Date header (a sandbox runs at most 12 h), so the data is written by another clock (the dashboard learns it as the data changes)";

/** The JSON field a headless listing adds beside its ages. */
export function ageClockJson(basis: AgeBasis): {age_clock: AgeBasis} {
	return {age_clock: basis};
}

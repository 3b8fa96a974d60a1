import {type AgeBasis, agesAssumedNote, agesUnknownNote} from '../state/age-basis.js';
import {parseTime} from '../state/attention.js';
import {DataClock, isAtWork} from '../state/data-clock.js';
import type {AgeNow} from '../format/time.js';
import type {AppConversation} from '../wire/schemas/app.js';
import type {ServerClock} from '../wire/server-clock.js';
import {note, type Io} from './io.js';

export {agesUnknownNote} from '../state/age-basis.js';

/** Now on the data's clock for a one-shot listing, and how that is known (state/age-basis.ts). */
export type ListingClock = {now: AgeNow; basis: AgeBasis};

/**
 * Now on the clock that wrote a one-shot listing, judged as the dashboard judges it
 * (state/data-clock.ts, state/age-basis.ts): the `Date` header's estimate is `known` when a
 * conversation was written within a minute of it, `unknown` (`?`) when agents are at work and
 * nothing was written in the 12 hours before it, else `assumed`. One listing cannot learn the
 * data's own clock (that needs a change between two answers).
 */
export function listingClock(clock: ServerClock, conversations: readonly AppConversation[], receivedAt = Date.now()): ListingClock {
	const data = new DataClock({fallback: clock, now: () => receivedAt});
	for (const conversation of conversations) {
		const updatedAt = parseTime(conversation.updated_at);
		if (updatedAt !== null) data.observeSeen(updatedAt, receivedAt);
	}
	if (conversations.some((conversation) => isAtWork(conversation))) data.observeAtWork();
	const basis = data.ageBasis();
	return {now: basis === 'unknown' ? 'unknown' : data.now(), basis};
}

/** Now only (see listingClock). */
export function listingNow(clock: ServerClock, conversations: readonly AppConversation[], receivedAt = Date.now()): AgeNow {
	return listingClock(clock, conversations, receivedAt).now;
}

/** What stderr says of a listing's ages once: nothing when known. */
export function noteAgeBasis(io: Io, basis: AgeBasis): void {
	if (basis === 'unknown') note(io, agesUnknownNote);
	else if (basis === 'assumed') note(io, agesAssumedNote);
}

import {parseTime} from '../state/attention.js';
import {DataClock, isAtWork} from '../state/data-clock.js';
import type {AgeNow} from '../format/time.js';
import type {AppConversation} from '../wire/schemas/app.js';
import type {ServerClock} from '../wire/server-clock.js';

/**
 * Now on the clock that wrote a one-shot listing, as the dashboard judges it (state/data-clock.ts):
 * the `Date` header's estimate stands in while nothing in the listing disputes it. When agents are
 * at work (they write as they go) and no conversation listed was written within a minute of that
 * now, the data is written by another clock (a proxy's `Date` right to the second, data weeks
 * behind): an age would be that skew, not how long ago. One listing cannot learn the data's own
 * clock, so the ages are `unknown` (`?`), never a false `3h`.
 */
export function listingNow(clock: ServerClock, conversations: readonly AppConversation[], receivedAt = Date.now()): AgeNow {
	const data = new DataClock({fallback: clock, now: () => receivedAt});
	for (const conversation of conversations) {
		const updatedAt = parseTime(conversation.updated_at);
		if (updatedAt !== null) data.observeSeen(updatedAt, receivedAt);
	}
	if (conversations.some((conversation) => isAtWork(conversation))) data.observeAtWork();
	return data.agesKnown() ? data.now() : 'unknown';
}

/** Said once on stderr when a listing's ages are `?`. */
export const agesUnknownNote =
	"ages are '?': agents are at work but none of the conversations was written within a minute of the server's Date header, so that clock is not the data's (the dashboard learns the data's clock as it changes)";

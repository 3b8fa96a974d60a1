import type {StreamHealth} from '../../state/dashboard-types.js';
import type {SummaryTone} from '../../format/event-summary.js';

/**
 * How the timeline's event stream is doing, in a few words: the header must never look live
 * while it is not (a silently stale timeline is worse than an error).
 */
const overRest = 'reading over REST';

export function streamLabel(stream: StreamHealth): {text: string; tone: SummaryTone} {
	switch (stream.state) {
		case 'live': {
			return {text: 'live', tone: 'normal'};
		}

		case 'backfilling': {
			// The history is loaded and read on over REST while the first socket has not answered.
			if (stream.overRest) return {text: `${overRest} · connecting`, tone: 'warn'};
			return {text: 'loading history…', tone: 'muted'};
		}

		case 'reconnecting': {
			const retry = stream.nextRetryInMs === undefined ? '' : `, retry in ${Math.ceil(stream.nextRetryInMs / 1000)}s`;
			// Events still arrive (a read every few seconds) while no socket holds: not just "reconnecting".
			return {text: `${stream.overRest ? `${overRest} · ` : ''}reconnecting (attempt ${stream.attempt}${retry})`, tone: 'warn'};
		}

		case 'failed': {
			return {text: `stream failed${stream.lastError ? `: ${stream.lastError}` : ''}`, tone: 'error'};
		}

		case 'closed': {
			return {text: 'stream closed', tone: 'muted'};
		}

		case 'idle': {
			return {text: 'not connected', tone: 'muted'};
		}
	}
}

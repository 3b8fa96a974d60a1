import type {PollerIntervals} from './poller-intervals.js';

/**
 * `AGENT_TUI_POLL`: the list poller's intervals and the request budget, for a server that allows
 * more than the hosted service's 10 requests/s and 100/min (a self-hosted one), and for soak
 * tests that must make an hour of polling happen in a minute. Comma-separated `name=value`
 * pairs: `perSecond=50,perMinute=5000,searchMs=200,refreshMs=500` (the PollerIntervals names).
 * Unknown names and unreadable values are reported and ignored; nothing set means the defaults.
 */

export type PollTuning = {
	/** `minuteMs`: the length of the budget's minute, for tests that make minutes pass in seconds. */
	budget?: {perSecond?: number; perMinute?: number; minuteMs?: number};
	intervals?: Partial<PollerIntervals>;
};

const intervalNames: ReadonlyArray<keyof PollerIntervals> = ['searchMs', 'refreshMs', 'sandboxesMs', 'sandboxesPendingMs', 'specsMs', 'retryBaseMs', 'retryCapMs'];

export function parsePollTuning(text: string | undefined, warn: (message: string) => void = () => undefined): PollTuning {
	const tuning: PollTuning = {};
	if (!text?.trim()) return tuning;
	for (const pair of text.split(',')) {
		const [name = '', raw = ''] = pair.split('=').map((part) => part.trim());
		const value = Number(raw);
		if (!Number.isFinite(value) || value <= 0) {
			warn(`AGENT_TUI_POLL: ${name || pair} needs a positive number, ignored`);
			continue;
		}
		if (name === 'perSecond' || name === 'perMinute' || name === 'minuteMs') tuning.budget = {...tuning.budget, [name]: value};
		else if ((intervalNames as readonly string[]).includes(name)) tuning.intervals = {...tuning.intervals, [name]: value};
		else warn(`AGENT_TUI_POLL: unknown setting "${name}", ignored (known: perSecond, perMinute, minuteMs, ${intervalNames.join(', ')})`);
	}
	return tuning;
}

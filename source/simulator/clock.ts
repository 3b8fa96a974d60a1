/**
 * Two timestamp spellings, because the two servers differ (docs/service-behaviour.md §1.1, §4):
 * the app server sends UTC with `Z`; agent-server events carry NAIVE server-local time with
 * microseconds, and clients compare them as strings. A "naive micro" below is local wall-clock
 * time expressed as microseconds since 1970 as if it were UTC, which makes formatting trivial and
 * keeps a DST fall-back from producing a timestamp that sorts before the previous one.
 */

/**
 * A skew for the simulator's clock, as `--clock-offset` takes it: `-21d`, `+3h`, `90s`, `-500ms`,
 * `2w`, or several parts in one sign, `-24d31s` (a bare number is milliseconds). The real
 * service's clock can be weeks off the user's; a skewed simulator lets tests show that ages follow
 * the server's clock. Null when unreadable.
 */
export function parseClockOffset(text: string): number | null {
	const match = /^\s*([+-]?)((?:\d+(?:\.\d+)?\s*(?:ms|s|m|h|d|w)?\s*)+)$/i.exec(text);
	if (!match) return null;
	const units: Record<string, number> = {ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000};
	const parts = [...match[2]!.matchAll(/(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)?/gi)];
	// Several parts each need their unit: `24d31` would be ambiguous.
	if (parts.length > 1 && parts.some((part) => part[2] === undefined)) return null;
	const value = parts.reduce((sum, part) => sum + Number(part[1]) * units[(part[2] ?? 'ms').toLowerCase()]!, 0);
	return Math.round(match[1] === '-' ? -value : value);
}

export function utcIso(ms: number): string {
	return `${new Date(ms).toISOString().slice(0, 23)}000Z`;
}

export function naiveMicrosOf(ms: number): number {
	const offsetMs = new Date(ms).getTimezoneOffset() * 60_000;
	return Math.round((ms - offsetMs) * 1000);
}

export function formatNaive(micros: number): string {
	const ms = Math.floor(micros / 1000);
	const fraction = String(micros - Math.floor(micros / 1_000_000) * 1_000_000).padStart(6, '0');
	return `${new Date(ms).toISOString().slice(0, 19)}.${fraction}`;
}

/**
 * A `timestamp__gte`-style query value as the server compares it: an aware value (Z or an offset)
 * is converted to naive local time like the real server does; a naive one is used as typed.
 * Returns null for text that is not a date at all.
 */
export function naiveQueryTimestamp(value: string): string | null {
	const trimmed = value.trim();
	if (trimmed === '') return null;
	const aware = /(?:[zZ]|[+-]\d{2}:?\d{2})$/.test(trimmed);
	const parsed = Date.parse(aware ? trimmed : `${trimmed.replace(' ', 'T')}Z`);
	if (Number.isNaN(parsed)) return null;
	if (!aware) return trimmed.replace(' ', 'T');
	return formatNaive(naiveMicrosOf(parsed));
}

/** Parses an app-server datetime filter; a value without a zone is taken as UTC (FastAPI does). */
export function parseUtcQuery(value: string): number | null {
	const trimmed = value.trim();
	if (trimmed === '') return null;
	const aware = /(?:[zZ]|[+-]\d{2}:?\d{2})$/.test(trimmed);
	const parsed = Date.parse(aware ? trimmed : `${trimmed}Z`);
	return Number.isNaN(parsed) ? null : parsed;
}

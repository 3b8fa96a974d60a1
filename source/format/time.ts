/**
 * Times as people scan them in a table: compact ages (`5s`, `3m`, `2h`, `4d`), event clock times
 * (`HH:MM:SS`) and durations. Two timestamp shapes arrive: the agent server's naive local ISO
 * strings with microseconds and no zone (`2025-11-22T12:00:00.123456`), and the app server's UTC
 * ones (`2025-11-22T12:00:00.123Z`). JavaScript's Date.parse is lenient in engine-specific ways
 * with the first shape, so both are parsed here with one strict pattern.
 */

const isoPattern =
	/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

type Parts = {
	year: number;
	month: number;
	day: number;
	hour: number;
	minute: number;
	second: number;
	millisecond: number;
	/** Minutes east of UTC, or null for a naive (local) timestamp. */
	offset: number | null;
};

function parseParts(text: string): Parts | null {
	const match = isoPattern.exec(text.trim());
	if (!match) return null;
	const [, year, month, day, hour = '0', minute = '0', second = '0', fraction = '', zone] = match;
	const parts: Parts = {
		year: Number(year),
		month: Number(month),
		day: Number(day),
		hour: Number(hour),
		minute: Number(minute),
		second: Number(second),
		// Microseconds and nanoseconds are dropped: a millisecond clock cannot hold them.
		millisecond: Number(fraction.padEnd(3, '0').slice(0, 3)),
		offset: zoneOffset(zone),
	};
	const valid =
		parts.month >= 1 &&
		parts.month <= 12 &&
		parts.day >= 1 &&
		parts.day <= daysInMonth(parts.year, parts.month) &&
		parts.hour <= 23 &&
		parts.minute <= 59 &&
		parts.second <= 60; // A leap second is a real reading; Date folds it into the next minute.
	return valid ? parts : null;
}

function zoneOffset(zone: string | undefined): number | null {
	if (zone === undefined) return null;
	if (zone.toUpperCase() === 'Z') return 0;
	const sign = zone.startsWith('-') ? -1 : 1;
	const digits = zone.slice(1).replace(':', '');
	return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || '0'));
}

function daysInMonth(year: number, month: number): number {
	return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Milliseconds since the epoch, or null when `text` is not an ISO timestamp. Naive = local time. */
export function parseTimestamp(text: string | null | undefined): number | null {
	if (typeof text !== 'string') return null;
	const parts = parseParts(text);
	if (!parts) return null;
	const {year, month, day, hour, minute, second, millisecond, offset} = parts;
	if (offset === null) {
		const local = new Date(year, month - 1, day, hour, minute, second, millisecond);
		// Years 0–99 are read by the Date constructor as 1900–1999.
		if (year < 100) local.setFullYear(year);
		return local.getTime();
	}

	const utc = new Date(Date.UTC(year, month - 1, day, hour, minute, second, millisecond));
	if (year < 100) utc.setUTCFullYear(year);
	return utc.getTime() - offset * 60_000;
}

const placeholderClock = '--:--:--';

/**
 * `HH:MM:SS` for a timestamp string or epoch milliseconds. A naive timestamp shows its own wall
 * clock digits (the server's local time: converting would guess a zone we do not know); a zoned
 * one is shown in our local time. Anything unreadable shows `--:--:--`.
 */
export function formatClock(timestamp: string | number | null | undefined): string {
	if (typeof timestamp === 'number') return Number.isFinite(timestamp) ? localClock(new Date(timestamp)) : placeholderClock;
	if (typeof timestamp !== 'string') return placeholderClock;
	const parts = parseParts(timestamp);
	if (!parts) return placeholderClock;
	if (parts.offset === null) return [parts.hour, parts.minute, parts.second].map(twoDigits).join(':');
	const ms = parseTimestamp(timestamp);
	return ms === null ? placeholderClock : localClock(new Date(ms));
}

/**
 * The calendar day of a timestamp (`2026-11-02`), read as formatClock reads its time: a naive
 * timestamp's own digits, a zoned one in our local time. Null when unreadable.
 */
export function formatDay(timestamp: string | null | undefined): string | null {
	const parts = typeof timestamp === 'string' ? parseParts(timestamp) : null;
	if (!parts) return null;
	if (parts.offset === null) return `${parts.year}-${twoDigits(parts.month)}-${twoDigits(parts.day)}`;
	const ms = parseTimestamp(timestamp!);
	if (ms === null) return null;
	const date = new Date(ms);
	return `${date.getFullYear()}-${twoDigits(date.getMonth() + 1)}-${twoDigits(date.getDate())}`;
}

/** `11-02 10:42` for a row of an earlier day than the newest one shown: the day, then the minute. */
export function formatDayClock(timestamp: string | null | undefined): string {
	const day = formatDay(timestamp);
	const clock = formatClock(timestamp);
	return day ? `${day.slice(5)} ${clock.slice(0, 5)}` : clock;
}

function localClock(date: Date): string {
	if (Number.isNaN(date.getTime())) return placeholderClock;
	return [date.getHours(), date.getMinutes(), date.getSeconds()].map(twoDigits).join(':');
}

function twoDigits(value: number): string {
	return String(value).padStart(2, '0');
}

const second = 1000;
const minute = 60 * second;
const hour = 60 * minute;
const day = 24 * hour;
const year = 365 * day;

/**
 * Compact age, one unit, rounded down: `0s`, `59s`, `3m`, `2h`, `4d`, `2y`. Negative ages (a
 * clock ahead of ours) count as 0; a missing or non-finite value is `—`.
 */
export function formatAge(ms: number | null | undefined): string {
	if (typeof ms !== 'number' || !Number.isFinite(ms)) return '—';
	const age = Math.max(0, ms);
	if (age < minute) return `${Math.floor(age / second)}s`;
	if (age < hour) return `${Math.floor(age / minute)}m`;
	if (age < day) return `${Math.floor(age / hour)}h`;
	if (age < year) return `${Math.floor(age / day)}d`;
	return `${Math.floor(age / year)}y`;
}

/**
 * Now on the clock that wrote the data (ms), or `unknown` while ages cannot be told: only the
 * `Date` header stands in for that clock and the data disputes it (state/data-clock.ts).
 */
export type AgeNow = number | 'unknown';

/** Since `then` (ms) at `now`: `3m`; `?` while ages cannot be told; `—` for no time. */
export function formatAgeAt(now: AgeNow, then: number | null): string {
	if (then === null) return '—';
	return now === 'unknown' ? '?' : formatAge(Math.max(0, now - then));
}

/** Age of a timestamp at `now` (`3m`), or `—` when the timestamp is unreadable. */
export function formatAgeSince(timestamp: string | number | null | undefined, now: number): string {
	const then = typeof timestamp === 'number' ? timestamp : parseTimestamp(timestamp);
	return then === null ? '—' : formatAge(now - then);
}

/**
 * Duration with two units where it helps: `850ms`, `12.3s`, `4m 05s`, `2h 03m`, `3d 04h`.
 * Negative or missing durations are `—`.
 */
export function formatDuration(ms: number | null | undefined): string {
	if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return '—';
	if (ms < second) return `${Math.floor(ms)}ms`;
	if (ms < minute) return `${(Math.floor(ms / 100) / 10).toFixed(1)}s`;

	if (ms < hour) return `${Math.floor(ms / minute)}m ${twoDigits(Math.floor((ms % minute) / second))}s`;
	if (ms < day) return `${Math.floor(ms / hour)}h ${twoDigits(Math.floor((ms % hour) / minute))}m`;
	return `${Math.floor(ms / day)}d ${twoDigits(Math.floor((ms % day) / hour))}h`;
}

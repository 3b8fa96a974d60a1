/**
 * Agent-server event timestamps are naive server-local ISO strings (`2025-11-22T12:00:00.123456`),
 * compared by the server as strings. We never mix them with our clock; the one thing we do is
 * step back a little from one of them for an overlapping resync. The arithmetic treats the string
 * as a wall-clock reading (no zone), and the result keeps the input's precision so the server's
 * string comparison still lines up.
 */

const naive = /^(\d{4})-(\d{2})-(\d{2})([T ])(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?$/;

/** `timestamp` moved by `deltaMs`; the input unchanged when it is not a naive ISO timestamp. */
export function shiftNaiveTimestamp(timestamp: string, deltaMs: number): string {
	const match = naive.exec(timestamp);
	if (!match || deltaMs === 0) return timestamp;
	const [, year, month, day, separator = 'T', hour, minute, second, fraction = ''] = match;
	const digits = fraction.length;
	// Whole microseconds since the epoch, as if the wall-clock reading were UTC.
	const micros =
		Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second)) * 1000 +
		Math.floor(Number(fraction.padEnd(6, '0').slice(0, 6)));
	const shifted = micros + Math.round(deltaMs * 1000);
	if (!Number.isFinite(shifted) || shifted < 0) return timestamp;
	const wholeMs = Math.floor(shifted / 1_000_000) * 1000;
	const base = new Date(wholeMs).toISOString().slice(0, 19).replace('T', separator);
	if (digits === 0) return base;
	const microsPart = String(shifted - wholeMs * 1000).padStart(6, '0');
	// Keep the input's number of fraction digits (pad beyond microseconds with zeros).
	const text = digits <= 6 ? microsPart.slice(0, digits) : microsPart.padEnd(digits, '0');
	return `${base}.${text}`;
}

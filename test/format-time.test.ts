import {test} from 'node:test';
import assert from 'node:assert/strict';
import {formatAge, formatAgeSince, formatClock, formatDuration, parseTimestamp} from '../source/format/time.js';
import {formatCost, formatCount, formatPercent, formatTokens} from '../source/format/numbers.js';

/** Runs `body` with the process in another time zone (Node re-reads TZ when it is assigned). */
function inZone(zone: string, body: () => void) {
	const saved = process.env.TZ;
	process.env.TZ = zone;
	try {
		body();
	} finally {
		if (saved === undefined) delete process.env.TZ;
		else process.env.TZ = saved;
	}
}

test('parseTimestamp reads UTC, offsets and naive local timestamps', () => {
	assert.equal(parseTimestamp('2025-11-22T12:34:56Z'), Date.UTC(2025, 10, 22, 12, 34, 56));
	assert.equal(parseTimestamp('2025-11-22T12:34:56.789Z'), Date.UTC(2025, 10, 22, 12, 34, 56, 789));
	assert.equal(parseTimestamp('2025-11-22T12:34:56+02:00'), Date.UTC(2025, 10, 22, 10, 34, 56));
	assert.equal(parseTimestamp('2025-11-22T12:34:56-0530'), Date.UTC(2025, 10, 22, 18, 4, 56));
	inZone('America/New_York', () => {
		// Naive = local: the agent server's microsecond timestamps.
		assert.equal(parseTimestamp('2025-11-22T12:34:56.123456'), Date.UTC(2025, 10, 22, 17, 34, 56, 123));
		assert.equal(parseTimestamp('2025-11-22 12:34:56'), Date.UTC(2025, 10, 22, 17, 34, 56));
	});
	inZone('UTC', () => assert.equal(parseTimestamp('2025-11-22T12:34:56.123456789'), Date.UTC(2025, 10, 22, 12, 34, 56, 123)));
});

test('parseTimestamp rejects what is not a timestamp', () => {
	for (const bad of ['', 'garbage', '2025-13-01T00:00:00Z', '2025-02-30T00:00:00', '2025-11-22T25:00:00', '12345', '2025-11-22T12:34:56Zjunk']) {
		assert.equal(parseTimestamp(bad), null, bad);
	}

	assert.equal(parseTimestamp(null), null);
	assert.equal(parseTimestamp(undefined), null);
	assert.ok(parseTimestamp('2024-02-29T00:00:00Z') !== null);
});

test('formatClock: naive timestamps keep their digits, zoned ones show local time', () => {
	inZone('Asia/Tokyo', () => {
		assert.equal(formatClock('2025-11-22T12:34:56.123456'), '12:34:56');
		assert.equal(formatClock('2025-11-22T12:34:56Z'), '21:34:56');
		assert.equal(formatClock(Date.UTC(2025, 10, 22, 0, 0, 5)), '09:00:05');
	});
	assert.equal(formatClock('not a time'), '--:--:--');
	assert.equal(formatClock(null), '--:--:--');
	assert.equal(formatClock(Number.NaN), '--:--:--');
});

test('formatAge: one compact unit, rounded down', () => {
	const cases: Array<[number, string]> = [
		[0, '0s'],
		[5_000, '5s'],
		[59_999, '59s'],
		[60_000, '1m'],
		[3 * 60_000 + 59_000, '3m'],
		[2 * 3_600_000, '2h'],
		[23 * 3_600_000 + 3_599_000, '23h'],
		[4 * 86_400_000, '4d'],
		[800 * 86_400_000, '2y'],
		[-5000, '0s'],
	];
	for (const [ms, expected] of cases) assert.equal(formatAge(ms), expected, String(ms));
	assert.equal(formatAge(Number.NaN), '—');
	assert.equal(formatAge(null), '—');
	const now = Date.UTC(2025, 0, 1, 0, 10, 0);
	assert.equal(formatAgeSince('2025-01-01T00:07:00Z', now), '3m');
	assert.equal(formatAgeSince(now - 5000, now), '5s');
	assert.equal(formatAgeSince('bad', now), '—');
});

test('formatDuration: two units where they help', () => {
	assert.equal(formatDuration(850), '850ms');
	assert.equal(formatDuration(999.9), '999ms');
	assert.equal(formatDuration(12_345), '12.3s');
	assert.equal(formatDuration(59_999), '59.9s');
	assert.equal(formatDuration(245_000), '4m 05s');
	assert.equal(formatDuration(2 * 3_600_000 + 3 * 60_000), '2h 03m');
	assert.equal(formatDuration(3 * 86_400_000 + 4 * 3_600_000), '3d 04h');
	assert.equal(formatDuration(-1), '—');
});

test('numbers: cost, tokens, percent, count', () => {
	const costs: Array<[number | null | undefined, string]> = [
		[0, '$0.00'],
		[0.001, '<$0.01'],
		[0.42, '$0.42'],
		[9.994, '$9.99'],
		[9.996, '$10.0'],
		[12.34, '$12.3'],
		[99.96, '$100'],
		[1234.4, '$1234'],
		[12_345, '$12.3k'],
		[2_500_000, '$2.5M'],
		[null, '—'],
		[undefined, '—'],
		[Number.NaN, '—'],
	];
	for (const [usd, expected] of costs) assert.equal(formatCost(usd), expected, String(usd));
	const tokens: Array<[number, string]> = [
		[0, '0'],
		[950, '950'],
		[999.4, '999'],
		[999.6, '1k'],
		[1234, '1.2k'],
		[12_345, '12.3k'],
		[123_456, '123k'],
		[999_999, '1M'],
		[1_234_567, '1.2M'],
		[3.4e9, '3.4B'],
	];
	for (const [count, expected] of tokens) assert.equal(formatTokens(count), expected, String(count));
	assert.equal(formatTokens(null), '—');
	assert.equal(formatPercent(0.423), '42%');
	assert.equal(formatPercent(0.001), '<1%');
	assert.equal(formatPercent(0.999), '>99%');
	assert.equal(formatPercent(1), '100%');
	assert.equal(formatPercent(0), '0%');
	assert.equal(formatPercent(0.4236, 1), '42.4%');
	assert.equal(formatPercent(null), '—');
	assert.equal(formatCount(1_234_567), '1,234,567');
	// The one formatter made once writes what a formatter per call wrote, for every kind of number.
	for (const count of [0, -0.4, 0.5, 7, 999, 1000, 12_345.6, -98_765, 2 ** 53, 1e21, Number.MAX_VALUE]) {
		assert.equal(formatCount(count), Math.round(count).toLocaleString('en-US'), String(count));
	}
	assert.equal(formatCount(Number.NaN), '—');
});

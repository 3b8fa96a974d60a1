/**
 * Numbers for narrow columns: a cost, a token count or a share must read at a glance and keep a
 * stable width, so each has a few fixed shapes. Missing values (null, undefined, NaN) show `—`
 * rather than `$0.00` or `0`: "unknown" and "nothing" mean different things when triaging.
 */

export const missing = '—';

function isNumber(value: number | null | undefined): value is number {
	return typeof value === 'number' && Number.isFinite(value);
}

/**
 * US dollars: `$0.42` under $10, `$12.3` under $100, `$123` under $10,000, then `$12.3k`, `$1.2M`.
 * A cost above zero that rounds to nothing shows `<$0.01`, not a misleading `$0.00`.
 */
export function formatCost(usd: number | null | undefined): string {
	if (!isNumber(usd)) return missing;
	const sign = usd < 0 ? '-' : '';
	const value = Math.abs(usd);
	if (value > 0 && value < 0.005) return `${sign}<$0.01`;
	// Thresholds compare the rounded value so $9.996 becomes `$10.0`, not `$10.00`.
	if (value < 9.995) return `${sign}$${value.toFixed(2)}`;
	if (value < 99.95) return `${sign}$${value.toFixed(1)}`;
	if (value < 9999.5) return `${sign}$${value.toFixed(0)}`;
	return `${sign}$${scaled(value)}`;
}

/** Token counts: `950`, `12.3k`, `123k`, `1.2M`, `3.4B`. */
export function formatTokens(count: number | null | undefined): string {
	if (!isNumber(count)) return missing;
	const sign = count < 0 ? '-' : '';
	const value = Math.abs(count);
	if (value < 999.5) return `${sign}${Math.round(value)}`;
	return sign + scaled(value);
}

const units = ['', 'k', 'M', 'B', 'T'];

/** One decimal below 100 of a unit, none above; moves up a unit when rounding reaches 1000. */
function scaled(value: number): string {
	let unit = 0;
	let amount = value;
	while (unit < units.length - 1 && amount >= 999.5) {
		amount /= 1000;
		unit++;
	}

	const text = amount < 99.95 ? amount.toFixed(1).replace(/\.0$/, '') : amount.toFixed(0);
	return `${text}${units[unit] ?? ''}`;
}

/**
 * A ratio as a percentage: `0.423` → `42%`. A share above zero that rounds to 0 shows `<1%`, and
 * one below 1 that rounds to 100 shows `>99%`, so "almost" never reads as "none" or "all".
 */
export function formatPercent(ratio: number | null | undefined, digits = 0): string {
	if (!isNumber(ratio)) return missing;
	const percent = ratio * 100;
	const text = percent.toFixed(digits);
	const smallest = 10 ** -digits;
	if (percent > 0 && Number(text) === 0) return `<${smallest}%`;
	if (percent < 100 && Number(text) === 100) return `>${(100 - smallest).toFixed(digits)}%`;
	return `${text}%`;
}

/**
 * A count with thousands separators: `12,345`. One formatter made once: `toLocaleString('en-US')`
 * builds a new one per call (about 15 µs on Node 26, against under 1 µs for `format`), and a
 * timeline frame asks for dozens of counts (every summary's "3 files", "12 lines", the header's).
 */
export function formatCount(count: number | null | undefined): string {
	if (!isNumber(count)) return missing;
	// Made at the first count, not as the module loads: the first Intl object of a process pays
	// ICU's set-up, and start-up need not.
	groupedDigits ??= new Intl.NumberFormat('en-US');
	return groupedDigits.format(Math.round(count));
}

let groupedDigits: Intl.NumberFormat | undefined;

/**
 * A rate in USD per hour for a 5-cell column, without the unit (the header says `$/H`): `0`,
 * `0.42`, `4.20`, `42.1`, `421`, `4.2k`. Unknown is `—`.
 */
export function formatRate(usdPerHour: number | null | undefined): string {
	if (!isNumber(usdPerHour)) return missing;
	const value = Math.max(0, usdPerHour);
	if (value < 0.005) return '0';
	if (value < 9.995) return value.toFixed(2);
	if (value < 99.95) return value.toFixed(1);
	if (value < 999.5) return value.toFixed(0);
	return scaled(value);
}

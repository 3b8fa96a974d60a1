/**
 * The rate-limit window as the service's limiter names it (the `limits` library's text, sent in
 * 429 answers) and as `agent-tui simulator --rate-limit` takes it.
 */

/** How the `limits` library names a limit (`str(RateLimitItem)`): `100 per 1 minute`, `20 per 6 second`. */
export function windowDescription(limit: number, windowMs: number): string {
	for (const [unit, ms] of [['hour', 3_600_000], ['minute', 60_000]] as const) {
		if (windowMs % ms === 0) return `${limit} per ${windowMs / ms} ${unit}`;
	}
	return `${limit} per ${Math.max(1, Math.round(windowMs / 1000))} second`;
}

/** `20/min`, `100/minute`, `20/6s`, `500/1h` -> a limit and a window; null when unreadable. */
export function parseWindowLimit(text: string): {limit: number; windowMs: number} | null {
	const match = /^\s*(\d+)\s*\/\s*(\d*)\s*(s|sec|second|m|min|minute|h|hour)s?\s*$/i.exec(text);
	if (!match) return null;
	const limit = Number(match[1]);
	const count = match[2] ? Number(match[2]) : 1;
	const unit = match[3]!.toLowerCase();
	const unitMs = unit.startsWith('h') ? 3_600_000 : unit === 's' || unit.startsWith('sec') ? 1000 : 60_000;
	if (!(limit > 0) || !(count > 0)) return null;
	return {limit, windowMs: count * unitMs};
}

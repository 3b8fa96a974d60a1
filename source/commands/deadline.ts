import {UsageError} from './exit-codes.js';
import type {CommandFlags} from './flags.js';

/**
 * `--timeout D`: how long a command waits for an unreachable or stalled server before it gives up
 * with exit 5 and what it last saw. A one-shot read gives each request (its retries included) that
 * long; `events --follow` and `start --wait` allow that long without contact with the event
 * stream. A follow waits longer by default: it outlives short outages on purpose.
 */

export const defaultRequestDeadlineMs = 45_000;
export const defaultFollowDeadlineMs = 180_000;

const units: Record<string, number> = {ms: 1, s: 1000, m: 60_000, h: 3_600_000};

/** `30s`, `2m`, `1h`, `1500ms`; a bare number is seconds. */
export function parseTimeout(text: string): number {
	const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(text);
	if (!match) throw new UsageError(`--timeout takes a duration such as 30s, 2m or 1h, not "${text}"`);
	const ms = Number(match[1]) * (units[match[2] ?? 's'] ?? 1000);
	if (ms < 1000) throw new UsageError('--timeout must be at least 1s');
	return ms;
}

export function requestDeadline(flags: Pick<CommandFlags, 'timeout'>): number {
	return flags.timeout === undefined ? defaultRequestDeadlineMs : parseTimeout(flags.timeout);
}

export function followDeadline(flags: Pick<CommandFlags, 'timeout'>): number {
	return flags.timeout === undefined ? defaultFollowDeadlineMs : parseTimeout(flags.timeout);
}

/** `45s`, `3m`, `1m 30s`. */
export function formatDeadline(ms: number): string {
	const seconds = Math.round(ms / 1000);
	if (seconds < 60) return `${seconds}s`;
	const rest = seconds % 60;
	return rest === 0 ? `${seconds / 60}m` : `${Math.floor(seconds / 60)}m ${rest}s`;
}

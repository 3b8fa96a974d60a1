import {UsageError} from './exit-codes.js';
import type {CommandFlags} from './flags.js';

/**
 * `--quiet-after DURATION`, `--repeat-threshold N` and `--spend-after DURATION`: when the
 * dashboard calls a running conversation quiet (no event for that long), repeating (the same tool
 * call N times in a row) or spending without progress (its cost rose with no action,
 * observation or git change for that long). Reasons to look, never server statuses.
 */

const units: Record<string, number> = {ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000};

/** `90s`, `10m`, `1h`, `7d`, `1500ms`; a bare number is seconds. */
export function parseDuration(text: string, flag = '--quiet-after'): number {
	const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(text);
	if (!match) throw new UsageError(`${flag} takes a duration such as 90s, 10m or 1h, not "${text}"`);
	const ms = Number(match[1]) * (units[match[2] ?? 's'] ?? 1000);
	if (ms < 1000) throw new UsageError(`${flag} must be at least 1s`);
	return ms;
}

export type DetectionOptions = {quietAfterMs?: number; repeatThreshold?: number; spendAfterMs?: number; deadAfterMs?: number; startingAfterMs?: number};

export function detectionOptions(flags: Partial<Pick<CommandFlags, 'quietAfter' | 'repeatThreshold' | 'spendAfter' | 'deadAfter' | 'startingAfter'>>): DetectionOptions {
	const options: DetectionOptions = {};
	if (flags.quietAfter !== undefined) options.quietAfterMs = parseDuration(flags.quietAfter);
	if (flags.spendAfter !== undefined) options.spendAfterMs = parseDuration(flags.spendAfter, '--spend-after');
	// The dead group and the STARTING cause (state/dead-group.ts, attention.ts).
	if (flags.deadAfter !== undefined) options.deadAfterMs = parseDuration(flags.deadAfter, '--dead-after');
	if (flags.startingAfter !== undefined) options.startingAfterMs = parseDuration(flags.startingAfter, '--starting-after');
	if (flags.repeatThreshold !== undefined) {
		if (!Number.isInteger(flags.repeatThreshold) || flags.repeatThreshold < 2) throw new UsageError('--repeat-threshold takes a whole number of at least 2');
		options.repeatThreshold = flags.repeatThreshold;
	}
	return options;
}


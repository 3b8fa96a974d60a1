import {UsageError} from './exit-codes.js';
import type {CommandFlags} from './flags.js';

/**
 * `agent-tui simulator [--port N] [--seed S] [--conversations N] [--clock-offset=-21d]
 * [--data-clock-offset=-24d31s] [--max-running N] [--starting-sandboxes N] [--history 30d] [--rate-limit 20/min]`: the embedded
 * simulator as a standalone server, until Ctrl-C. Needs no configuration.
 */
export async function runSimulator(flags: CommandFlags): Promise<number> {
	const port = wholeNumber(flags.port, '--port', 0, 65_535);
	const seed = wholeNumber(flags.seed, '--seed', 0, Number.MAX_SAFE_INTEGER);
	const conversations = wholeNumber(flags.conversations, '--conversations', 0, 100_000);
	const maxRunningSandboxes = wholeNumber(flags.maxRunning, '--max-running', 1, 1000);
	const startingSandboxes = wholeNumber(flags.startingSandboxes, '--starting-sandboxes', 0, 1000);
	const historyDays = days(flags.history);
	const {parseClockOffset} = await import('../simulator/clock.js');
	const offset = (value: string | undefined, flag: string) => {
		const ms = value === undefined ? undefined : parseClockOffset(value);
		if (ms === null) throw new UsageError(`${flag} takes a signed duration such as ${flag}=-21d, +3h, 90s or -24d31s`);
		return ms;
	};
	const clockOffsetMs = offset(flags.clockOffset, '--clock-offset');
	const dataClockOffsetMs = offset(flags.dataClockOffset, '--data-clock-offset');
	const {parseWindowLimit} = await import('../simulator/rate-limit-window.js');
	const rateLimit = flags.rateLimit === undefined ? undefined : parseWindowLimit(flags.rateLimit);
	if (rateLimit === null) throw new UsageError('--rate-limit takes requests per window, such as 100/min, 20/min or 20/6s');
	const [{runSimulatorCommand}, {onStopSignal}] = await Promise.all([import('../simulator/main.js'), import('./signals.js')]);
	return runSimulatorCommand({port, seed, conversations, clockOffsetMs, dataClockOffsetMs, maxRunningSandboxes, startingSandboxes, historyDays, rateLimit}, onStopSignal);
}

/** `--history 30d` (or a bare number of days): days of ended conversations to seed. */
function days(value: string | undefined): number | undefined {
	if (value === undefined) return undefined;
	const match = /^\s*(\d+)\s*d?\s*$/.exec(value);
	const count = match ? Number(match[1]) : Number.NaN;
	if (!Number.isInteger(count) || count < 1 || count > 365) throw new UsageError(`--history takes a number of days from 1 to 365, such as 30d, not "${value}"`);
	return count;
}

function wholeNumber(value: number | undefined, flag: string, min: number, max: number): number | undefined {
	if (value === undefined) return undefined;
	if (!Number.isInteger(value) || value < min || value > max) throw new UsageError(`${flag} must be a whole number from ${min} to ${max}`);
	return value;
}

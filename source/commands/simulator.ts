import {UsageError} from './exit-codes.js';
import type {CommandFlags} from './flags.js';

/**
 * `agent-tui simulator [--port N] [--seed S] [--conversations N] [--clock-offset=-21d]`: the embedded simulator as a
 * standalone server, until Ctrl-C. Needs no configuration.
 */
export async function runSimulator(flags: CommandFlags): Promise<number> {
	const port = wholeNumber(flags.port, '--port', 0, 65_535);
	const seed = wholeNumber(flags.seed, '--seed', 0, Number.MAX_SAFE_INTEGER);
	const conversations = wholeNumber(flags.conversations, '--conversations', 0, 100_000);
	const {parseClockOffset} = await import('../simulator/clock.js');
	const clockOffsetMs = flags.clockOffset === undefined ? undefined : parseClockOffset(flags.clockOffset);
	if (clockOffsetMs === null) throw new UsageError('--clock-offset takes a signed duration such as --clock-offset=-21d, +3h or 90s');
	const {runSimulatorCommand} = await import('../simulator/main.js');
	await runSimulatorCommand({port, seed, conversations, clockOffsetMs});
	return 0;
}

function wholeNumber(value: number | undefined, flag: string, min: number, max: number): number | undefined {
	if (value === undefined) return undefined;
	if (!Number.isInteger(value) || value < min || value > max) throw new UsageError(`${flag} must be a whole number from ${min} to ${max}`);
	return value;
}

import {apiKeyFlagRefusal} from '../config/api-key.js';
import {ConfigError} from '../config/errors.js';
import type {ConfigFlags} from '../config/resolve.js';
import {UsageError} from './exit-codes.js';
import {flagGiven, flagSpelling, type CommandFlagName, type CommandFlags} from './flags.js';
import {commandNames, findCommand, simulatorFlags, type HeadlessCommand} from './registry.js';

/**
 * Checks a parsed command line before anything runs: a known command, no unknown flag, no flag
 * that the command does not take (a misplaced `--follow` is reported, never silently ignored),
 * the right positional arguments, and never `--api-key VALUE`. Every failure is a usage error.
 */

/** What meow parsed; booleans may be absent, lists too. */
export type ParsedFlags = {
	[K in CommandFlagName]?: CommandFlags[K] | null;
} & ConfigFlags & {
	alerts?: boolean | undefined;
};

export type Invocation = {
	/** undefined: the dashboard. */
	name: string | undefined;
	command: HeadlessCommand | undefined;
	args: string[];
	commandFlags: CommandFlags;
};

const globalFlags = ['baseUrl', 'profile', 'demo', 'apiKey', 'apiKeyFile', 'apiKeyStdin', 'color', 'help', 'version', 'alerts'];
/** meow reports short flags under their letter as well. */
const shortFlags = ['h', 'f', 'm', 'o', 'y'];
// Every command flag, checked against CommandFlags by the type: a flag added there and not here fails the type check.
const commandFlagSet: Record<CommandFlagName, true> = {json: true, status: true, kind: true, source: true, body: true, desc: true, follow: true, message: true, repo: true, plugin: true, wait: true, patch: true, stat: true, port: true, seed: true, conversations: true, clockOffset: true, dataClockOffset: true, maxRunning: true, startingSandboxes: true, quietAfter: true, repeatThreshold: true, spendAfter: true, alertCommand: true, alertProtocol: true, allProfiles: true, reason: true, run: true, output: true, timeout: true, causes: true, for: true, untilChange: true, deadAfter: true, startingAfter: true, yes: true, history: true, rateLimit: true};
const commandFlagNames = Object.keys(commandFlagSet) as CommandFlagName[];
/** What the dashboard itself (no command) takes besides the global flags. */
const dashboardFlags: readonly CommandFlagName[] = ['quietAfter', 'repeatThreshold', 'spendAfter', 'deadAfter', 'startingAfter', 'alertCommand', 'alertProtocol', 'allProfiles'];
const serverFlags = ['baseUrl', 'profile', 'demo', 'apiKeyFile', 'apiKeyStdin'] as const;

export function checkInvocation(input: readonly string[], flags: ParsedFlags, given: readonly string[], argv: readonly string[] = process.argv.slice(2)): Invocation {
	// `--status` with nothing after it (or another flag) was silently no filter at all.
	const words = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
	const bare = words.findIndex((word, index) => word === '--status' && (words[index + 1] === undefined || words[index + 1]!.startsWith('-')));
	if (bare !== -1) throw new UsageError('--status needs a value, e.g. --status error,stuck or --status sandbox:paused');
	const known = new Set<string>([...globalFlags, ...shortFlags, ...commandFlagNames]);
	const unknown = given.filter((flag) => !known.has(flag) && !flag.includes('-'));
	if (unknown.length > 0) throw new UsageError(`unknown flag ${unknown.map(flagSpelling).join(', ')} (see agent-tui --help)`);

	const commandFlags: CommandFlags = {
		json: flags.json ?? false,
		status: flags.status ?? [],
		kind: flags.kind ?? undefined,
		source: flags.source ?? undefined,
		body: flags.body ?? undefined,
		desc: flags.desc ?? false,
		follow: flags.follow ?? false,
		message: flags.message ?? undefined,
		repo: flags.repo ?? undefined,
		plugin: flags.plugin ?? [],
		wait: flags.wait ?? false,
		patch: flags.patch ?? false,
		stat: flags.stat ?? false,
		// meow turns `--port abc` into null: keep it "given" so the command reports it.
		port: flags.port === null ? Number.NaN : flags.port,
		seed: flags.seed === null ? Number.NaN : flags.seed,
		conversations: flags.conversations === null ? Number.NaN : flags.conversations,
		clockOffset: flags.clockOffset ?? undefined,
		dataClockOffset: flags.dataClockOffset ?? undefined,
		maxRunning: flags.maxRunning === null ? Number.NaN : flags.maxRunning,
		startingSandboxes: flags.startingSandboxes === null ? Number.NaN : flags.startingSandboxes,
		rateLimit: flags.rateLimit ?? undefined,
		quietAfter: flags.quietAfter ?? undefined,
		repeatThreshold: flags.repeatThreshold === null ? Number.NaN : flags.repeatThreshold,
		spendAfter: flags.spendAfter ?? undefined,
		deadAfter: flags.deadAfter ?? undefined,
		startingAfter: flags.startingAfter ?? undefined,
		yes: flags.yes ?? false,
		history: flags.history ?? undefined,
		alertCommand: flags.alertCommand ?? undefined,
		alertProtocol: flags.alertProtocol ?? undefined,
		reason: flags.reason ?? undefined,
		run: flags.run ?? false,
		output: flags.output ?? undefined,
		timeout: flags.timeout ?? undefined,
		allProfiles: flags.allProfiles ?? false,
		causes: flags.causes ?? undefined,
		for: flags.for ?? undefined,
		untilChange: flags.untilChange ?? false,
	};

	const [name, ...args] = input;
	const command = name === undefined ? undefined : findCommand(name);
	if (name !== undefined && !command && name !== 'simulator' && name !== 'keys') {
		throw new UsageError(`unknown command "${name}"; commands: ${commandNames.join(', ')} (see agent-tui --help)`);
	}
	// Every command that talks to a server takes --timeout.
	const allowed: readonly CommandFlagName[] = command ? [...command.flags, 'timeout'] : name === 'simulator' ? simulatorFlags : name === 'keys' ? [] : dashboardFlags;
	const misplaced = commandFlagNames.filter((flag) => flagGiven(commandFlags, flag) && !allowed.includes(flag));
	if (misplaced.length > 0) {
		throw new UsageError(`${misplaced.map(flagSpelling).join(', ')} cannot be used ${name ? `with ${name}` : 'without a command'} (see agent-tui --help)`);
	}
	// The bell and desktop notifications belong to the dashboard; `watch` prints lines instead.
	if (name !== undefined && flags.alerts) throw new UsageError(`--alerts is for the dashboard, not ${name}${name === 'watch' ? ' (it prints one line per change)' : ''}`);
	const expected = command?.args ?? [];
	if (command?.variadic ? args.length < expected.length : args.length !== expected.length) {
		const usage = expected.map((arg) => `<${arg}>`).join(' ');
		if (expected.length === 0) throw new UsageError(`${name ?? 'agent-tui'} takes no arguments, got "${args.join(' ')}"`);
		if (args.length < expected.length) throw new UsageError(`${name} needs ${usage}`);
		const count = (n: number) => (n === 1 ? 'one' : n === 2 ? 'two' : String(n));
		throw new UsageError(`${name} takes ${count(expected.length)} ${expected.length === 1 ? 'id' : 'arguments'} (${usage}), got ${count(args.length)}: ${args.join(' ')}`);
	}

	// Refused on every path, the simulator's included: the key is already in history, say so.
	if (flags.apiKey !== undefined) throw new ConfigError(apiKeyFlagRefusal);
	if (commandFlags.allProfiles) {
		// Each profile brings its own server and key: one given on the command line would belong to none of them.
		const misused = serverFlags.filter((flag) => flags[flag] !== undefined && flags[flag] !== false);
		if (misused.length > 0) throw new UsageError(`${misused.map(flagSpelling).join(', ')} cannot be used with --all-profiles (it opens every profile of the config file, each with its own server and key)`);
	}
	if (name === 'simulator') {
		const misused = serverFlags.filter((flag) => flags[flag] !== undefined && flags[flag] !== false);
		if (misused.length > 0) throw new UsageError(`${misused.map(flagSpelling).join(', ')} cannot be used with simulator (it is the server)`);
	}
	return {name, command, args, commandFlags};
}

/**
 * The flags commands read, after meow has parsed them (cli.tsx declares them). Which command
 * accepts which is declared next to each command in registry.ts; anything else is a usage error,
 * so a misplaced `--follow` is reported instead of silently ignored.
 */
export type CommandFlags = {
	json: boolean;
	status: string[];
	kind: string | undefined;
	source: string | undefined;
	body: string | undefined;
	desc: boolean;
	follow: boolean;
	message: string | undefined;
	repo: string | undefined;
	plugin: string[];
	wait: boolean;
	/** `changes`: print a patch git applies. */
	patch: boolean;
	/** `changes`: print git's --stat. */
	stat: boolean;
	port: number | undefined;
	seed: number | undefined;
	conversations: number | undefined;
	/** `simulator`: run its clock skewed (`-21d`, `+3h`), as the real service's can be. */
	clockOffset: string | undefined;
	/** `simulator`: the clock that writes its data, when not the one its `Date` header shows (`-24d31s`). */
	dataClockOffset: string | undefined;
	/** `simulator`: its cap on running sandboxes. */
	maxRunning: number | undefined;
	/** `simulator`: seeded sandboxes that stay STARTING. */
	startingSandboxes: number | undefined;
	/** `simulator`: its per-key limit over a window (`20/min`, `20/6s`), as the service's `100/minute`. */
	rateLimit: string | undefined;
	/** Dashboard: how long a running conversation may go without an event (`10m`, `90s`). */
	quietAfter: string | undefined;
	/** Dashboard: identical tool calls in a row that count as repeating. */
	repeatThreshold: number | undefined;
	/** Dashboard: how long the cost may rise with no action or observation (`10m`). */
	spendAfter: string | undefined;
	/** Dashboard: ERROR/MISSING conversations unchanged this long are dead (`7d`; state/dead-group.ts). */
	deadAfter: string | undefined;
	/** Dashboard: a sandbox STARTING this long is a cause (`10m`). */
	startingAfter: string | undefined;
	/** `delete`: act without asking (needed without a terminal). */
	yes: boolean;
	/** `simulator`: seed a history of this many days (`30d`). */
	history: string | undefined;
	/** Dashboard: a command fed each alert as JSON on stdin (`--alert-command`). */
	alertCommand: string | undefined;
	/** Dashboard: the desktop notification's sequence, osc9, osc777, osc99 or bell (`--alert-protocol`). */
	alertProtocol: string | undefined;
	/** `reject`: the reason the agent sees. */
	reason: string | undefined;
	/** `message`: run the agent after the message (the server's default is not to). */
	run: boolean;
	/** `export`: the file to write (`-o`); stdout when absent or `-`. */
	output: string | undefined;
	/** `conversations`: how many errored conversations to read the cause of, newest first (a count or `all`). */
	causes: string | undefined;
	/** The dashboard and `conversations`: every profile of the config file at once, each with its own key. */
	allProfiles: boolean;
	/** `snooze`: how long (`2h`, `1d`, `1w`); without it, until the conversation changes. */
	for: string | undefined;
	/** `snooze`: until the conversation changes (the default, said explicitly). */
	untilChange: boolean;
	/** Every server command: how long to wait for an unreachable or stalled server (`30s`, `2m`; deadline.ts). */
	timeout: string | undefined;
};

export type CommandFlagName = keyof CommandFlags;

/** Whether the user gave the flag at all (booleans default to false, lists to []). */
export function flagGiven(flags: CommandFlags, name: CommandFlagName): boolean {
	const value = flags[name];
	if (Array.isArray(value)) return value.length > 0;
	if (typeof value === 'boolean') return value;
	return value !== undefined;
}

/** `conversations` -> `--conversations`, `apiKeyFile` -> `--api-key-file`, `x` -> `-x`. */
export function flagSpelling(name: string): string {
	if (name.length === 1) return `-${name}`;
	return `--${name.replaceAll(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
}

import meow from 'meow';
import {onceWarner} from './config/file-permissions.js';
import {dashboardDefaults} from './config/config-file.js';
import {embeddedPackage} from './config/embedded-package.js';
import {configFilePath} from './config/paths.js';
import {resolveConfig} from './config/resolve.js';
import {ExitCode, exitCodeFor, UsageError} from './commands/exit-codes.js';
import {helpText} from './commands/help.js';
import {helpRequest} from './commands/command-help.js';
import {addSecret, createIo, printError, type Io} from './commands/io.js';
import {checkInvocation} from './commands/invocation.js';
import {exitOnStopSignals} from './commands/signals.js';

/**
 * The entry after bin.ts: parse flags, resolve the configuration, dispatch to a headless command
 * or the dashboard. Nothing else lives here. The dashboard (Ink, React), the headless commands
 * and the simulator are imported only when chosen: `--version` and `--help` load none of them.
 */

/** meow throws on some malformed input (e.g. a flag given twice that takes one value): a usage error. */
function parseArgs() {
	try {
		return meow(helpText, {
			importMeta: import.meta,
			pkg: embeddedPackage,
			autoHelp: false,
			autoVersion: false,
			// Unknown flags are reported in main(), in our own words and with the usage exit code.
			allowUnknownFlags: true,
			flags: {
				baseUrl: {type: 'string'},
				profile: {type: 'string'},
				demo: {type: 'boolean'},
				apiKey: {type: 'string'},
				apiKeyFile: {type: 'string'},
				apiKeyStdin: {type: 'boolean'},
				alerts: {type: 'boolean'},
				color: {type: 'boolean', default: true},
				help: {type: 'boolean', shortFlag: 'h'},
				version: {type: 'boolean'},
				json: {type: 'boolean'},
				status: {type: 'string', isMultiple: true},
				kind: {type: 'string'},
				source: {type: 'string'},
				body: {type: 'string'},
				desc: {type: 'boolean'},
				follow: {type: 'boolean', shortFlag: 'f'},
				message: {type: 'string', shortFlag: 'm'},
				repo: {type: 'string'},
				plugin: {type: 'string', isMultiple: true},
				wait: {type: 'boolean'},
				patch: {type: 'boolean'},
				stat: {type: 'boolean'},
				port: {type: 'number'},
				seed: {type: 'number'},
				conversations: {type: 'number'},
				clockOffset: {type: 'string'},
				dataClockOffset: {type: 'string'},
				maxRunning: {type: 'number'},
				startingSandboxes: {type: 'number'},
				rateLimit: {type: 'string'},
				quietAfter: {type: 'string'},
				repeatThreshold: {type: 'number'},
				spendAfter: {type: 'string'},
				deadAfter: {type: 'string'},
				startingAfter: {type: 'string'},
				yes: {type: 'boolean', shortFlag: 'y'},
				history: {type: 'string'},
				alertCommand: {type: 'string'},
				allProfiles: {type: 'boolean'},
				causes: {type: 'string'},
				alertProtocol: {type: 'string'},
				reason: {type: 'string'},
				run: {type: 'boolean'},
				output: {type: 'string', shortFlag: 'o'},
				timeout: {type: 'string'},
				for: {type: 'string'},
				untilChange: {type: 'boolean'},
			},
		});
	} catch (error) {
		throw new UsageError((error as Error).message.replaceAll('\n', '; '));
	}
}

async function main(io: Io): Promise<number> {
	const cli = parseArgs();
	const {flags} = cli;
	// `help <command>`, `<command> --help`: that command's help (command-help.ts); the full help otherwise.
	const help = helpRequest(cli.input, flags.help === true);
	if (help === 'full') cli.showHelp(0);
	if (help !== null) {
		io.stdout.write(help);
		return ExitCode.ok;
	}
	if (flags.version) cli.showVersion();

	const {name, command, args, commandFlags} = checkInvocation(cli.input, flags, Object.keys(cli.unnormalizedFlags));
	// Every command ends 130 on ctrl-c and 143 on SIGTERM (commands/signals.ts); the dashboard has
	// its own way out (view/exit-guard.ts: the terminal is given back first).
	if (name !== undefined) exitOnStopSignals();
	if (name === 'simulator') return (await import('./commands/simulator.js')).runSimulator(commandFlags);
	if (name === 'keys') return (await import('./commands/keys.js')).runKeys(io);

	const warn = onceWarner((line) => io.stderr.write(line));
	if (commandFlags.allProfiles) {
		// Every profile of the config file, each with its own key: no one server to resolve here.
		if (!command) {
			const {dashboardOptions, launchDashboard} = await import('./commands/dashboard.js');
			const defaults = dashboardDefaults(configFilePath(process.env), warn);
			return launchDashboard(null, io, dashboardOptions({...commandFlags, alerts: flagGiven('alerts') ? flags.alerts === true : undefined}, defaults));
		}
		return (await import('./commands/all-profiles.js')).runOnEveryProfile(command, args, commandFlags, io, warn);
	}
	const config = await resolveConfig(
		{baseUrl: flags.baseUrl, profile: flags.profile, demo: flags.demo, apiKey: flags.apiKey, apiKeyFile: flags.apiKeyFile, apiKeyStdin: flags.apiKeyStdin},
		{env: process.env, warn},
	);
	if (config.kind === 'server') addSecret(io, config.apiKey);
	if (!command) {
		// Flags win over the config file's `dashboard` defaults.
		const {dashboardOptions, launchDashboard} = await import('./commands/dashboard.js');
		const defaults = dashboardDefaults(configFilePath(process.env), warn);
		return launchDashboard(config, io, dashboardOptions({...commandFlags, alerts: flagGiven('alerts') ? flags.alerts === true : undefined}, defaults));
	}
	return (await import('./commands/run-headless.js')).runHeadless(command, config, args, commandFlags, io);
}

/** Whether a boolean flag was on the command line (meow reports an absent one as false). */
function flagGiven(name: string): boolean {
	const words = process.argv.slice(2);
	const end = words.indexOf('--');
	return (end === -1 ? words : words.slice(0, end)).some((word) => word === `--${name}` || word === `--no-${name}` || word.startsWith(`--${name}=`));
}

const io = createIo(process.env.AGENT_TUI_DEBUG === '1');
// `agent-tui events … | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
	if (error.code === 'EPIPE') process.exit(ExitCode.ok);
	throw error;
});

let code: number;
try {
	code = await main(io);
} catch (error) {
	printError(io, error);
	code = exitCodeFor(error);
}
process.exitCode = code;
// Everything opened was closed, so the process ends by itself once stdout is flushed. Should a
// stray handle still hold the loop, do not hang a script: flush stdout, then exit.
setTimeout(() => process.stdout.write('', () => process.exit(code)), 2000).unref();

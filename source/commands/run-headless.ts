import {ConfigError} from '../config/errors.js';
import {baseUrlEnvName, type ResolvedConfig} from '../config/resolve.js';
import {exitCodeFor} from './exit-codes.js';
import type {CommandFlags} from './flags.js';
import {KeyRejectedError} from '../wire/errors.js';
import {setRequestDeadline} from '../wire/http.js';
import {requestDeadline} from './deadline.js';
import {note, printError, type Io} from './io.js';
import type {HeadlessCommand} from './registry.js';
import type {Server} from './server.js';

/**
 * What a headless command with no server says: a script whose environment lost its server must
 * fail, not report success for work done on invented data. `--demo` is the way to choose the
 * simulator on purpose.
 */
export const noServerMessage = `no server configured: set ${baseUrlEnvName} (and OPENHANDS_API_KEY), pass --base-url URL, or choose a profile with --profile NAME (${'$'}XDG_CONFIG_HOME/agent-tui/config.json); --demo runs the command on the embedded simulator`;

/**
 * Runs one headless command against its server and turns any failure into one clean stderr
 * line and the documented exit code. The server (and the demo simulator, if any) is always
 * closed, so the process can end on its own with stdout fully flushed. With nothing configured
 * it runs nothing (exit 2): only `--demo` puts a command on the simulator.
 */
export async function runHeadless(command: HeadlessCommand, config: ResolvedConfig, args: readonly string[], flags: CommandFlags, io: Io): Promise<number> {
	if (config.kind === 'demo' && config.reason === 'unconfigured') {
		const error = new ConfigError(noServerMessage);
		printError(io, error);
		return exitCodeFor(error);
	}

	let server: Server | undefined;
	try {
		// Each request, its retries included, gives up after this: a hanging server costs one deadline.
		setRequestDeadline(requestDeadline(flags));
		server = await (await import('./server.js')).openServer(config, io);
		return await command.run(server, io, args, flags);
	} catch (error) {
		// Say which key to fix, on the same line: a profile's inline key is not OPENHANDS_API_KEY.
		if (error instanceof KeyRejectedError && config.kind === 'server' && config.apiKey !== null && config.apiKeySource) {
			error.message += `; the key sent came from ${config.apiKeySource}`;
		}
		printError(io, error);
		if (error instanceof KeyRejectedError && config.kind === 'server' && config.apiKey === null) {
			note(io, 'no API key is configured: set OPENHANDS_API_KEY, or use --api-key-file PATH or --api-key-stdin');
		}
		return exitCodeFor(error);
	} finally {
		await server?.close();
	}
}

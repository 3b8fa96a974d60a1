import type {CommandFlagName, CommandFlags} from './flags.js';
import type {Io} from './io.js';
import type {Server} from './server.js';

/**
 * The headless commands that talk to a server, as data: name, positional arguments, the flags
 * each accepts (cli.tsx rejects the others) and the function that runs it. `simulator` and the
 * dashboard are dispatched separately: they do not take a ready-made server.
 * Each command's module is imported when it runs: `--help` and usage errors stay fast, and a
 * command loads only what it uses.
 */
export type HeadlessCommand = {
	name: string;
	/** Names of the required positional arguments, for messages. */
	args: readonly string[];
	/** The last argument may repeat (`delete <id>...`). */
	variadic?: true;
	flags: readonly CommandFlagName[];
	run(server: Server, io: Io, args: readonly string[], flags: CommandFlags): Promise<number>;
};

export const headlessCommands: readonly HeadlessCommand[] = [
	{
		name: 'conversations',
		args: [],
		flags: ['json', 'status', 'allProfiles', 'causes'],
		run: async (server, io, _args, flags) => (await import('./conversations.js')).runConversations(server, io, flags),
	},
	{name: 'delete', args: ['conversation-id'], variadic: true, flags: ['yes'], run: async (server, io, args, flags) => (await import('./delete.js')).runDelete(server, io, args, flags)},
	{name: 'sandboxes', args: [], flags: ['json'], run: async (server, io, _args, flags) => (await import('./sandboxes.js')).runSandboxes(server, io, flags)},
	{name: 'specs', args: [], flags: ['json'], run: async (server, io, _args, flags) => (await import('./specs.js')).runSpecs(server, io, flags)},
	{name: 'pause', args: ['sandbox-id'], flags: [], run: async (server, io, args) => (await import('./pause.js')).runPause(server, io, args[0]!)},
	{name: 'resume', args: ['sandbox-id'], flags: [], run: async (server, io, args) => (await import('./resume.js')).runResume(server, io, args[0]!)},
	{name: 'interrupt', args: ['conversation-id'], flags: [], run: async (server, io, args) => (await import('./agent-control.js')).runInterrupt(server, io, args[0]!)},
	{name: 'run', args: ['conversation-id'], flags: [], run: async (server, io, args) => (await import('./agent-control.js')).runContinue(server, io, args[0]!)},
	{name: 'approve', args: ['conversation-id'], flags: [], run: async (server, io, args) => (await import('./triage.js')).runApprove(server, io, args[0]!)},
	{
		name: 'reject',
		args: ['conversation-id'],
		flags: ['reason'],
		run: async (server, io, args, flags) => (await import('./triage.js')).runReject(server, io, args[0]!, flags.reason),
	},
	{
		name: 'message',
		args: ['conversation-id', 'text'],
		flags: ['run'],
		run: async (server, io, args, flags) => (await import('./triage.js')).runMessage(server, io, args[0]!, args[1]!, flags.run),
	},
	{
		name: 'ask',
		args: ['conversation-id', 'question'],
		flags: ['json'],
		run: async (server, io, args, flags) => (await import('./ask.js')).runAsk(server, io, args[0]!, args[1]!, flags),
	},
	{
		name: 'export',
		args: ['conversation-id'],
		flags: ['output'],
		run: async (server, io, args, flags) => (await import('./export.js')).runExport(server, io, args[0]!, flags.output),
	},
	{
		name: 'events',
		args: ['conversation-id'],
		flags: ['kind', 'source', 'body', 'desc', 'follow', 'json'],
		run: async (server, io, args, flags) => (await import('./events.js')).runEvents(server, io, args[0]!, flags),
	},
	{
		name: 'changes',
		args: ['conversation-id'],
		flags: ['json', 'patch', 'stat'],
		run: async (server, io, args, flags) => (await import('./changes.js')).runChanges(server, io, args[0]!, flags),
	},
	{
		name: 'snooze',
		args: ['conversation-id'],
		flags: ['for', 'untilChange'],
		run: async (server, io, args, flags) => (await import('./snooze.js')).runSnooze(server, io, args[0]!, flags),
	},
	{name: 'unsnooze', args: ['conversation-id'], flags: [], run: async (server, io, args) => (await import('./snooze.js')).runUnsnooze(server, io, args[0]!)},
	{
		name: 'watch',
		args: [],
		flags: ['json', 'status', 'alertCommand'],
		run: async (server, io, _args, flags) => (await import('./watch.js')).runWatch(server, io, flags),
	},
	{
		name: 'start',
		args: [],
		flags: ['message', 'repo', 'plugin', 'wait', 'json'],
		run: async (server, io, _args, flags) => (await import('./start.js')).runStart(server, io, flags),
	},
];

export const simulatorFlags: readonly CommandFlagName[] = ['port', 'seed', 'conversations', 'clockOffset', 'dataClockOffset', 'maxRunning', 'startingSandboxes', 'history', 'rateLimit'];

export const commandNames = [...headlessCommands.map((command) => command.name), 'simulator'];

export function findCommand(name: string): HeadlessCommand | undefined {
	return headlessCommands.find((command) => command.name === name);
}

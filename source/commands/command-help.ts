import {UsageError} from './exit-codes.js';
import {flagSpelling} from './flags.js';
import {helpText} from './help.js';
import {commandNames, findCommand, simulatorFlags} from './registry.js';

/**
 * `agent-tui help <command>` and `agent-tui <command> --help`: that command's usage, what it
 * does and its flags (its own lines of the full help, help.ts), an example and the exit codes,
 * as gh and kubectl do. `agent-tui help` alone and `--help` without a command: the full help.
 */

const examples: Record<string, string> = {
	conversations: 'agent-tui conversations --status error,stuck --json',
	sandboxes: 'agent-tui sandboxes --json',
	specs: 'agent-tui specs',
	pause: 'agent-tui pause 3f2a9c1e',
	resume: 'agent-tui resume 3f2a9c1e',
	interrupt: 'agent-tui interrupt 5b7e2d40',
	run: 'agent-tui run 5b7e2d40',
	approve: 'agent-tui approve 5b7e2d40',
	reject: 'agent-tui reject 5b7e2d40 --reason "do not delete the build folder"',
	message: 'agent-tui message 5b7e2d40 "also update the changelog" --run',
	ask: 'agent-tui ask 5b7e2d40 "which tests are still failing?"',
	export: 'agent-tui export 5b7e2d40 -o run.zip',
	events: 'agent-tui events 5b7e2d40 --follow --json | jq .kind',
	changes: 'agent-tui changes 5b7e2d40 --patch > agent.patch',
	watch: 'agent-tui watch --status error,waiting_for_confirmation --json --timeout 5m',
	start: 'agent-tui start --message "fix the flaky test" --repo owner/repo --wait',
	simulator: 'agent-tui simulator --port 8765 --seed 7',
};

/** The text to print for a help request, `full` for the full help, or null when none was made. */
export function helpRequest(input: readonly string[], helpFlag: boolean): string | null {
	if (input[0] === 'help') {
		const name = input[1];
		if (name === undefined) return 'full';
		const text = commandHelp(name);
		if (text === null) throw new UsageError(`unknown command "${name}"; commands: ${commandNames.join(', ')}`);
		return text;
	}
	if (!helpFlag) return null;
	return (input[0] === undefined ? null : commandHelp(input[0])) ?? 'full';
}

/** One command's help, or null for a name that is no command. */
export function commandHelp(name: string): string | null {
	const command = findCommand(name);
	if (!command && name !== 'simulator') return null;
	const lines = helpText.split('\n');
	const section = (title: string) => {
		const start = lines.indexOf(title);
		const end = lines.findIndex((line, index) => index > start && line !== '' && !line.startsWith(' '));
		const out = lines.slice(start + 1, end === -1 ? undefined : end);
		while (out.at(-1) === '') out.pop();
		return out;
	};
	const usage = block(section('Usage'), (line) => line.startsWith(`  $ agent-tui ${name}`), (line) => line.startsWith('  $ '));
	const about = block(section('Commands'), (line) => new RegExp(String.raw`^  (?:[a-z]+, )?${name}(?:,|\s|$)`).test(line), (line) => /^ {2}[a-z(]/.test(line));
	const flags = command ? [...command.flags, 'timeout'] : simulatorFlags;
	return [
		'Usage',
		...usage,
		'',
		'What it does',
		...about,
		'',
		'Flags',
		`  ${flags.map(flagSpelling).join('  ')}${command ? '  (--timeout D: how long to wait for the server before exit 5)' : ''}`,
		'  Server and key: --base-url URL, --profile NAME, --api-key-file PATH, --api-key-stdin, --demo',
		'',
		'Example',
		`  $ ${examples[name] ?? `agent-tui ${name}`}`,
		'',
		'Exit codes',
		...section('Exit codes'),
		'',
		'Everything else: agent-tui --help',
		'',
	].join('\n');
}

/** The lines from the first that `starts` to (not including) the next that `next` (or a blank). */
function block(lines: readonly string[], starts: (line: string) => boolean, next: (line: string) => boolean): string[] {
	const first = lines.findIndex(starts);
	if (first === -1) return [];
	const end = lines.findIndex((line, index) => index > first && (line === '' || next(line)));
	return lines.slice(first, end === -1 ? undefined : end);
}

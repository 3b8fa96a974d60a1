import type {SandboxSpec} from '../wire/schemas/app.js';
import {missing} from '../format/numbers.js';
import type {CommandFlags} from './flags.js';
import {printLine, printText, type Io} from './io.js';
import {toJson} from './json-output.js';
import {noUnreadable, readPages, reportUnreadable} from './unreadable-report.js';
import {ExitCode} from './exit-codes.js';
import type {Server} from './server.js';
import {renderTable} from './table.js';

/** `agent-tui specs [--json]`: the sandbox specs (templates a sandbox is started from). */
export async function runSpecs(server: Server, io: Io, flags: CommandFlags): Promise<number> {
	const unreadable = noUnreadable();
	const specs = await readPages(server.app.searchSandboxSpecPages(), unreadable);
	// Rows that could not be read are not "none": said after the list, and exit 5.
	const done = () => (unreadable.count > 0 ? (reportUnreadable(io, unreadable, 'sandbox spec'), ExitCode.server) : ExitCode.ok);
	if (flags.json) {
		printLine(io, toJson(specs, io.secrets));
		return done();
	}
	const lines = renderTable<SandboxSpec>(
		specs,
		[
			{header: 'ID', value: (row) => row.id, max: 48},
			{header: 'WORKING DIR', value: (row) => row.working_dir ?? missing, max: 40},
			{header: 'COMMAND', value: (row) => (row.command?.length ? row.command.join(' ') : '(image default)'), max: 60, flexible: true},
		],
		io.stdout.isTTY ? io.stdout.columns : undefined,
	);
	for (const line of lines) printText(io, line);
	return done();
}

import {printText, type Io} from './io.js';
import type {Server} from './server.js';
import {findSandbox, watchForCapPause, watchSandbox} from './sandbox-watch.js';

/**
 * `agent-tui resume <sandbox-id>`: asks the server to resume the sandbox and watches it start.
 * The service keeps a cap on running sandboxes and pauses your oldest other RUNNING ones to make
 * room (docs/service-behaviour.md §1.2), so the sandboxes are compared before and after and any that went
 * PAUSED is named: a script that resumes one sandbox should know it stopped another. The service
 * asks for that pause before the resume, but the runtime can stop after the resumed one runs:
 * the ones that were running are watched a while longer (as long as the resume took, 2 to 10 s).
 */
export async function runResume(server: Server, io: Io, id: string): Promise<number> {
	const target = await findSandbox(server, id);
	if (target.status === 'RUNNING') {
		printText(io, `sandbox ${target.id} is already RUNNING`);
		return 0;
	}
	const before = await server.app.listSandboxes();
	const sentAt = Date.now();
	await server.app.resumeSandbox(target.id);
	printText(io, `resume requested for sandbox ${target.id} (was ${target.status}); the status changes asynchronously`);
	const after = await watchSandbox(server, target.id, ['RUNNING', 'ERROR', 'MISSING'], {timeoutMs: 10_000, intervalMs: 500});
	if (after?.status === 'RUNNING') printText(io, `sandbox ${target.id} is now RUNNING`);
	else printText(io, `sandbox ${target.id} is ${after?.status ?? 'gone'} so far; check again with: agent-tui sandboxes`);
	const graceMs = Math.min(10_000, Math.max(2000, Date.now() - sentAt));
	for (const sandbox of await watchForCapPause(server, before, target.id, graceMs)) {
		printText(io, `sandbox ${sandbox.id} was PAUSED by the server to make room (it keeps a limit on running sandboxes)`);
	}
	return 0;
}

import {printText, type Io} from './io.js';
import type {Server} from './server.js';
import {findSandbox, watchSandbox} from './sandbox-watch.js';

/**
 * `agent-tui pause <sandbox-id>`: asks the server to pause the sandbox, then watches it for a few
 * seconds so the answer says whether it is PAUSED yet. The request is accepted at once; the
 * change itself is asynchronous.
 */
export async function runPause(server: Server, io: Io, id: string): Promise<number> {
	const before = await findSandbox(server, id);
	if (before.status === 'PAUSED') {
		printText(io, `sandbox ${before.id} is already PAUSED`);
		return 0;
	}
	await server.app.pauseSandbox(before.id);
	printText(io, `pause requested for sandbox ${before.id} (was ${before.status}); the status changes asynchronously`);
	const after = await watchSandbox(server, before.id, ['PAUSED', 'ERROR', 'MISSING'], {timeoutMs: 5000, intervalMs: 500});
	if (after?.status === 'PAUSED') printText(io, `sandbox ${before.id} is now PAUSED`);
	else printText(io, `sandbox ${before.id} is ${after?.status ?? 'gone'} so far; check again with: agent-tui sandboxes`);
	return 0;
}

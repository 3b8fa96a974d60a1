import diagnostics from 'node:diagnostics_channel';
import {PassThrough} from 'node:stream';
import {checkInvocation} from '../source/commands/invocation.js';
import type {Io} from '../source/commands/io.js';
import {withBudget} from '../source/commands/server.js';
import {startSimulator} from '../source/simulator/server.js';
import {AppClient} from '../source/wire/app-client.js';
import type {Sizes} from './sizes.js';
import {type BenchRow, times} from './table.js';

/**
 * Headless `agent-tui events <id> --json` of a conversation whose sandbox is gone (MISSING), read
 * from the app server's stored copy: the real command, in this process, against the simulator.
 * Requests are counted as they leave the process (undici's diagnostics channel, retries
 * included): the stored pages, and the most requests of the whole run in any 60 s and any 1 s.
 */
export async function benchStoredHistory(sizes: Sizes): Promise<BenchRow[]> {
	const events = sizes.storedHistoryEvents;
	const sent: Array<{at: number; stored: boolean}> = [];
	const listener = (message: unknown) => {
		const {request} = message as {request: {path: string}};
		if (request.path.startsWith('/api/v1/')) sent.push({at: Date.now(), stored: /\/events\/search/.test(request.path)});
	};
	const sim = await startSimulator({port: 0, seed: 3, tickMs: 0, conversations: 30});
	const target = sim.world.conversationList().find((row) => sim.world.findSandbox(row.sandboxId)?.status === 'MISSING')!;
	while (sim.world.events(target).length < events) sim.world.appendEvent(target, {kind: 'PauseEvent', source: 'user'});
	const app = new AppClient({baseUrl: sim.baseUrl, apiKey: sim.apiKey});
	const server = withBudget({app, baseUrl: sim.baseUrl, label: 'simulator', demo: false, close: () => app.close()});
	let stdout = '';
	const out = new PassThrough();
	out.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
	const io: Io = {stdout: out, stderr: new PassThrough(), secrets: [sim.apiKey], debug: false};
	const invocation = checkInvocation(['events', target.id], {json: true}, ['json']);
	diagnostics.subscribe('undici:request:create', listener);
	try {
		const started = performance.now();
		const code = await invocation.command!.run(server, io, invocation.args, invocation.commandFlags);
		const elapsed = performance.now() - started;
		const printed = (JSON.parse(stdout) as unknown[]).length;
		const stored = sent.filter((request) => request.stored).length;
		const expected = Math.ceil(events / 100);
		const peak = (windowMs: number) => {
			let most = 0;
			let start = 0;
			for (let end = 0; end < sent.length; end++) {
				while (sent[end]!.at - sent[start]!.at >= windowMs) start++;
				most = Math.max(most, end - start + 1);
			}
			return most;
		};
		const label = `${events.toLocaleString('en-US')} stored events`;
		return [
			{
				area: 'requests',
				name: `headless events --json of ${label}, sandbox MISSING: stored-copy requests (${printed.toLocaleString('en-US')} events printed, exit ${code}, ${(elapsed / 1000).toFixed(1)} s; ${sent.length} requests in all with the id look-up)`,
				figure: String(stored),
				target: `= ceil(${events}/100) = ${expected}`,
				ratio: times(stored / expected),
				met: stored === expected && printed === events && code === 0,
			},
			{
				area: 'requests',
				name: `the same read: peak requests in any 60 s (any 1 s: ${peak(1000)}, the budget 10)`,
				figure: String(peak(60_000)),
				target: '<= 100 (the budget)',
				ratio: times(peak(60_000) / 100),
				met: peak(60_000) <= 100 && peak(1000) <= 10,
			},
		];
	} finally {
		diagnostics.unsubscribe('undici:request:create', listener);
		await server.close();
		await sim.close();
	}
}

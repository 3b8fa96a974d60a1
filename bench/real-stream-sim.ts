import {createInterface} from 'node:readline';
import {startSimulator} from '../source/simulator/server.js';
import {realFrames} from './real-events.js';

/**
 * The simulator for the real-stream row, in a process of its own (`run.ts --serve-real-stream=N,R`):
 * what it holds and the frames it makes must not count in the dashboard's resident memory. It
 * prints where its running conversation is; on a `go` line on stdin it writes N events of a real
 * conversation's sizes into that conversation, R a second (the agent server streams each to the
 * dashboard as it does any event), then prints `done` with the last event's id and the bytes sent.
 */
export type RealStreamSimInfo = {baseUrl: string; apiKey: string; conversationId: string; title: string};

export async function serveRealStreamSim(count: number, rate: number): Promise<void> {
	const sim = await startSimulator({port: 0, seed: 4, tickMs: 0, conversations: 24});
	const target = sim.world.conversationList().find((conversation) => conversation.scenario === 'long-runner' && sim.world.findSandbox(conversation.sandboxId)?.status === 'RUNNING');
	if (!target) throw new Error('the simulator has no running long-runner conversation');
	const info: RealStreamSimInfo = {baseUrl: sim.baseUrl, apiKey: sim.apiKey, conversationId: target.id, title: target.title};
	process.stdout.write(`${JSON.stringify(info)}\n`);
	const lines = createInterface({input: process.stdin});
	for await (const line of lines) {
		if (line.trim() !== 'go') continue;
		const stats = {bytes: 0, largest: 0};
		const frames = realFrames(count, 7, stats);
		const perTick = Math.max(1, Math.round(rate / 20));
		let last = '';
		let sent = 0;
		const started = Date.now();
		for (;;) {
			let done = false;
			for (let index = 0; index < perTick; index++) {
				const next = frames.next();
				if (next.done) {
					done = true;
					break;
				}
				const {timestamp: _timestamp, ...draft} = JSON.parse(next.value) as Record<string, unknown> & {kind: string};
				last = sim.world.appendEvent(target, draft).id;
				sent++;
			}
			if (done) break;
			// R a second, on the wall clock: 50 ms ticks, caught up if a tick ran late.
			const due = started + (sent / rate) * 1000;
			await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())));
		}
		process.stdout.write(`${JSON.stringify({done: true, lastId: last, sent, bytes: stats.bytes, largest: stats.largest})}\n`);
	}
}

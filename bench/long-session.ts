import {createDashboard} from '../source/state/dashboard-store.js';
import {EventLog} from '../source/state/event-log.js';
import {startSimulator} from '../source/simulator/server.js';
import {AppClient} from '../source/wire/app-client.js';
import {closeHttpAgent} from '../source/wire/http.js';
import {mayHoldEncryptedContent, parseEvent} from '../source/wire/schemas/events.js';
import {simulatorFrames} from './frames.js';
import {settle} from './ink-harness.js';
import type {Sizes} from './sizes.js';
import {type BenchRow, mb, times} from './table.js';

const gc = (globalThis as {gc?: () => void}).gc;

function heapAfterGc(): number {
	gc?.();
	gc?.();
	return process.memoryUsage().heapUsed;
}

function activeHandles(): number {
	return (process as unknown as {_getActiveHandles(): unknown[]})._getActiveHandles().length;
}

/**
 * An hour of simulated time following a conversation at 50 events/s (180,000 events through the
 * same parse and log as the stream), fed as fast as the machine goes: heap per event kept at each
 * quarter (flat means memory grows only with the events); then timers and sockets before and after
 * 50 open/close cycles of a real dashboard's timeline against the simulator (leaks would pile up).
 */
export async function benchLongSession(sizes: Sizes): Promise<BenchRow[]> {
	const total = Math.round(sizes.longSessionHours * 3600 * sizes.longSessionRate);
	const frames = await simulatorFrames(Math.min(total, 20_000));
	const base = heapAfterGc();
	const log = new EventLog();
	const perEvent: number[] = [];
	const start = Date.parse('2026-11-22T00:00:00Z');
	for (let index = 0; index < total; index++) {
		const template = frames[index % frames.length]!;
		// A fresh id and the simulated time of a 50/s stream.
		const frame = template.replace(/"id":"([^"]+)"/, `"id":"$1-${index}"`).replace(/"timestamp":"[^"]+"/, `"timestamp":"${new Date(start + (index * 1000) / sizes.longSessionRate).toISOString().replace('Z', '')}"`);
		log.add([parseEvent(JSON.parse(frame), {mayHoldEncryptedContent: mayHoldEncryptedContent(frame)})]);
		if ((index + 1) % Math.ceil(total / 4) === 0 || index === total - 1) perEvent.push((heapAfterGc() - base) / log.size);
	}
	const flatness = Math.max(...perEvent) / Math.min(...perEvent);
	const kept = log.size;
	const heldBytes = heapAfterGc() - base;

	const sim = await startSimulator({port: 0, seed: 4, tickMs: 0, conversations: 24});
	const handlesBefore = activeHandles();
	const appClient = new AppClient({baseUrl: sim.baseUrl, apiKey: sim.apiKey, maxRetries: 0});
	const {store, controller} = createDashboard({appClient, appBaseUrl: sim.baseUrl, serverLabel: 'simulator', demo: false, secrets: [sim.apiKey]});
	const loadStart = Date.now();
	while (store.getSnapshot().conversations.size < 24 && Date.now() - loadStart < 10_000) await settle(50);
	const running = [...store.getSnapshot().conversations.values()].filter((row) => row.conversation.sandbox_status === 'RUNNING').map((row) => row.key);
	const cycles = sizes.tiny ? 5 : 50;
	const handlesOpen: number[] = [];
	for (let cycle = 0; cycle < cycles; cycle++) {
		controller.openTimeline(running[cycle % running.length]!);
		const opened = Date.now();
		while (store.getSnapshot().timeline?.stream.state !== 'live' && Date.now() - opened < 5000) await settle(10);
		handlesOpen.push(activeHandles());
		controller.closeTimeline();
	}
	await controller.close();
	await sim.close();
	await closeHttpAgent();
	await settle(200);
	const handlesAfter = activeHandles();
	// Connection pools fill up over the first cycles; a leak keeps growing after that.
	const settled = handlesOpen[Math.floor(handlesOpen.length / 5)]!;
	const growth = handlesOpen.at(-1)! - settled;
	return [
		{
			area: 'long run',
			name: `heap per event kept at each quarter of ${sizes.longSessionHours} h at ${sizes.longSessionRate}/s (${kept.toLocaleString('en-US')} events, ${mb(heldBytes)}): ${perEvent.map((value) => `${Math.round(value)} B`).join(', ')}`,
			figure: `${Math.round(perEvent.at(-1)!)} B/event`,
			target: 'flat (max/min < 1.25)',
			ratio: times(flatness),
			met: gc !== undefined && flatness < 1.25,
		},
		{
			area: 'long run',
			name: `active handles: before ${handlesBefore}; while open: ${handlesOpen[0]} first, ${settled} after ${Math.floor(handlesOpen.length / 5) + 1} cycles, ${handlesOpen.at(-1)} after ${cycles}; after close ${handlesAfter}`,
			figure: `${growth >= 0 ? '+' : ''}${growth} after warm-up, ${handlesAfter - handlesBefore >= 0 ? '+' : ''}${handlesAfter - handlesBefore} after close`,
			target: 'no growth after warm-up; none left after close',
			met: growth <= 0 && handlesAfter <= handlesBefore,
		},
	];
}

import {spawn} from 'node:child_process';
import {createInterface} from 'node:readline';
import {createElement} from 'react';
import {createDashboard} from '../source/state/dashboard-store.js';
import {AppClient} from '../source/wire/app-client.js';
import {closeHttpAgent} from '../source/wire/http.js';
import {normalizeId} from '../source/wire/ids.js';
import {keyToFrame, mount, settle} from './ink-harness.js';
import type {RealStreamSimInfo} from './real-stream-sim.js';
import type {Sizes} from './sizes.js';
import {type BenchRow, mb} from './table.js';

const gc = (globalThis as {gc?: () => void}).gc;

function memory(): {rss: number; heapUsed: number; external: number} {
	gc?.();
	gc?.();
	const {rss, heapUsed, external} = process.memoryUsage();
	return {rss, heapUsed, external};
}

type Done = {done: true; lastId: string; sent: number; bytes: number; largest: number};

/**
 * Following a real conversation's stream (bench/real-events.ts: tool outputs up to 30,000
 * characters, file edits with the whole file before and after, long messages, condensations;
 * about 7 KB a frame, not the simulator's 884 bytes) with the real dashboard: store, stream
 * supervisor over a real WebSocket, timeline session, view at 160x48. The agent server is a
 * simulator in a process of its own writing the events at `realStreamRate` a second (25 times the
 * 20 a second of the 13-minute follow that took 141 MB to 342 MB), so its memory is not in the
 * figure. Resident memory of this process before and after, each after two full collections.
 */
export async function benchRealStream(sizes: Sizes): Promise<BenchRow[]> {
	const {Dashboard} = await import('../source/view/Dashboard.js');
	const total = sizes.realStreamEvents;
	const rate = sizes.realStreamRate;
	const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!, `--serve-real-stream=${total},${rate}`], {stdio: ['pipe', 'pipe', 'inherit']});
	const lines = createInterface({input: child.stdout});
	const next = () =>
		new Promise<string>((resolve, reject) => {
			lines.once('line', resolve);
			child.once('exit', (code) => reject(new Error(`the real-stream simulator exited (${code})`)));
		});
	const info = JSON.parse(await next()) as RealStreamSimInfo;
	const appClient = new AppClient({baseUrl: info.baseUrl, apiKey: info.apiKey, maxRetries: 0});
	const {store, controller} = createDashboard({appClient, appBaseUrl: info.baseUrl, serverLabel: 'simulator', demo: false, secrets: [info.apiKey]});
	const mounted = await mount(createElement(Dashboard, {store, controller, onQuit: () => undefined}), {columns: 160, rows: 48});
	try {
		const key = normalizeId(info.conversationId);
		const listed = Date.now();
		while (!store.getSnapshot().conversations.has(key)) {
			if (Date.now() - listed > 10_000) throw new Error('the conversation is not listed');
			await settle(20);
		}
		controller.openTimeline(key);
		await keyToFrame(mounted, '3', (frame) => frame.includes('Timeline'));
		const opened = Date.now();
		while (store.getSnapshot().timeline?.stream.state !== 'live') {
			if (Date.now() - opened > 10_000) throw new Error('the timeline did not go live');
			await settle(20);
		}
		await settle(500);
		const before = memory();
		const started = performance.now();
		child.stdin.write('go\n');
		const done = JSON.parse(await next()) as Done;
		// Until the dashboard has the last event the agent server wrote.
		const waited = Date.now();
		while (store.getSnapshot().timeline?.events.at(-1)?.id !== done.lastId) {
			if (Date.now() - waited > 60_000) throw new Error('the last event never arrived');
			await settle(50);
		}
		const followed = performance.now() - started;
		await settle(1000);
		const soon = memory();
		// A person following reads on: ten seconds later (two in the smoke run), what the burst left has been given back.
		const later = sizes.realStreamLaterSeconds;
		await settle(later * 1000);
		const after = memory();
		const timeline = store.getSnapshot().timeline!;
		const held = timeline.events.length;
		const average = done.bytes / done.sent;
		if (process.env.BENCH_MEMORY) process.stderr.write(`real stream: before ${JSON.stringify(before)}, a second after ${JSON.stringify(soon)}, ${later} s after ${JSON.stringify(after)}, held ${held}\n`);
		return [
			{
				area: 'real stream',
				name: `resident memory ${later} s after following ${done.sent.toLocaleString('en-US')} events of a real conversation's sizes over a WebSocket, ${rate}/s (${(average / 1024).toFixed(1)} KB a frame on average, ${mb(done.bytes)} in all, the largest ${(done.largest / 1024).toFixed(0)} KB: outputs, diffs, long messages; ${held.toLocaleString('en-US')} held in the window, the rest read back on scroll; ${(followed / 1000).toFixed(0)} s; before ${mb(before.rss)}, 1 s after ${mb(soon.rss)}; heap ${mb(after.heapUsed)})`,
				figure: mb(after.rss),
				target: '< 300 MB',
				met: after.rss < 300 * 1024 * 1024 && done.sent === total,
			},
		];
	} finally {
		mounted.unmount();
		await controller.close();
		await appClient.close();
		child.kill();
		await closeHttpAgent();
	}
}

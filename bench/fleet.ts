import diagnostics from 'node:diagnostics_channel';
import {openDashboardRuntime} from '../source/commands/dashboard-runtime.js';
import {startSimulator, type Simulator} from '../source/simulator/server.js';
import {Secret} from '../source/wire/secret.js';
import {settle} from './ink-harness.js';
import type {Sizes} from './sizes.js';
import {type BenchRow, times} from './table.js';

/**
 * The all-servers view (`--all-profiles`) over three simulators of 1,000 conversations each, as
 * the dashboard opens it (commands/dashboard-runtime.ts), with the product's default intervals
 * and budget: each server's requests counted as they leave the process, by origin. Every server
 * must stay within its own budget (100 in any 60 s) and refresh its conversations in
 * ceil(1,000/99) look-ups a round, while the merged list holds every server's rows.
 */
export async function benchFleet(sizes: Sizes): Promise<BenchRow[]> {
	const servers = 3;
	const count = sizes.requestConversations;
	const sent = new Map<string, Array<{at: number; path: string; ids: number}>>();
	const listener = (message: unknown) => {
		const {request} = message as {request: {origin: string | URL; path: string}};
		const [path = '', query = ''] = request.path.split('?');
		if (!path.startsWith('/api/v1/')) return;
		const origin = String(request.origin);
		const list = sent.get(origin) ?? [];
		list.push({at: Date.now(), path, ids: query.split('&').filter((pair) => pair.startsWith('ids=')).length});
		sent.set(origin, list);
	};
	diagnostics.subscribe('undici:request:create', listener);
	const simulators: Simulator[] = [];
	for (let index = 0; index < servers; index++) simulators.push(await startSimulator({port: 0, seed: 20 + index, tickMs: 0, conversations: count}));
	const names = simulators.map((_, index) => `server${index + 1}`);
	const runtime = await openDashboardRuntime(null, {
		profiles: names.map((name, index) => ({name, label: new URL(simulators[index]!.baseUrl).host})),
		resolveProfile: async (name) => {
			const simulator = simulators[names.indexOf(name)]!;
			return {baseUrl: simulator.baseUrl, apiKey: new Secret(simulator.apiKey), label: name};
		},
		write: () => undefined,
	});
	try {
		const started = Date.now();
		let firstFullAt: number | null = null;
		while (Date.now() - started < sizes.requestRunSeconds * 1000) {
			await settle(200);
			if (firstFullAt === null && runtime.session().store.getSnapshot().conversations.size === servers * count) firstFullAt = Date.now() - started;
		}
		const loaded = runtime.session().store.getSnapshot().conversations.size;
		const limit = Math.ceil(count / 99);
		const budget = 100;
		const perServer = simulators.map((simulator) => {
			const requests = sent.get(new URL(simulator.baseUrl).origin) ?? [];
			const lookups = requests.filter((request) => request.path === '/api/v1/app-conversations');
			const ids = lookups.reduce((sum, request) => sum + request.ids, 0);
			const perRound = lookups.length > 0 ? Math.ceil(count / (ids / lookups.length)) : 0;
			return {sent: requests.length, perRound, peak: peakIn60s(requests.map((request) => request.at))};
		});
		const worstPeak = Math.max(...perServer.map((server) => server.peak));
		const worstRound = Math.max(...perServer.map((server) => server.perRound));
		return [
			{
				area: 'fleet',
				name: `${servers} servers × ${count.toLocaleString('en-US')} conversations in one list: ${loaded.toLocaleString('en-US')} rows after ${sizes.requestRunSeconds} s (all of them after ${firstFullAt === null ? '—' : `${(firstFullAt / 1000).toFixed(1)} s`})`,
				figure: loaded.toLocaleString('en-US'),
				target: `${(servers * count).toLocaleString('en-US')}`,
				met: loaded === servers * count,
			},
			{
				area: 'fleet',
				name: `peak requests in any 60 s per server over a ${sizes.requestRunSeconds} s run (${perServer.map((server, index) => `${names[index]} ${server.peak} of ${server.sent} sent`).join(', ')})`,
				figure: String(worstPeak),
				target: `<= ${budget} each (its own budget)`,
				ratio: times(worstPeak / budget),
				met: worstPeak <= budget && perServer.every((server) => server.sent > 0),
			},
			{
				area: 'fleet',
				name: `look-ups per refresh of each server's ${count.toLocaleString('en-US')} conversations (${perServer.map((server) => server.perRound).join(', ')})`,
				figure: String(worstRound),
				target: `<= ceil(${count}/99) = ${limit}`,
				ratio: times(worstRound / limit),
				met: worstRound <= limit && (worstRound > 0 || sizes.tiny),
			},
		];
	} finally {
		diagnostics.unsubscribe('undici:request:create', listener);
		await runtime.close();
		await Promise.all(simulators.map((simulator) => simulator.close()));
	}
}

/** The most of `times` (ms, ascending) inside any 60 s window. */
function peakIn60s(times_: readonly number[]): number {
	let peak = 0;
	let start = 0;
	for (let end = 0; end < times_.length; end++) {
		while (times_[end]! - times_[start]! >= 60_000) start++;
		peak = Math.max(peak, end - start + 1);
	}
	return peak;
}

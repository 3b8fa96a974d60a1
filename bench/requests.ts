import diagnostics from 'node:diagnostics_channel';
import {createDashboard} from '../source/state/dashboard-store.js';
import {startSimulator} from '../source/simulator/server.js';
import {AppClient} from '../source/wire/app-client.js';
import {settle} from './ink-harness.js';
import type {Sizes} from './sizes.js';
import {type BenchRow, times} from './table.js';

/**
 * Requests the store sends to keep 1,000 conversations current, counted as they leave the process
 * (undici's diagnostics channel, retries included), with the product's default intervals and
 * budget: look-ups per refresh round, and the most sent in any 60 s window of the run.
 */
export async function benchRequests(sizes: Sizes): Promise<BenchRow[]> {
	const sent: Array<{at: number; path: string; ids: number}> = [];
	const listener = (message: unknown) => {
		const {request} = message as {request: {path: string}};
		const [path = '', query = ''] = request.path.split('?');
		if (path.startsWith('/api/v1/')) sent.push({at: Date.now(), path, ids: query.split('&').filter((pair) => pair.startsWith('ids=')).length});
	};
	diagnostics.subscribe('undici:request:create', listener);
	const count = sizes.requestConversations;
	const sim = await startSimulator({port: 0, seed: 9, tickMs: 0, conversations: count});
	const appClient = new AppClient({baseUrl: sim.baseUrl, apiKey: sim.apiKey, maxRetries: 0});
	const {store, controller} = createDashboard({appClient, appBaseUrl: sim.baseUrl, serverLabel: 'simulator', demo: false, secrets: [sim.apiKey]});
	try {
		const started = Date.now();
		while (Date.now() - started < sizes.requestRunSeconds * 1000) await settle(200);
		const loaded = store.getSnapshot().conversations.size;
		// The poller spreads a refresh over the budget, so rounds are not separated in time: what
		// it costs to refresh every conversation once is the conversations over the ids per look-up.
		const lookups = sent.filter((request) => request.path === '/api/v1/app-conversations');
		const idsLookedUp = lookups.reduce((sum, request) => sum + request.ids, 0);
		const perRound = lookups.length > 0 ? Math.ceil(count / (idsLookedUp / lookups.length)) : 0;
		const limit = Math.ceil(count / 99);
		const times_ = sent.map((request) => request.at);
		let peak = 0;
		let start = 0;
		for (let end = 0; end < times_.length; end++) {
			while (times_[end]! - times_[start]! >= 60_000) start++;
			peak = Math.max(peak, end - start + 1);
		}
		const budget = 100;
		return [
			{
				area: 'requests',
				name: `look-ups per refresh of all ${count.toLocaleString('en-US')} conversations (${loaded} loaded; ${lookups.length} look-ups of ${(idsLookedUp / Math.max(1, lookups.length)).toFixed(1)} ids on average)`,
				figure: String(perRound),
				target: `<= ceil(${count}/99) = ${limit}`,
				ratio: times(perRound / limit),
				met: perRound <= limit && (perRound > 0 || sizes.tiny),
			},
			{
				area: 'requests',
				name: `peak requests in any 60 s over a ${sizes.requestRunSeconds} s run (${sent.length} sent)`,
				figure: String(peak),
				target: `<= ${budget} (the budget)`,
				ratio: times(peak / budget),
				met: peak <= budget,
			},
		];
	} finally {
		diagnostics.unsubscribe('undici:request:create', listener);
		await controller.close();
		await sim.close();
	}
}

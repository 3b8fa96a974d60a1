import {createElement} from 'react';
import {conversationRow, fixtureSnapshot, fixtureStore, hexId, recordingController} from '../test/helpers/dashboard-fixture.js';
import {keyToFrame, mount, settle} from './ink-harness.js';
import type {Sizes} from './sizes.js';
import {type BenchRow, median, ms, times} from './table.js';

const statuses = ['running', 'running', 'running', 'finished', 'idle', 'stuck', 'error', 'waiting_for_confirmation', 'paused'];

/** n conversations in the wire's own shape, parsed by the real schemas, attention computed. */
function fleet(count: number) {
	return Array.from({length: count}, (_, index) => ({
		id: hexId(index + 1),
		title: `Conversation ${index + 1}: fix the flaky test in module ${index % 97}`,
		repo: `acme/service-${index % 41}`,
		execution: statuses[index % statuses.length]!,
		cost: (index % 13) * 0.37,
		updatedMinutesAgo: index % 300,
		createdMinutesAgo: 300 + (index % 500),
	}));
}

/** A dashboard with `count` conversations, mounted at 160x48. */
async function mountSize(count: number) {
	const {Dashboard} = await import('../source/view/Dashboard.js');
	const seeds = fleet(count);
	const snapshot = fixtureSnapshot({}, seeds);
	// Rows built by the same code as the fixture, kept in the store's Map.
	snapshot.conversations = new Map(seeds.map((seed) => [seed.id, conversationRow(seed)]));
	const store = fixtureStore(snapshot);
	return mount(createElement(Dashboard, {store, controller: recordingController(), onQuit: () => undefined}), {columns: 160, rows: 48});
}

/**
 * The conversations pane with 10 … 100,000 conversations at 160x48: the median time from a key
 * press (j and k alternately, so the selection moves) to the frame Ink writes. All sizes are
 * mounted at once and pressed in turn, so they share the machine's moments: these are costs of
 * about a millisecond, and measuring one size after the other moved the 100,000 ratio between
 * 0.76x and 1.57x from run to run with nothing changed.
 */
export async function benchFrameCost(sizes: Sizes): Promise<BenchRow[]> {
	const mounted = [];
	for (const count of sizes.frameCostCounts) mounted.push(await mountSize(count));
	await settle(50);
	const samples = sizes.frameCostCounts.map(() => [] as number[]);
	// Warm-up presses first: at sub-millisecond costs the JIT compiling the render path would
	// otherwise weigh on the first presses.
	const warmUp = sizes.tiny ? 5 : 40;
	for (let press = 0; press < sizes.frameCostPresses + warmUp; press++) {
		for (const [index, dashboard] of mounted.entries()) {
			const time = await keyToFrame(dashboard, press % 2 === 0 ? 'j' : 'k');
			if (press >= warmUp) samples[index]!.push(time);
		}
	}
	for (const dashboard of mounted) dashboard.unmount();
	const results = sizes.frameCostCounts.map((count, index) => ({count, median: median(samples[index]!)}));
	const smallest = results[0]!;
	const largest = results.at(-1)!;
	const at10k = results.find((result) => result.count === 10_000) ?? largest;
	const rows: BenchRow[] = results.map((result) => ({
		area: 'frame',
		name: `key to frame, conversations pane, ${result.count.toLocaleString('en-US')} conversations (median of ${sizes.frameCostPresses}, sizes pressed in turn)`,
		figure: ms(result.median),
		target: result === largest ? `<= 1.5x the cost at ${smallest.count}` : result === at10k ? '< 16 ms' : '—',
		ratio: `${times(result.median / smallest.median)} of ${smallest.count}`,
		met: result === largest ? result.median <= 1.5 * smallest.median : result === at10k ? result.median < 16 : true,
	}));
	return rows;
}

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

/**
 * The conversations pane with 10 … 100,000 conversations: the median time from a key press (j
 * and k alternately, so the selection moves) to the frame Ink writes, at 160x48.
 */
export async function benchFrameCost(sizes: Sizes): Promise<BenchRow[]> {
	const {Dashboard} = await import('../source/view/Dashboard.js');
	const results: Array<{count: number; median: number}> = [];
	for (const count of sizes.frameCostCounts) {
		const seeds = fleet(count);
		const snapshot = fixtureSnapshot({}, seeds);
		// Rows built by the same code as the fixture, kept in the store's Map.
		snapshot.conversations = new Map(seeds.map((seed) => [seed.id, conversationRow(seed)]));
		const store = fixtureStore(snapshot);
		const mounted = await mount(createElement(Dashboard, {store, controller: recordingController(), onQuit: () => undefined}), {columns: 160, rows: 48});
		await settle(50);
		const samples: number[] = [];
		// Warm-up presses first: at sub-millisecond costs the first size measured would otherwise
		// pay for the JIT compiling the render path, and the ratio would measure the order.
		const warmUp = sizes.tiny ? 5 : 40;
		for (let press = 0; press < sizes.frameCostPresses + warmUp; press++) {
			const time = await keyToFrame(mounted, press % 2 === 0 ? 'j' : 'k');
			if (press >= warmUp) samples.push(time);
		}
		mounted.unmount();
		results.push({count, median: median(samples)});
	}
	const smallest = results[0]!;
	const largest = results.at(-1)!;
	const at10k = results.find((result) => result.count === 10_000) ?? largest;
	const rows: BenchRow[] = results.map((result) => ({
		area: 'frame',
		name: `key to frame, conversations pane, ${result.count.toLocaleString('en-US')} conversations (median of ${sizes.frameCostPresses})`,
		figure: ms(result.median),
		target: result === largest ? `<= 1.5x the cost at ${smallest.count}` : result === at10k ? '< 16 ms' : '—',
		ratio: `${times(result.median / smallest.median)} of ${smallest.count}`,
		met: result === largest ? result.median <= 1.5 * smallest.median : result === at10k ? result.median < 16 : true,
	}));
	return rows;
}

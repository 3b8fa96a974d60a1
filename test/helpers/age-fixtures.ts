import type {TestContext} from 'node:test';
import type {Simulator} from '../../source/simulator/server.js';
import type {createDashboard} from '../../source/state/dashboard-store.js';
import {normalizeId} from '../../source/wire/ids.js';
import {waitForSnapshot} from './store-wait.js';

/**
 * Fleets and timelines the tests of ages and clocks (state/age-basis.ts, state/data-clock.ts)
 * share, against the simulator.
 */

/**
 * Both clocks right and nothing moving: every agent at work quiet for 20 minutes, nothing
 * written in the last 20 (called before the first poll or listing).
 */
export function stillFleet(sim: Simulator): void {
	const now = Date.now();
	for (const conversation of sim.world.conversationList()) {
		if (sim.world.findSandbox(conversation.sandboxId)?.status === 'RUNNING') {
			sim.world.agent(conversation);
			conversation.executionStatus = 'running';
		}
		conversation.updatedAt = Math.min(conversation.updatedAt, now - 20 * 60_000);
		conversation.createdAt = Math.min(conversation.createdAt, conversation.updatedAt);
	}
}

type Dashboard = {sim: Simulator} & Pick<ReturnType<typeof createDashboard>, 'store' | 'controller'>;

/**
 * The running long-runner's timeline opened and live, then its agent working: a step every
 * `everyMs`, the stream delivering each. `stop` ends the writing (the test's end does too).
 */
export async function writingLongRunner(t: TestContext, {sim, store, controller}: Dashboard, everyMs = 200): Promise<{key: string; stop: () => void}> {
	const conversation = sim.world.conversationList().find((entry) => entry.scenario === 'long-runner' && sim.world.findSandbox(entry.sandboxId)?.status === 'RUNNING')!;
	const key = normalizeId(conversation.id);
	controller.openTimeline(key);
	await waitForSnapshot(store, (snapshot) => snapshot.timeline?.stream.state === 'live', 'the timeline live');
	const writer = setInterval(() => sim.step(1), everyMs);
	t.after(() => clearInterval(writer));
	return {key, stop: () => clearInterval(writer)};
}

import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after} from 'node:test';
import {startSimulator, type Simulator} from '../../source/simulator/server.js';
import type {SimConversation} from '../../source/simulator/world-types.js';

/**
 * The snooze tests' world: a HOME (`agent-tui-<name>-…`) with the state folder the snoozes are
 * kept in, and simulators of one seed, each with a key of its own. After the file's tests,
 * `first` runs (the tmux sessions to end), then the simulators close and the HOME goes.
 */
export function snoozeWorld(name: string, first: () => void = () => undefined) {
	const home = mkdtempSync(join(tmpdir(), `agent-tui-${name}-`));
	const simulators: Simulator[] = [];
	after(async () => {
		first();
		await Promise.all(simulators.map((simulator) => simulator.close()));
		rmSync(home, {recursive: true, force: true, maxRetries: 5});
	});
	return {
		home,
		stateHome: join(home, 'state'),
		/** A simulator with no ticking (a conversation changes only when the test changes it) that takes `apiKey`. */
		async simulator(apiKey: string): Promise<Simulator> {
			const started = await startSimulator({port: 0, tickMs: 0, seed: 7, conversations: 12, apiKey});
			simulators.push(started);
			return started;
		},
	};
}

/** The seed's conversation waiting for an approval. */
export const waitingOf = (sim: Simulator): SimConversation => sim.world.conversationList().find((conversation) => conversation.scenario === 'confirmation')!;

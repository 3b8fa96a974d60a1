import {startSimulator} from '../source/simulator/server.js';
import {simulatorTemplates} from './frames.js';

/**
 * The simulator for the stored-history rows, in a process of its own (`run.ts --serve-stored-sim=N`):
 * its copy of 100,000 events must not count in the resident memory of the dashboard measured. One
 * PAUSED conversation gets N more events (the simulator's own, every scenario, repeated); the
 * line printed tells the parent where it is and what its oldest and newest events say.
 */
export type StoredSimInfo = {baseUrl: string; apiKey: string; conversationId: string; title: string; total: number; firstId: string; lastId: string};

export async function serveStoredSim(count: number): Promise<void> {
	const templates = await simulatorTemplates();
	const sim = await startSimulator({port: 0, seed: 4, tickMs: 0, conversations: 24});
	const target = sim.world.conversationList().find((conversation) => sim.world.findSandbox(conversation.sandboxId)?.status === 'PAUSED');
	if (!target) throw new Error('the simulator has no PAUSED conversation');
	for (let index = 0; index < count; index++) {
		const {id: _id, timestamp: _timestamp, ...draft} = templates[index % templates.length]! as Record<string, unknown> & {kind: string};
		sim.world.appendEvent(target, draft);
	}
	const events = sim.world.events(target);
	const info: StoredSimInfo = {baseUrl: sim.baseUrl, apiKey: sim.apiKey, conversationId: target.id, title: target.title, total: events.length, firstId: events[0]!.id, lastId: events.at(-1)!.id};
	process.stdout.write(`${JSON.stringify(info)}\n`);
	// Serves until the parent ends it.
	await new Promise(() => undefined);
}

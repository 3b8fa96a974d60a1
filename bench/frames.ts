import {startSimulator} from '../source/simulator/server.js';

/**
 * Realistic event frames: every event of the simulator's seeded conversations (each scenario:
 * commands, file edits, messages, condensations, errors, legacy kinds) but one system prompt,
 * serialized as the agent server sends them, then repeated with fresh ids and later timestamps
 * as far as needed.
 */

export type Templates = ReadonlyArray<Record<string, unknown>>;

export async function simulatorTemplates(): Promise<Templates> {
	const sim = await startSimulator({port: 0, seed: 3, tickMs: 0, conversations: 24});
	try {
		sim.step(60);
		const templates: Array<Record<string, unknown>> = [];
		let prompt = false;
		for (const conversation of sim.world.conversationList()) {
			for (const event of sim.world.events(conversation)) {
				// One system prompt, as one conversation has: each of the 24 opens with one (8 KB,
				// its tools' schemas), and cycling them all made every thirtieth event a prompt.
				if (event.kind === 'SystemPromptEvent') {
					if (prompt) continue;
					prompt = true;
				}
				templates.push(JSON.parse(JSON.stringify(event)) as Record<string, unknown>);
			}
		}
		if (templates.length === 0) throw new Error('the simulator produced no events');
		return templates;
	} finally {
		await sim.close();
	}
}

const base = Date.parse('2026-11-22T00:00:00Z');

/** The `index`th frame: a template with a fresh id and a timestamp 10 ms after the previous one. */
export function frameAt(templates: Templates, index: number): string {
	const template = templates[index % templates.length]!;
	return JSON.stringify({...template, id: `${String(template.id)}-${index}`, timestamp: new Date(base + index * 10).toISOString().replace('Z', '')});
}

export async function simulatorFrames(count: number): Promise<string[]> {
	const templates = await simulatorTemplates();
	return Array.from({length: count}, (_, index) => frameAt(templates, index));
}

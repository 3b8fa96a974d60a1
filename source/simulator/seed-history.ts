import {scenarios} from './agent-scripts.js';
import type {ScenarioName} from './world-types.js';
import type {WorldAccess} from './world-access.js';
import {seedConversation} from './seed-conversation.js';

/**
 * A month of history (`agent-tui simulator --history 30d`, SimulatorOptions `historyDays`): on top
 * of the usual population, conversations that ended over the last `historyDays` days, as an
 * account that has run agents for a month holds them: most sandboxes since cleaned up (MISSING),
 * some failed (ERROR, with the runtime's reason), some paused. Each day's are written between 1
 * and 20 hours into the day before, so none sits within an hour of a whole number of days (a
 * test's `unchanged 7d+` boundary is never a race).
 */

export const historyErrorDetail = 'OOMKilled';
const perDay = 3;
const endedScenarios: readonly ScenarioName[] = ['coding', 'condensing', 'legacy'];

export function seedHistory(world: WorldAccess, days: number): void {
	const rng = world.rng.fork('history');
	for (let day = 1; day <= Math.floor(days); day++) {
		for (let index = 0; index < perDay; index++) {
			const roll = rng.int(0, 9);
			const status = roll < 4 ? 'ERROR' : roll < 8 ? 'MISSING' : 'PAUSED';
			const scenario = endedScenarios[rng.int(0, endedScenarios.length - 1)]!;
			const definition = scenarios[scenario];
			const template = rng.int(0, definition.templates.length - 1);
			const updatedAt = world.epoch - day * 86_400_000 - rng.int(1, 20) * 3_600_000;
			const createdAt = updatedAt - rng.int(5, 90) * 60_000;
			const title = `${definition.templates[template]!.title} (day -${day})`;
			seedConversation(world, {scenario, template, title, status, statusDetail: status === 'ERROR' ? historyErrorDetail : null, createdAt, updatedAt, plan: {until: 'complete'}});
		}
	}
}

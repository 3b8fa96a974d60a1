import type {TestContext} from 'node:test';
import {startSimulator, type Simulator, type SimulatorOptions} from '../../source/simulator/server.js';
import {openSession, type Session, type SessionOptions, type SessionTarget} from '../../source/state/dashboard-session.js';
import {createFleet, type Fleet} from '../../source/state/fleet-store.js';
import {Secret} from '../../source/wire/secret.js';

/**
 * The all-servers view (state/fleet-store.ts) over real sessions against two simulators, `work`
 * and `lab` (no ticking, fast sandbox transitions unless `a`/`b` say otherwise), polled as `poll`
 * says; the fleet, the sessions, then the simulators closed when the test ends.
 */
export async function twoServers(
	t: TestContext,
	a: SimulatorOptions,
	b: SimulatorOptions,
	poll: SessionOptions['poll'],
	target: Partial<SessionTarget> = {},
): Promise<{work: Simulator; lab: Simulator; sessions: Session[]; fleet: Fleet}> {
	const work = await startSimulator({port: 0, tickMs: 0, sandboxTransitionMs: 20, ...a});
	const lab = await startSimulator({port: 0, tickMs: 0, sandboxTransitionMs: 20, ...b});
	const open = (sim: Simulator, label: string) => openSession({baseUrl: sim.baseUrl, apiKey: new Secret(sim.apiKey), label, demo: false, ...target}, {poll}, () => undefined);
	const sessions = [open(work, 'work.test'), open(lab, 'lab.test')];
	const fleet = createFleet([
		{name: 'work', label: 'work.test', store: sessions[0]!.store, controller: sessions[0]!.controller},
		{name: 'lab', label: 'lab.test', store: sessions[1]!.store, controller: sessions[1]!.controller},
	]);
	t.after(async () => {
		await fleet.controller.close();
		await Promise.all(sessions.map((session) => session.close()));
		await Promise.all([work.close(), lab.close()]);
	});
	return {work, lab, sessions, fleet};
}

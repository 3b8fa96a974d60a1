import type {Simulator} from '../simulator/server.js';

/**
 * The embedded simulator a run opens when no server is configured (DEMO): one configuration for
 * the dashboard and every headless command, so what a newcomer sees in one is what the other
 * reads. Loaded only here: a configured run never pays for the simulator.
 */
export async function startDemoSimulator(): Promise<Simulator> {
	const {startSimulator} = await import('../simulator/server.js');
	// Live steps at the pace a person can follow; pausing a sandbox stops two agents, as real ones
	// share; the 2026 fleet's shapes and the triage cases (classified errors, a spender) are there.
	return startSimulator({port: 0, tickMs: 700, sharedSandboxes: true, fleetShapes: true, triageCases: true});
}

import type {TestContext} from 'node:test';
import {createDashboard} from '../../source/state/dashboard-store.js';
import {startSimulator, type Simulator, type SimulatorOptions} from '../../source/simulator/server.js';
import {AppClient} from '../../source/wire/app-client.js';
import {closeHttpAgent} from '../../source/wire/http.js';

/**
 * The real dashboard store against a simulator on port 0, polling fast with a roomy budget
 * (tests about the budget set their own), closed with the test.
 */
export async function dashboardOnSimulator(t: TestContext, simulatorOptions: SimulatorOptions): Promise<{sim: Simulator} & ReturnType<typeof createDashboard>> {
	const sim = await startSimulator({port: 0, ...simulatorOptions});
	const appClient = new AppClient({baseUrl: sim.baseUrl, apiKey: sim.apiKey, maxRetries: 0});
	const dashboard = createDashboard({
		appClient,
		appBaseUrl: sim.baseUrl,
		serverLabel: 'sim',
		demo: false,
		budget: {perSecond: 200, perMinute: 10_000},
		intervals: {refreshMs: 200, sandboxesMs: 300, sandboxesPendingMs: 100, searchMs: 60_000, retryBaseMs: 100, retryCapMs: 400},
		flushMs: 20,
	});
	t.after(async () => {
		await dashboard.controller.close();
		await sim.close();
		await closeHttpAgent();
	});
	return {sim, ...dashboard};
}

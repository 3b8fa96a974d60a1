import type {TestContext} from 'node:test';
import {createDashboard, type CreateDashboardOptions} from '../../source/state/dashboard-store.js';
import {startSimulator, type Simulator, type SimulatorOptions} from '../../source/simulator/server.js';
import {AppClient} from '../../source/wire/app-client.js';
import {closeHttpAgent} from '../../source/wire/http.js';

/** Fast polling and a roomy budget: what a test gets unless it is about them. */
export const fastPolling: Partial<CreateDashboardOptions> = {
	budget: {perSecond: 200, perMinute: 10_000},
	intervals: {refreshMs: 200, sandboxesMs: 300, sandboxesPendingMs: 100, searchMs: 60_000, retryBaseMs: 100, retryCapMs: 400},
	flushMs: 20,
};

export type DashboardOnSimulatorOptions = {
	/**
	 * Instead of `fastPolling`, for a test about the budget or the cadence: what it leaves out
	 * (the budget, say) takes the dashboard's own default.
	 */
	polling?: Partial<CreateDashboardOptions>;
	/** Any other dashboard options, applied last; a function when they need the simulator (its key as a secret). */
	dashboard?: Partial<CreateDashboardOptions> | ((sim: Simulator) => Partial<CreateDashboardOptions>);
	/** The key the app client sends (default: the simulator's). */
	apiKey?: string;
};

/**
 * The real dashboard store against a simulator on port 0, polling fast with a roomy budget
 * (tests about the budget set their own), closed with the test.
 */
export async function dashboardOnSimulator(
	t: TestContext,
	simulatorOptions: SimulatorOptions,
	options: DashboardOnSimulatorOptions = {},
): Promise<{sim: Simulator} & ReturnType<typeof createDashboard>> {
	const sim = await startSimulator({port: 0, ...simulatorOptions});
	const appClient = new AppClient({baseUrl: sim.baseUrl, apiKey: options.apiKey ?? sim.apiKey, maxRetries: 0});
	const dashboard = createDashboard({
		appClient,
		appBaseUrl: sim.baseUrl,
		serverLabel: 'sim',
		demo: false,
		...(options.polling ?? fastPolling),
		...(typeof options.dashboard === 'function' ? options.dashboard(sim) : options.dashboard),
	});
	t.after(async () => {
		await dashboard.controller.close();
		await sim.close();
		await closeHttpAgent();
	});
	return {sim, ...dashboard};
}

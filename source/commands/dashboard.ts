import type {ResolvedConfig} from '../config/resolve.js';
import {printError, type Io} from './io.js';

/**
 * Starts the interactive dashboard. It is loaded with a dynamic import so the headless commands
 * never load Ink and React (faster, and nothing draws on a pipe), and so a build without the
 * view still runs every headless command.
 */
export type DashboardLaunchOptions = {alerts: boolean; quietAfterMs?: number; repeatThreshold?: number};

export async function launchDashboard(config: ResolvedConfig, io: Io, options: DashboardLaunchOptions = {alerts: false}): Promise<number> {
	let view: typeof import('../view/app.js');
	try {
		view = await import('../view/app.js');
	} catch (error) {
		const {code, message} = error as NodeJS.ErrnoException;
		// Only the view itself missing means "not in this build"; anything else is a real failure.
		if (code === 'ERR_MODULE_NOT_FOUND' && /view[\\/]app\.(js|tsx?)/.test(message)) {
			io.stderr.write('agent-tui: the dashboard is not available in this build; the headless commands work (see agent-tui --help)\n');
			if (io.debug) printError(io, error);
			return 1;
		}
		throw error;
	}
	const {alerts, quietAfterMs, repeatThreshold} = options;
	const detection = {...(quietAfterMs === undefined ? {} : {quietAfterMs}), ...(repeatThreshold === undefined ? {} : {repeatThreshold})};
	if (config.kind === 'demo') return view.runDashboard({demo: true, apiKey: null, serverLabel: 'DEMO', alerts, ...detection});
	return view.runDashboard({demo: false, baseUrl: config.baseUrl, apiKey: config.apiKey, serverLabel: config.label, alerts, ...detection});
}

import {startSimulator} from './server.js';

export type SimulatorCommandOptions = {
	port?: number | undefined;
	seed?: number | undefined;
	conversations?: number | undefined;
	clockOffsetMs?: number | undefined;
	dataClockOffsetMs?: number | undefined;
	maxRunningSandboxes?: number | undefined;
	startingSandboxes?: number | undefined;
	/** The per-key window limit (`--rate-limit 20/min`). */
	rateLimit?: {limit: number; windowMs: number} | undefined;
};

/**
 * `agent-tui simulator`: the embedded simulator on its own, until SIGINT or SIGTERM, so another
 * process (the dashboard, curl, end-to-end tests) can talk to it. The key it prints is the demo
 * key of a local fake server, not a secret.
 */
export async function runSimulatorCommand(opts: SimulatorCommandOptions): Promise<void> {
	const {rateLimit, ...rest} = opts;
	const defined = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
	const simulator = await startSimulator({...defined, port: opts.port ?? 0, fleetShapes: true, triageCases: true});
	if (rateLimit) simulator.faults.requestsPerWindow(rateLimit);
	const out = process.stdout;
	out.write(`agent-tui simulator listening on ${simulator.baseUrl}\n`);
	out.write(`API key: ${simulator.apiKey}\n`);
	out.write(`OPENHANDS_BASE_URL=${simulator.baseUrl} OPENHANDS_API_KEY=${simulator.apiKey} agent-tui\n`);
	out.write('Steer it with POST /_sim/faults and POST /_sim/step?n=1. Press Ctrl-C to stop.\n');
	await new Promise<void>((resolve) => {
		const stop = () => {
			process.off('SIGINT', stop);
			process.off('SIGTERM', stop);
			resolve();
		};
		process.on('SIGINT', stop);
		process.on('SIGTERM', stop);
	});
	await simulator.close();
	out.write('agent-tui simulator stopped\n');
}

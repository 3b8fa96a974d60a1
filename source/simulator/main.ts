import {startSimulator} from './server.js';

export type SimulatorCommandOptions = {
	port?: number | undefined;
	seed?: number | undefined;
	conversations?: number | undefined;
	clockOffsetMs?: number | undefined;
	dataClockOffsetMs?: number | undefined;
	maxRunningSandboxes?: number | undefined;
	startingSandboxes?: number | undefined;
	historyDays?: number | undefined;
	/** The per-key window limit (`--rate-limit 20/min`). */
	rateLimit?: {limit: number; windowMs: number} | undefined;
};

/** Calls back with the exit code (130, 143) when the process is told to stop; returns the unsubscribe (commands/signals.ts). */
export type OnStopSignal = (handler: (code: number) => void) => () => void;

/**
 * `agent-tui simulator`: the embedded simulator on its own, until SIGINT or SIGTERM, so another
 * process (the dashboard, curl, end-to-end tests) can talk to it. The key it prints is the demo
 * key of a local fake server, not a secret.
 */
export async function runSimulatorCommand(opts: SimulatorCommandOptions, onStopSignal: OnStopSignal): Promise<number> {
	const {rateLimit, ...rest} = opts;
	const defined = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
	const simulator = await startSimulator({...defined, port: opts.port ?? 0, fleetShapes: true, triageCases: true});
	if (rateLimit) simulator.faults.requestsPerWindow(rateLimit);
	const out = process.stdout;
	out.write(`agent-tui simulator listening on ${simulator.baseUrl}\n`);
	out.write(`API key: ${simulator.apiKey}\n`);
	out.write(`OPENHANDS_BASE_URL=${simulator.baseUrl} OPENHANDS_API_KEY=${simulator.apiKey} agent-tui\n`);
	out.write('Steer it with POST /_sim/faults and POST /_sim/step?n=1. Press Ctrl-C to stop.\n');
	// Stopped by a signal: 130 for ctrl-c, 143 for SIGTERM, as every command.
	const code = await new Promise<number>((resolve) => {
		const off = onStopSignal((signalCode) => {
			off();
			resolve(signalCode);
		});
	});
	await simulator.close();
	out.write('agent-tui simulator stopped\n');
	return code;
}

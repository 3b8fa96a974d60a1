import {createServer, type Server} from 'node:http';
import type {AddressInfo} from 'node:net';
import {registerAgentRoutes} from './agent-routes.js';
import {registerGitRoutes} from './git-routes.js';
import {registerAppEventRoutes} from './app-event-routes.js';
import {registerAppRoutes} from './app-routes.js';
import {registerAppProxyRoutes} from './app-proxy-routes.js';
import {SocketHub} from './event-socket.js';
import type {FaultSwitches} from './fault-switches.js';
import {FaultState} from './faults.js';
import {createRequestHandler} from './http-handler.js';
import {createRequestStats, type RequestStats} from './request-stats.js';
import {Router} from './router.js';
import {registerSandboxRoutes} from './sandbox-routes.js';
import {registerStartRoutes} from './start-routes.js';
import {registerV0Routes} from './v0-routes.js';
import {outageAfterMs, providerOutage} from './seed-fleet.js';
import {World} from './world.js';

export type {FaultSwitches} from './fault-switches.js';
export type {World} from './world.js';

export type SimulatorOptions = {
	/** Default 0 (any free port). */
	port?: number;
	/** Default '127.0.0.1'. */
	host?: string;
	/** Default 1; the same seed gives the same conversations, titles, scripts, event contents and order. */
	seed?: number;
	/** Seeded conversations at start (default 24). Histories are built on first use, so 10,000 start fast. */
	conversations?: number;
	/** Default 'demo-key'. */
	apiKey?: string;
	/** Interval between scripted agent steps in live mode (default 700); 0 = no ticking (tests call step()). */
	tickMs?: number;
	/**
	 * Default 12; starting or resuming past it pauses the oldest other RUNNING sandboxes (STARTING
	 * ones are not counted), as the service's pause_old_sandboxes does.
	 */
	maxRunningSandboxes?: number;
	/**
	 * Seeded sandboxes that stay STARTING, as a pod that is never scheduled does (default 0). They
	 * are older than the running ones, each with one conversation, and are not counted by the cap.
	 */
	startingSandboxes?: number;
	/** The live `stuck` conversation is seeded mid-loop: running, re-sending the same call (world.ts). */
	loopingStuck?: boolean;
	/** A month of history: ended conversations over this many days (seed-history.ts); default 0. */
	historyDays?: number;
	/** Delay between start-task phases (default 400). */
	startTaskPhaseMs?: number;
	/** Delay of each asynchronous sandbox status change (pause, resume, start), default 300. */
	sandboxTransitionMs?: number;
	/** How long an `ask_agent` answer takes (default 250 ms, a model call). */
	askDelayMs?: number;
	/** The server's clock minus the real one, ms (default 0); see `parseClockOffset` for `-21d`. */
	clockOffsetMs?: number;
	/**
	 * The clock that writes the data minus the real one, ms, when it differs from the `Date`
	 * header's (`clockOffsetMs`): `-24 * 86_400_000 - 31_000` writes every timestamp 24 days and
	 * 31 s behind while the header is right. Default: the same as `clockOffsetMs`.
	 */
	dataClockOffsetMs?: number;
	/**
	 * Put the live `quiet` and `legacy` conversations into the sandboxes of the live `coding` and
	 * `long-runner` ones, so pausing a sandbox stops two agents (default off: tests count on one
	 * conversation per seeded sandbox; the demo turns it on).
	 */
	sharedSandboxes?: boolean;
	/**
	 * The 2026 fleet's shapes (seed-fleet.ts): sub-agents (one waiting for approval), sandboxes
	 * down with a reason, UNKNOWN, grouped and hosted workspace layouts, and in live mode a provider
	 * outage after `outageAfterMs`. The demo and `agent-tui simulator` turn it on; default off.
	 */
	fleetShapes?: boolean;
	/**
	 * Also seed, live, what a fleet's triage groups by cause: two retryable rate-limit errors, an
	 * exhausted budget (quota), a refused LLM key (auth) and a spender without progress, each in a
	 * live conversation's sandbox (default off: tests count the seeded population; the demo and
	 * `agent-tui simulator` turn it on).
	 */
	triageCases?: boolean;
};

export type Simulator = {
	/** App server base URL; the V1 API is under `/api/v1`. */
	baseUrl: string;
	/** Same as baseUrl (kept for callers that read `url`). */
	url: string;
	apiKey: string;
	faults: FaultSwitches;
	world: World;
	step(n?: number): void;
	stats: RequestStats;
	/** Event sockets open right now (tests check that a client closed its own). */
	openSockets(): number;
	/** Pings received while the sockets were silent (`faults.silentSockets`), left unanswered. */
	unansweredPings(): number;
	restart(): Promise<void>;
	close(): Promise<void>;
};

function listen(server: Server, port: number, host: string): Promise<number> {
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, host, () => {
			server.off('error', reject);
			resolve((server.address() as AddressInfo).port);
		});
	});
}

function shutDown(server: Server): Promise<void> {
	return new Promise((resolve) => {
		server.close(() => resolve());
		server.closeAllConnections();
	});
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
	const host = options.host ?? '127.0.0.1';
	const apiKey = options.apiKey ?? 'demo-key';
	const tickMs = options.tickMs ?? 700;
	const world = new World({
		seed: options.seed ?? 1,
		conversations: options.conversations ?? 24,
		maxRunningSandboxes: Math.max(1, options.maxRunningSandboxes ?? 12),
		startTaskPhaseMs: options.startTaskPhaseMs ?? 400,
		sandboxTransitionMs: options.sandboxTransitionMs ?? 300,
		clockOffsetMs: options.clockOffsetMs ?? 0,
		...(options.dataClockOffsetMs === undefined ? {} : {dataClockOffsetMs: options.dataClockOffsetMs}),
		sharedSandboxes: options.sharedSandboxes ?? false,
		startingSandboxes: options.startingSandboxes ?? 0,
		loopingStuck: options.loopingStuck ?? false,
		...(options.historyDays ? {historyDays: options.historyDays} : {}),
		fleetShapes: options.fleetShapes ?? false,
		triageCases: options.triageCases ?? false,
	});
	const faults = new FaultState(world);
	const stats = createRequestStats();
	const router = new Router();
	registerStartRoutes(router);
	registerAppRoutes(router);
	registerAppProxyRoutes(router);
	registerAppEventRoutes(router);
	registerSandboxRoutes(router);
	registerV0Routes(router);
	registerAgentRoutes(router, Date.now());
	registerGitRoutes(router);
	const hub = new SocketHub(world, faults, (key) => stats.count(key));
	const handler = createRequestHandler({world, faults, router, apiKey, track: (key, response, path) => stats.track(key, response, path)});
	const makeServer = () => {
		const server = createServer(handler);
		server.on('upgrade', (request, socket, head) => hub.handleUpgrade(request, socket, head));
		return server;
	};

	let server = makeServer();
	const port = await listen(server, options.port ?? 0, host);
	const baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
	world.baseUrl = baseUrl;
	if (options.askDelayMs !== undefined) world.askDelayMs = Math.max(0, options.askDelayMs);
	if (tickMs > 0) world.timers.every(tickMs, () => world.tick());
	if (tickMs > 0 && options.fleetShapes) world.timers.after(outageAfterMs, () => providerOutage(world));
	let closed = false;

	return {
		baseUrl,
		url: baseUrl,
		apiKey,
		faults: faults.switches,
		world,
		stats,
		step: (n = 1) => world.step(n),
		openSockets: () => hub.openSockets,
		unansweredPings: () => hub.unansweredPings,
		async restart() {
			if (closed) throw new Error('simulator is closed');
			hub.terminateAll();
			await shutDown(server);
			server = makeServer();
			await listen(server, port, host);
		},
		async close() {
			if (closed) return;
			closed = true;
			world.close();
			hub.terminateAll();
			await shutDown(server);
		},
	};
}

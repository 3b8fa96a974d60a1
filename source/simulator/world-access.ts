import type {EventDraft, SimEvent} from './event-factory.js';
import type {Rng} from './rng.js';
import type {AgentState, SimConversation, SimSandbox, SimSpec, Usage} from './world-types.js';

export type WorldOptions = {
	seed: number;
	conversations: number;
	maxRunningSandboxes: number;
	startTaskPhaseMs: number;
	sandboxTransitionMs: number;
	/** The server's clock minus the real one (ms): `-21 * 86_400_000` runs it three weeks behind. */
	clockOffsetMs?: number;
	/**
	 * The clock that writes the data (every timestamp in answers and events) minus the real one,
	 * when it is not the one the `Date` header shows (`clockOffsetMs`): a proxy in front of the
	 * server stamps the header right while the data's clock is weeks behind. Default: the same.
	 */
	dataClockOffsetMs?: number;
	/** Seed some running sandboxes with two conversations each (the demo), as the service allows. */
	sharedSandboxes?: boolean;
	/** Seeded sandboxes that stay STARTING (after the running ones, older than them); default 0. */
	startingSandboxes?: number;
	/** Days of ended conversations seeded before now (seed-history.ts); default none. */
	historyDays?: number;
	/**
	 * The live `stuck` conversation is seeded mid-loop (its script's checkpoint): still running, its
	 * newest calls the same call three times over, before the SDK's stuck detector ends the run.
	 */
	loopingStuck?: boolean;
	/**
	 * The 2026 fleet's shapes (the demo and `agent-tui simulator`): sub-agents under a live
	 * conversation (one waiting for approval), sandboxes down with a reason (STARTING on
	 * `insufficient kvm`, UNKNOWN), a grouped and a hosted workspace layout, and in live mode a
	 * provider outage that turns a running sandbox UNKNOWN. Off by default: tests count rows.
	 */
	fleetShapes?: boolean;
	/** Seed the live cases a fleet's triage groups by cause (seed-world.ts triageCases). */
	triageCases?: boolean;
};

/**
 * What the agent runtime, the seeds and the usage model (agent-runtime.ts, seed-world.ts,
 * seed-fleet.ts, usage.ts) use of the World. The World (world.ts) calls them and implements
 * this, so they take it as a parameter without importing world.ts: no file imports in a circle.
 */
export type WorldAccess = {
	readonly options: WorldOptions;
	readonly rng: Rng;
	/** Ids and keys of things created while running. */
	readonly ids: Rng;
	readonly epoch: number;
	readonly userId: string;
	readonly specs: SimSpec[];
	/** The hostile-text fault. */
	readonly hostile: boolean;
	/** Now by the clock that writes the data. */
	now(): number;
	/** The conversation's agent, building its history on first use. */
	agent(conversation: SimConversation): AgentState;
	/** The conversation's LLM usage, without building its history. */
	usage(conversation: SimConversation): Usage;
	conversationList(): readonly SimConversation[];
	findConversation(id: string): SimConversation | undefined;
	sandboxList(): readonly SimSandbox[];
	findSpec(id: string): SimSpec | undefined;
	addConversation(conversation: SimConversation): SimConversation;
	findSandbox(id: string): SimSandbox | undefined;
	addSandbox(init: SandboxInit): SimSandbox;
	setSandboxStatus(sandbox: SimSandbox, status: string, detail?: string | null): void;
	publish(conversation: SimConversation, event: SimEvent): void;
	publishTransient(conversation: SimConversation, draft: EventDraft): SimEvent;
};

export type SandboxInit = {specId: string; status: SimSandbox['status']; createdAt: number; statusDetail?: string | null; workingDir?: string | null; grouped?: boolean};

import {normalizeId} from '../wire/ids.js';
import {append, buildAgent, isActive, sendUserMessage, stepConversation} from './agent-runtime.js';
import {omitNulls, type EventDraft, type EventSource, type SimEvent} from './event-factory.js';
import type {WorkspaceFile} from './git-workspace.js';
import {Rng} from './rng.js';
import {seedWorld} from './seed-world.js';
import {Timers} from './timers.js';
import {computeUsage} from './usage.js';
import type {AgentState, EventListener, SimConversation, SimSandbox, SimSpec, SimStartTask, Usage} from './world-types.js';

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

/** Defaults for kinds whose source the seed fixes (the published event schemas; SDK openhands-sdk/openhands/sdk/event/). */
const defaultSources: Record<string, EventSource> = {
	ActionEvent: 'agent',
	AgentErrorEvent: 'agent',
	SystemPromptEvent: 'agent',
	PauseEvent: 'user',
};

const demoNudges = [
	'Can you also add a short entry to CHANGELOG.md for this?',
	'Please double-check the edge case with an empty input as well.',
	'Looks good. Can you run the linter before we wrap up?',
];

/**
 * The simulator's whole state, in memory: conversations (newest first, as search returns them),
 * sandboxes, specs, start tasks and each conversation's event log. Routes, sockets and tests all
 * read and change it through these methods. Lookups are by map so 10,000 conversations stay cheap.
 */
export class World {
	readonly rng: Rng;
	/** Ids and keys of things created while running (so the same calls give the same ids). */
	readonly ids: Rng;
	private readonly tickRng: Rng;
	readonly timers = new Timers();
	readonly epoch: number;
	readonly userId: string;
	baseUrl = '';
	/** Files written by writeFile, per conversation id. */
	readonly #written = new Map<string, WorkspaceFile[]>();
	/** The hostile-text fault: agent text and rows carry escape sequences and unknown values. */
	hostile = false;
	/** How long an `ask_agent` answer takes (a model call); tests set 0 or hold it longer. */
	askDelayMs = 250;
	/** `ask_agent` questions answered so far (none of them leaves a trace in the conversation). */
	askCount = 0;
	/**
	 * An older agent server: no `/interrupt` route (0 = the route exists; 404 or 405 = how the
	 * server answers it), so a client's fallback to `/pause` can be exercised.
	 */
	interruptMissing: 0 | 404 | 405 = 0;
	/** An agent server without the trajectory download (404), so exports fall back to events. */
	noTrajectory = false;
	/** Agent servers answer the newer query form of the git routes; off, only the older path form (a fault switch). */
	gitQueryRoutes = true;
	/** The app server proxies the git routes (`/app-conversations/{id}/git/…`); off, an older app server without them. */
	appGitRoutes = true;
	/** The app server has `/app-conversations/{id}/download`; off, an older one without it. */
	appDownload = true;
	/** A V1 app server older than `POST /app-conversations/stream-start` (a fault switch). */
	noStreamStart = false;
	/**
	 * The app server's copy of the events lags (its webhook is behind): while set, that copy holds
	 * only as many events of each conversation as it had when the lag began (a fault switch).
	 */
	storedCopyHeld: Map<string, number> | null = null;
	readonly specs: SimSpec[] = [];
	private readonly conversations: SimConversation[] = [];
	private readonly conversationIndex = new Map<string, SimConversation>();
	/** Parent id -> its sub-conversations' ids, in creation order. */
	private readonly children = new Map<string, string[]>();
	private readonly sandboxes: SimSandbox[] = [];
	private readonly sandboxIndex = new Map<string, SimSandbox>();
	private readonly sandboxNumbers = new Map<number, SimSandbox>();
	private nextSandboxNumber = 50_001;
	private readonly tasks: SimStartTask[] = [];
	private readonly taskIndex = new Map<string, SimStartTask>();
	private readonly listeners = new Map<string, Set<EventListener>>();
	private ticks = 0;
	/** Set by the socket layer: a sandbox stopped serving, close its sockets. */
	runtimeStopped: (sandbox: SimSandbox) => void = () => {};
	/** Set by the socket layer: a conversation is gone, close its sockets. */
	conversationRemoved: (conversation: SimConversation) => void = () => {};

	constructor(readonly options: WorldOptions) {
		this.rng = new Rng(options.seed);
		this.ids = this.rng.fork('ids');
		this.tickRng = this.rng.fork('ticks');
		this.userId = this.rng.fork('user').uuid();
		this.epoch = this.now();
		seedWorld(this);
	}

	/** Now by the clock that writes the data: ours plus its skew. Every timestamp it sends uses it. */
	now(): number {
		return Date.now() + (this.options.dataClockOffsetMs ?? this.options.clockOffsetMs ?? 0);
	}

	/** Now by the clock the `Date` header shows (`clockOffsetMs`): the data's clock unless told otherwise. */
	headerNow(): number {
		return Date.now() + (this.options.clockOffsetMs ?? 0);
	}

	// Conversations

	conversationList(): readonly SimConversation[] {
		return this.conversations;
	}

	/** Either id spelling (32 hex or dashed, any case). */
	findConversation(id: string): SimConversation | undefined {
		return this.conversationIndex.get(normalizeId(id));
	}

	addConversation(conversation: SimConversation): SimConversation {
		// Newest first (created_at desc, as search returns them). Seeding adds in that order and
		// creation happens at "now": the ends. A seeded sub-conversation, newer than its parent, goes between.
		const list = this.conversations;
		if (list.length === 0 || conversation.createdAt >= list[0]!.createdAt) list.unshift(conversation);
		else if (conversation.createdAt <= list.at(-1)!.createdAt) list.push(conversation);
		else list.splice(list.findIndex((row) => row.createdAt < conversation.createdAt), 0, conversation);
		this.conversationIndex.set(conversation.id, conversation);
		this.findSandbox(conversation.sandboxId)?.conversationIds.push(conversation.id);
		if (conversation.parentId) {
			const siblings = this.children.get(conversation.parentId);
			if (siblings) siblings.push(conversation.id);
			else this.children.set(conversation.parentId, [conversation.id]);
		}
		return conversation;
	}

	/** The ids of a conversation's sub-conversations (`sub_conversation_ids`). */
	childrenOf(conversation: SimConversation): readonly string[] {
		return this.children.get(conversation.id) ?? [];
	}

	/** Whether any conversation has a parent: without, the search needs no filtering (10,000 rows stay cheap). */
	hasSubConversations(): boolean {
		return this.children.size > 0;
	}

	/**
	 * Where a conversation's repository is in its sandbox, as the service lays it out: the
	 * sandbox's `working_dir` (hosted) or its spec's, then `/{conversation hex}` when the sandbox
	 * groups conversations, then the repository's name (app_server `get_project_dir`,
	 * `grouped_workspace_dir`). Without a repository, the workspace itself (not a git repository).
	 */
	/**
	 * A file written in a conversation's repository outside its agent's calls (a build's output,
	 * a person's edit): its git changes list shows it from now on, as an added file.
	 */
	writeFile(conversation: SimConversation, path: string, text: string): void {
		const written = this.#written.get(conversation.id) ?? [];
		this.#written.set(conversation.id, [...written.filter((file) => file.path !== path), {status: 'ADDED', path, original: null, modified: text}]);
	}

	/** The files written by writeFile in a conversation's repository. */
	writtenFiles(conversationId: string): readonly WorkspaceFile[] {
		return this.#written.get(conversationId) ?? [];
	}

	repoDirOf(conversation: SimConversation): string {
		const sandbox = this.findSandbox(conversation.sandboxId);
		const base = (sandbox?.workingDir ?? (sandbox ? this.findSpec(sandbox.specId)?.workingDir : undefined) ?? '/workspace/project').replace(/\/+$/, '');
		const dir = sandbox?.grouped ? `${base}/${conversation.id}` : base;
		const name = conversation.repository?.split('/').filter(Boolean).at(-1);
		return name ? `${dir}/${name}` : dir;
	}

	removeConversation(conversation: SimConversation): void {
		const at = this.conversations.indexOf(conversation);
		if (at >= 0) this.conversations.splice(at, 1);
		this.conversationIndex.delete(conversation.id);
		const sandbox = this.findSandbox(conversation.sandboxId);
		if (sandbox) sandbox.conversationIds = sandbox.conversationIds.filter((id) => id !== conversation.id);
		if (conversation.parentId) {
			const siblings = (this.children.get(conversation.parentId) ?? []).filter((id) => id !== conversation.id);
			if (siblings.length > 0) this.children.set(conversation.parentId, siblings);
			else this.children.delete(conversation.parentId);
		}
		this.conversationRemoved(conversation);
		this.listeners.delete(conversation.id);
	}

	/** The conversation's agent, building its history on first use. */
	agent(conversation: SimConversation): AgentState {
		return conversation.agent ?? buildAgent(this, conversation);
	}

	/** The conversation's LLM usage (cost, tokens), without building its history. */
	usage(conversation: SimConversation): Usage {
		conversation.usage ??= computeUsage(this, conversation, (probe) => buildAgent(this, probe, true).priorCalls);
		return conversation.usage;
	}

	events(conversationOrId: SimConversation | string): readonly SimEvent[] {
		const conversation = this.resolve(conversationOrId);
		return this.agent(conversation).log.events;
	}

	/** The app server's copy of a conversation's events: all of them, unless the stored-copy lag fault holds it back. */
	storedEvents(conversationOrId: SimConversation | string): readonly SimEvent[] {
		const conversation = this.resolve(conversationOrId);
		const events = this.events(conversation);
		const held = this.storedCopyHeld?.get(conversation.id);
		return held === undefined ? events : events.slice(0, held);
	}

	/** Appends an event as if the agent server produced it (tests use this to inject anything). */
	appendEvent(conversationOrId: SimConversation | string, draft: Partial<EventDraft> & {kind: string}): SimEvent {
		const conversation = this.resolve(conversationOrId);
		const agent = this.agent(conversation);
		const full: EventDraft = {
			...draft,
			kind: draft.kind,
			id: draft.id ?? agent.factory.id(),
			source: draft.source ?? defaultSources[draft.kind] ?? 'environment',
		};
		return append(this, conversation, full);
	}

	/** A user message through the agent server, as a test would send it. */
	sendMessage(conversationOrId: SimConversation | string, text: string, run = true): SimEvent {
		return sendUserMessage(this, this.resolve(conversationOrId), text, run);
	}

	private resolve(conversationOrId: SimConversation | string): SimConversation {
		if (typeof conversationOrId !== 'string') return conversationOrId;
		const conversation = this.findConversation(conversationOrId);
		if (!conversation) throw new Error(`unknown conversation ${conversationOrId}`);
		return conversation;
	}

	// Sandboxes and specs

	sandboxList(): readonly SimSandbox[] {
		return this.sandboxes;
	}

	findSandbox(id: string): SimSandbox | undefined {
		return this.sandboxIndex.get(id);
	}

	sandboxByNumber(number: number): SimSandbox | undefined {
		return this.sandboxNumbers.get(number);
	}

	addSandbox(init: {specId: string; status: SimSandbox['status']; createdAt: number; statusDetail?: string | null; workingDir?: string | null; grouped?: boolean}): SimSandbox {
		const sandbox: SimSandbox = {
			id: `sb-${this.ids.hex(12)}`,
			number: this.nextSandboxNumber++,
			specId: init.specId,
			status: init.status,
			statusDetail: init.statusDetail ?? null,
			workingDir: init.workingDir ?? null,
			grouped: init.grouped ?? false,
			sessionApiKey: `sk-oh-${this.ids.token(32)}`,
			createdByUserId: this.userId,
			createdAt: init.createdAt,
			conversationIds: [],
		};
		// Newest first, like the conversations (a seeded one may go between).
		const list = this.sandboxes;
		if (list.length === 0 || sandbox.createdAt >= list[0]!.createdAt) list.unshift(sandbox);
		else if (sandbox.createdAt <= list.at(-1)!.createdAt) list.push(sandbox);
		else list.splice(list.findIndex((row) => row.createdAt < sandbox.createdAt), 0, sandbox);
		this.sandboxIndex.set(sandbox.id, sandbox);
		this.sandboxNumbers.set(sandbox.number, sandbox);
		return sandbox;
	}

	/**
	 * What the runtime provider now reports for a sandbox (tests, `POST /_sim/sandbox`, the live
	 * outage): any status word, with its `status_detail`. A sandbox that stops running stops
	 * serving its agent server and sockets at once.
	 */
	setSandboxStatus(sandbox: SimSandbox, status: string, detail: string | null = null): void {
		this.timers.cancel(sandbox.transition);
		sandbox.transition = undefined;
		const wasRunning = sandbox.status === 'RUNNING';
		sandbox.status = status;
		sandbox.statusDetail = detail;
		if (wasRunning && status !== 'RUNNING') this.runtimeStopped(sandbox);
	}

	findSpec(id: string): SimSpec | undefined {
		return this.specs.find((spec) => spec.id === id);
	}

	// Start tasks

	startTaskList(): readonly SimStartTask[] {
		return this.tasks;
	}

	findStartTask(id: string): SimStartTask | undefined {
		return this.taskIndex.get(normalizeId(id));
	}

	addStartTask(task: SimStartTask): void {
		this.tasks.unshift(task);
		this.taskIndex.set(task.id, task);
	}

	// Live events

	subscribe(conversationId: string, listener: EventListener): () => void {
		const key = normalizeId(conversationId);
		let set = this.listeners.get(key);
		if (!set) {
			set = new Set();
			this.listeners.set(key, set);
		}
		set.add(listener);
		return () => {
			set.delete(listener);
		};
	}

	publish(conversation: SimConversation, event: SimEvent): void {
		const set = this.listeners.get(conversation.id);
		if (!set) return;
		for (const listener of [...set]) listener(event);
	}

	/** Sent to subscribers but never stored (like `full_state`, which the real server does not persist). */
	publishTransient(conversation: SimConversation, draft: EventDraft): SimEvent {
		const {kind, id, source, ...rest} = draft;
		const event = omitNulls({kind, id, timestamp: this.agent(conversation).log.stamp(), source, ...rest}) as SimEvent;
		this.publish(conversation, event);
		return event;
	}

	// Agents

	/** Conversations in RUNNING sandboxes, in a stable order (the only ones that can move). */
	liveConversations(): SimConversation[] {
		const out: SimConversation[] = [];
		for (const sandbox of this.sandboxes) {
			if (sandbox.status !== 'RUNNING') continue;
			for (const id of sandbox.conversationIds) {
				const conversation = this.conversationIndex.get(id);
				if (conversation) out.push(conversation);
			}
		}
		return out;
	}

	/** Advances every active agent n steps, synchronously and deterministically. */
	step(n = 1): void {
		for (let round = 0; round < n; round++) {
			for (const conversation of this.liveConversations()) stepConversation(this, conversation);
		}
	}

	/**
	 * Live mode: a couple of agents move per tick (long-runners always), so the demo looks busy
	 * but readable; now and then a finished one gets a follow-up message so it never goes still.
	 */
	tick(): void {
		this.ticks++;
		const active = this.liveConversations().filter((conversation) => isActive(this, conversation));
		// Long-runners always move; the spender calls its model every eighth tick (about $30 an hour
		// at the demo's pace); quiet ones never move.
		const chosen = new Set(active.filter((conversation) => conversation.scenario === 'long-runner' || (conversation.scenario === 'spender' && this.ticks % 8 === 0)));
		const others = active.filter((conversation) => !['long-runner', 'spender', 'quiet'].includes(conversation.scenario));
		for (let pick = 0; pick < Math.min(2, others.length); pick++) chosen.add(this.tickRng.pick(others));
		for (const conversation of chosen) stepConversation(this, conversation);
		if (this.ticks % 45 === 0 && others.length < 2) {
			const idle = this.liveConversations().filter((conversation) => ['finished', 'idle'].includes(conversation.executionStatus));
			if (idle.length > 0) sendUserMessage(this, this.tickRng.pick(idle), this.tickRng.pick(demoNudges), true);
		}
	}

	close(): void {
		this.timers.stopAll();
	}
}

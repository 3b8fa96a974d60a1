import {normalizeId} from '../wire/ids.js';
import {append, buildAgent, isActive, sendUserMessage, stepConversation} from './agent-runtime.js';
import {omitNulls, type EventDraft, type EventSource, type SimEvent} from './event-factory.js';
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
	/** Seed some running sandboxes with two conversations each (the demo), as the service allows. */
	sharedSandboxes?: boolean;
	/** Seeded sandboxes that stay STARTING (after the running ones, older than them); default 0. */
	startingSandboxes?: number;
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
	/** The hostile-text fault: agent text and rows carry escape sequences and unknown values. */
	hostile = false;
	/**
	 * An older agent server: no `/interrupt` route (0 = the route exists; 404 or 405 = how the
	 * server answers it), so a client's fallback to `/pause` can be exercised.
	 */
	interruptMissing: 0 | 404 | 405 = 0;
	/** An agent server without the trajectory download (404), so exports fall back to events. */
	noTrajectory = false;
	/** Agent servers answer the newer query form of the git routes; off, only the older path form (a fault switch). */
	gitQueryRoutes = true;
	/**
	 * The app server's copy of the events lags (its webhook is behind): while set, that copy holds
	 * only as many events of each conversation as it had when the lag began (a fault switch).
	 */
	storedCopyHeld: Map<string, number> | null = null;
	readonly specs: SimSpec[] = [];
	private readonly conversations: SimConversation[] = [];
	private readonly conversationIndex = new Map<string, SimConversation>();
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

	/** Now by this server's clock: ours plus the configured skew. Every timestamp it sends uses it. */
	now(): number {
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
		// Newest first; only creation at "now" happens after seeding, so the order stays created_at desc.
		if (this.conversations.length > 0 && conversation.createdAt >= this.conversations[0]!.createdAt) this.conversations.unshift(conversation);
		else this.conversations.push(conversation);
		this.conversationIndex.set(conversation.id, conversation);
		this.findSandbox(conversation.sandboxId)?.conversationIds.push(conversation.id);
		return conversation;
	}

	removeConversation(conversation: SimConversation): void {
		const at = this.conversations.indexOf(conversation);
		if (at >= 0) this.conversations.splice(at, 1);
		this.conversationIndex.delete(conversation.id);
		const sandbox = this.findSandbox(conversation.sandboxId);
		if (sandbox) sandbox.conversationIds = sandbox.conversationIds.filter((id) => id !== conversation.id);
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

	addSandbox(init: {specId: string; status: SimSandbox['status']; createdAt: number}): SimSandbox {
		const sandbox: SimSandbox = {
			id: `sb-${this.ids.hex(12)}`,
			number: this.nextSandboxNumber++,
			specId: init.specId,
			status: init.status,
			sessionApiKey: `sk-oh-${this.ids.token(32)}`,
			createdByUserId: this.userId,
			createdAt: init.createdAt,
			conversationIds: [],
		};
		if (this.sandboxes.length > 0 && sandbox.createdAt >= this.sandboxes[0]!.createdAt) this.sandboxes.unshift(sandbox);
		else this.sandboxes.push(sandbox);
		this.sandboxIndex.set(sandbox.id, sandbox);
		this.sandboxNumbers.set(sandbox.number, sandbox);
		return sandbox;
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
		const chosen = new Set(active.filter((conversation) => conversation.scenario === 'long-runner'));
		const others = active.filter((conversation) => conversation.scenario !== 'long-runner' && conversation.scenario !== 'quiet');
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

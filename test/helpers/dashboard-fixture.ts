import {computeAttention, subAgentReason} from '../../source/state/attention.js';
import type {
	ConnectionState,
	ConversationRow,
	DashboardController,
	DashboardSnapshot,
	DashboardStore,
	SandboxRow,
} from '../../source/state/dashboard-types.js';
import {appConversationSchema, sandboxSchema, sandboxSpecSchema} from '../../source/wire/schemas/app.js';
import {hexId} from './fixtures.js';

/**
 * Snapshots for view tests: conversations and sandboxes in the wire's own JSON shape, parsed by
 * the real schemas, with attention computed by the real state code. The store is a plain
 * subscribe/getSnapshot pair; the controller records what the view asked for.
 */

/** The fixture's clock is the real one: ages on screen stay short whatever day the tests run. */
export const fixtureNow = Date.now();

const minutesAgo = (minutes: number) => new Date(fixtureNow - minutes * 60_000).toISOString();

export type ConversationSeed = {
	id: string;
	title: string;
	repo?: string;
	execution?: string | null;
	sandbox?: string;
	sandboxId?: string;
	createdMinutesAgo?: number;
	updatedMinutesAgo?: number;
	cost?: number;
	unseen?: number;
	/** The agent's last status seen before its sandbox stopped (the row then shows it as last known). */
	lastKnown?: string;
	/** A sub-conversation's parent (its key). */
	parent?: string;
	/** Its sandbox's `status_detail`. */
	sandboxDetail?: string;
};

export {hexId};

export function conversationRow(seed: ConversationSeed): ConversationRow {
	const conversation = appConversationSchema.parse({
		id: seed.id,
		title: seed.title,
		selected_repository: seed.repo ?? null,
		sandbox_id: seed.sandboxId ?? `sb-${seed.id.slice(-4)}`,
		sandbox_status: seed.sandbox ?? 'RUNNING',
		execution_status: seed.execution === undefined ? 'running' : seed.execution,
		created_at: minutesAgo(seed.createdMinutesAgo ?? 60),
		updated_at: minutesAgo(seed.updatedMinutesAgo ?? 1),
		metrics: seed.cost === undefined ? null : {accumulated_cost: seed.cost},
		parent_conversation_id: seed.parent ?? null,
	});
	const lastActivityAt = fixtureNow - (seed.updatedMinutesAgo ?? 1) * 60_000;
	const live = conversation.execution_status ? String(conversation.execution_status) : null;
	const agentStatus = live ?? seed.lastKnown ?? null;
	const agentStatusLastKnown = live === null && agentStatus !== null;
	const sandboxDetail = seed.sandboxDetail ?? null;
	return {
		key: seed.id,
		conversation,
		agentStatus,
		agentStatusLastKnown,
		attention: computeAttention({conversation, now: fixtureNow, lastActivityAt, executionStatus: agentStatus, executionStatusLastKnown: agentStatusLastKnown, sandboxDetail}),
		lastActivityAt,
		unseenEvents: seed.unseen ?? 0,
		...(sandboxDetail === null ? {} : {sandboxDetail}),
	};
}

/** Rows keyed by id, parents raised by their sub-agents as the store does it (children first, depth by depth). */
export function conversationRows(seeds: ConversationSeed[]): Map<string, ConversationRow> {
	const rows = new Map(seeds.map((seed) => [seed.id, conversationRow(seed)]));
	// Maps, not scans: 100,000 seeds (bench/frame-cost.ts) with a scan per seed took minutes.
	const byId = new Map(seeds.map((seed) => [seed.id, seed]));
	const childrenOf = new Map<string, ConversationSeed[]>();
	for (const seed of seeds) if (seed.parent) childrenOf.set(seed.parent, [...(childrenOf.get(seed.parent) ?? []), seed]);
	const depth = (seed: ConversationSeed, seen = new Set<string>()): number => {
		if (!seed.parent || seen.has(seed.id)) return 0;
		seen.add(seed.id);
		const parent = byId.get(seed.parent);
		return parent ? 1 + depth(parent, seen) : 0;
	};
	const parents = seeds.filter((seed) => childrenOf.has(seed.id)).sort((a, b) => depth(b) - depth(a));
	for (const parent of parents) {
		const row = rows.get(parent.id)!;
		const children = childrenOf.get(parent.id)!.map((seed) => rows.get(seed.id)!);
		const subAgent = subAgentReason(children);
		if (!subAgent) continue;
		const live = row.conversation.execution_status ? String(row.conversation.execution_status) : null;
		rows.set(parent.id, {
			...row,
			attention: computeAttention({conversation: row.conversation, now: fixtureNow, lastActivityAt: row.lastActivityAt, executionStatus: row.agentStatus, executionStatusLastKnown: live === null && row.agentStatus !== null, subAgent}),
		});
	}
	return rows;
}

export type SandboxSeed = {id: string; status: string; spec?: string; createdMinutesAgo?: number; users?: string[]; pausedByCap?: boolean; pending?: SandboxRow['pending']; detail?: string};

export function sandboxRow(seed: SandboxSeed): SandboxRow {
	return {
		key: seed.id,
		sandbox: sandboxSchema.parse({id: seed.id, status: seed.status, status_detail: seed.detail ?? null, sandbox_spec_id: seed.spec ?? 'python-3.12', created_at: minutesAgo(seed.createdMinutesAgo ?? 30)}),
		conversationKeys: seed.users ?? [],
		pending: seed.pending ?? null,
		pausedByCap: seed.pausedByCap ?? false,
	};
}

export const liveConnection: ConnectionState = {
	health: 'live',
	lastSuccessAt: Date.now(),
	lastError: null,
	keyRejected: false,
	nextRetryAt: null,
	requestsLastMinute: 12,
	budgetPerMinute: 100,
	clockOffsetMs: 0,
};

/** A mixed fleet: one of each attention kind, some healthy ones, a paused one. */
export function fleetSeeds(): ConversationSeed[] {
	return [
		{id: hexId(1), title: 'Fix the flaky payment test', repo: 'acme/payments', execution: 'running', cost: 0.42, updatedMinutesAgo: 1},
		{id: hexId(2), title: 'Upgrade React to 19', repo: 'acme/web', execution: 'stuck', cost: 1.9, updatedMinutesAgo: 7},
		{id: hexId(3), title: 'Add retries to the importer', repo: 'acme/etl', execution: 'waiting_for_confirmation', cost: 0.11, updatedMinutesAgo: 3},
		{id: hexId(4), title: 'Write the migration guide', repo: 'acme/docs', execution: 'finished', cost: 2.5, updatedMinutesAgo: 90},
		{id: hexId(5), title: 'Investigate memory growth', repo: 'acme/api', execution: 'error', cost: 3.25, updatedMinutesAgo: 12},
		{id: hexId(6), title: 'Refactor the CLI flags', repo: 'acme/cli', execution: null, sandbox: 'PAUSED', cost: 0.05, updatedMinutesAgo: 240},
		{id: hexId(7), title: '漢字のタイトル with wide characters', repo: 'acme/i18n', execution: 'idle', cost: 0.2, updatedMinutesAgo: 30},
		{id: hexId(8), title: 'Bump dependencies \u001B]52;c;ZXZpbA==\u0007 evil', repo: 'acme/web', execution: 'running', unseen: 4, updatedMinutesAgo: 2},
	];
}

export function fixtureSnapshot(overrides: Partial<DashboardSnapshot> = {}, seeds: ConversationSeed[] = fleetSeeds()): DashboardSnapshot {
	const conversations = conversationRows(seeds);
	const sandboxes = new Map<string, SandboxRow>();
	for (const row of conversations.values()) {
		const id = row.conversation.sandbox_id ?? '';
		const detail = row.sandboxDetail ?? undefined;
		sandboxes.set(id, sandboxRow({id, status: String(row.conversation.sandbox_status), users: [row.key], ...(detail ? {detail} : {})}));
	}
	return {
		version: 1,
		serverLabel: 'app.example.test',
		demo: false,
		connection: {...liveConnection, lastSuccessAt: Date.now()},
		conversations,
		sandboxes,
		specs: [sandboxSpecSchema.parse({id: 'python-3.12', working_dir: '/workspace', command: ['/usr/bin/agent-server', '--port', '8000']})],
		conversationsListed: true,
		sandboxesListed: true,
		runningSandboxCap: null,
		invalidItems: 0,
		timeline: null,
		start: {state: 'idle', phases: [], error: null, conversationKey: null},
		notice: null,
		...overrides,
	};
}

export type FixtureStore = DashboardStore & {set(next: DashboardSnapshot): void; update(change: (current: DashboardSnapshot) => Partial<DashboardSnapshot>): void};

export function fixtureStore(initial: DashboardSnapshot): FixtureStore {
	let snapshot = initial;
	const listeners = new Set<() => void>();
	const set = (next: DashboardSnapshot) => {
		snapshot = next;
		for (const listener of listeners) listener();
	};
	return {
		subscribe(listener) {
			listeners.add(listener);
			return () => listeners.delete(listener);
		},
		getSnapshot: () => snapshot,
		set,
		update(change) {
			set({...snapshot, ...change(snapshot), version: snapshot.version + 1});
		},
	};
}

export type RecordingController = DashboardController & {calls: Array<{method: string; args: unknown[]}>};

/** A controller that records calls (the view's side of the contract is what these tests check). */
export function recordingController(): RecordingController {
	const calls: Array<{method: string; args: unknown[]}> = [];
	const record =
		(method: string) =>
		(...args: unknown[]): never => {
			calls.push({method, args});
			return (method === 'pauseSandbox' || method === 'resumeSandbox' || method === 'startConversation' || method === 'close' ? Promise.resolve() : undefined) as never;
		};
	return {
		calls,
		refresh: record('refresh'),
		setVisibleConversations: record('setVisibleConversations'),
		openTimeline: record('openTimeline'),
		closeTimeline: record('closeTimeline'),
		pauseSandbox: record('pauseSandbox'),
		resumeSandbox: record('resumeSandbox'),
		startConversation: record('startConversation'),
		resetStart: record('resetStart'),
		dismissNotice: record('dismissNotice'),
		close: record('close'),
	};
}

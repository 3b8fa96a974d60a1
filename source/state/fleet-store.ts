import {normalizeId} from '../wire/ids.js';
import {BatchedPublisher} from './batched-publisher.js';
import type {
	ConversationRow,
	DashboardController,
	DashboardSnapshot,
	DashboardStore,
	ResumeStepReport,
	RowServer,
	SandboxRow,
	ServerState,
	TimelineState,
} from './dashboard-types.js';
import type {SearchListener, SearchProgress} from './event-search.js';
import {qualifyKey, splitKey} from './server-keys.js';
import {fleetConnection, sameList, sameSnapshot, serverIsStale, sumProgress} from './fleet-parts.js';
import {unreadableMerger} from './unreadable-rows.js';

export {serverIsStale} from './fleet-parts.js';
import {fleetDelete} from './delete-plan.js';

/**
 * The all-servers view (`--all-profiles`): one list over several servers' stores. Each server
 * keeps everything of its own (state/dashboard-session.ts: key, transport, request budget, clock
 * estimate, health, poller, store); this only merges what they publish and routes what the view
 * asks for back to the server a row came from.
 * - Keys are qualified by server (`<key>@<profile>`, server-keys.ts), conversations and sandboxes
 *   alike; each row carries its server (`row.server`: name, stale, clock offset).
 * - One server down marks its own rows stale (they keep their last known state) and leaves the
 *   others as they are: nothing of one server's health reaches another's rows.
 * - An action on a row goes to that row's server with that server's own key; one timeline is open
 *   at a time, on the server of its conversation.
 * Snapshots are merged at most once per `flushMs` and only from what changed: rows are rewrapped
 * when their server's row or its stale mark changed, so memoised rows stay still.
 */

export type FleetServer = {
	/** The profile's name: the SERVER column's word and the key qualifier. */
	name: string;
	/** Its host, for the header (never a key). */
	label: string;
	store: DashboardStore;
	controller: DashboardController;
};

export type Fleet = {store: DashboardStore; controller: DashboardController};

const idleStart: DashboardSnapshot['start'] = {state: 'idle', phases: [], error: null, conversationKey: null};

type Member = FleetServer & {
	tag: RowServer;
	rows: WeakMap<ConversationRow, ConversationRow>;
	sandboxes: WeakMap<SandboxRow, SandboxRow>;
	unsubscribe: () => void;
};

type Merged = {
	conversations: Map<string, ConversationRow>;
	sandboxes: Map<string, SandboxRow>;
	/** What each part was built from, so an unchanged part is kept as it is. */
	from: {conversations: unknown[]; sandboxes: unknown[]; servers: unknown[]; specs: unknown[]};
	servers: readonly ServerState[];
	specs: DashboardSnapshot['specs'];
	answers: ReadonlyMap<string, string>;
	answersFrom: unknown[];
};

export function createFleet(servers: readonly FleetServer[], options: {flushMs?: number; now?: () => number} = {}): Fleet {
	if (servers.length === 0) throw new Error('the all-servers view needs at least one server');
	const now = options.now ?? (() => Date.now());
	const names = servers.map((server) => server.name);
	let notice: DashboardSnapshot['notice'] = null;
	let timelineServer: Member | null = null;
	let closed = false;
	const timelines = new WeakMap<TimelineState, TimelineState>();
	let merged: Merged | null = null;
	const mergeUnreadable = unreadableMerger();

	const members: Member[] = servers.map((server) => ({
		...server,
		tag: {name: server.name, stale: false, clockOffsetMs: 0},
		rows: new WeakMap(),
		sandboxes: new WeakMap(),
		unsubscribe: () => undefined,
	}));

	const publisher = new BatchedPublisher<DashboardSnapshot>(build(null), options.flushMs ?? 50);
	for (const member of members) member.unsubscribe = member.store.subscribe(() => publisher.schedule(() => build(publisher.get())));

	/** The row tag of a server: a new object only when its stale mark, clock offset or whether its ages are known moved. */
	function tagOf(member: Member, snapshot: DashboardSnapshot): RowServer {
		const stale = serverIsStale(snapshot.connection);
		const offset = snapshot.connection.clockOffsetMs;
		const unverified = snapshot.connection.agesUnverified === true;
		if (member.tag.stale !== stale || member.tag.clockOffsetMs !== offset || (member.tag.agesUnverified ?? false) !== unverified) {
			member.tag = {name: member.name, stale, clockOffsetMs: offset, ...(unverified ? {agesUnverified: true} : {})};
		}
		return member.tag;
	}

	function qualifiedRow(member: Member, row: ConversationRow): ConversationRow {
		const cached = member.rows.get(row);
		if (cached && cached.server === member.tag) return cached;
		const {sandbox_id: sandboxId, parent_conversation_id: parentId} = row.conversation;
		const qualify = (id: string) => qualifyKey(normalizeId(id), member.name);
		const next: ConversationRow = {
			...row,
			key: qualifyKey(row.key, member.name),
			// Ids that name other rows, as the merged maps are keyed: the view finds this row's sandbox
			// and parent on this server, never a namesake on another.
			conversation: {
				...row.conversation,
				...(sandboxId ? {sandbox_id: qualify(sandboxId)} : {}),
				...(parentId ? {parent_conversation_id: qualify(String(parentId))} : {}),
			},
			attention: row.attention.some((reason) => reason.kind === 'sub_agent')
				? row.attention.map((reason) => (reason.kind === 'sub_agent' ? {...reason, child: {...reason.child, key: qualifyKey(reason.child.key, member.name)}} : reason))
				: row.attention,
			server: member.tag,
		};
		member.rows.set(row, next);
		return next;
	}

	function qualifiedSandbox(member: Member, row: SandboxRow): SandboxRow {
		const cached = member.sandboxes.get(row);
		if (cached && cached.server === member.tag) return cached;
		const next: SandboxRow = {...row, key: qualifyKey(row.key, member.name), conversationKeys: row.conversationKeys.map((key) => qualifyKey(key, member.name)), server: member.tag};
		member.sandboxes.set(row, next);
		return next;
	}

	function qualifiedTimeline(member: Member, timeline: TimelineState): TimelineState {
		const cached = timelines.get(timeline);
		if (cached) return cached;
		const next = {...timeline, conversationKey: qualifyKey(timeline.conversationKey, member.name)};
		timelines.set(timeline, next);
		return next;
	}

	function build(previous: DashboardSnapshot | null): DashboardSnapshot {
		const snapshots = members.map((member) => member.store.getSnapshot());
		const tags = members.map((member, index) => tagOf(member, snapshots[index]!));
		const parts = mergeParts(snapshots, tags);
		const states = parts.servers;
		let timeline: TimelineState | null = null;
		for (const [index, member] of members.entries()) {
			const own = snapshots[index]!.timeline;
			if (own && member === timelineServer) timeline = qualifiedTimeline(member, own);
		}
		const next: DashboardSnapshot = {
			// Fields a server's store adds that this view does not merge yet come from the first server.
			...snapshots[0]!,
			version: (previous?.version ?? 0) + 1,
			serverLabel: `all profiles (${members.length})`,
			keySource: null,
			demo: snapshots.some((snapshot) => snapshot.demo),
			connection: fleetConnection(states, previous?.connection ?? null),
			conversations: parts.conversations,
			sandboxes: parts.sandboxes,
			// A server that does not answer cannot list; plans over the lists wait only for the others.
			conversationsListed: snapshots.every((snapshot) => snapshot.conversationsListed || serverIsStale(snapshot.connection)),
			sandboxesListed: snapshots.every((snapshot) => snapshot.sandboxesListed || serverIsStale(snapshot.connection)),
			specs: parts.specs,
			// Each server has its own cap; across servers no one number predicts what a resume pauses.
			runningSandboxCap: null,
			invalidItems: snapshots.reduce((sum, snapshot) => sum + snapshot.invalidItems, 0),
			unreadableRows: mergeUnreadable(snapshots.map((snapshot) => snapshot.unreadableRows)),
			timeline,
			start: idleStart,
			notice: newestNotice(snapshots, previous?.notice ?? null),
			answers: parts.answers,
			servers: states,
		};
		if (previous && sameSnapshot(previous, next)) return previous;
		return next;
	}

	function mergeParts(snapshots: readonly DashboardSnapshot[], tags: readonly RowServer[]): Merged {
		const conversationsFrom = [...snapshots.map((snapshot) => snapshot.conversations), ...tags];
		const sandboxesFrom = [...snapshots.map((snapshot) => snapshot.sandboxes), ...tags];
		const serversFrom = snapshots.map((snapshot) => snapshot.connection);
		const specsFrom = snapshots.map((snapshot) => snapshot.specs);
		const last = merged;
		const conversations =
			last && sameList(last.from.conversations, conversationsFrom)
				? last.conversations
				: new Map(members.flatMap((member, index) => [...snapshots[index]!.conversations.values()].map((row): [string, ConversationRow] => {
						const next = qualifiedRow(member, row);
						return [next.key, next];
					})));
		const sandboxes =
			last && sameList(last.from.sandboxes, sandboxesFrom)
				? last.sandboxes
				: new Map(members.flatMap((member, index) => [...snapshots[index]!.sandboxes.values()].map((row): [string, SandboxRow] => {
						const next = qualifiedSandbox(member, row);
						return [next.key, next];
					})));
		const servers =
			last && sameList(last.from.servers, serversFrom)
				? last.servers
				: members.map((member, index): ServerState => ({name: member.name, label: member.label, connection: snapshots[index]!.connection, keySource: snapshots[index]!.keySource ?? null}));
		const specs = last && sameList(last.from.specs, specsFrom) ? last.specs : snapshots.flatMap((snapshot) => snapshot.specs);
		const answersFrom = snapshots.map((snapshot) => snapshot.answers);
		const answers =
			last && sameList(last.answersFrom, answersFrom)
				? last.answers
				: new Map(members.flatMap((member, index) => [...(snapshots[index]!.answers ?? new Map<string, string>())].map(([key, text]): [string, string] => [qualifyKey(key, member.name), text])));
		merged = {conversations, sandboxes, servers, specs, answers, answersFrom, from: {conversations: conversationsFrom, sandboxes: sandboxesFrom, servers: serversFrom, specs: specsFrom}};
		return merged;
	}

	/** The newest notice of any server (named), or the view's own. */
	function newestNotice(snapshots: readonly DashboardSnapshot[], previous: DashboardSnapshot['notice']): DashboardSnapshot['notice'] {
		let newest = notice;
		for (const [index, snapshot] of snapshots.entries()) {
			const own = snapshot.notice;
			if (own && (!newest || own.at > newest.at)) newest = {...own, text: `${members[index]!.name}: ${own.text}`};
		}
		// The same notice as last time keeps its object, so an idle view does not re-render.
		return previous && newest && previous.text === newest.text && previous.at === newest.at && previous.level === newest.level ? previous : newest;
	}

	const touch = () => {
		if (!closed) publisher.schedule(() => build(publisher.get()));
	};

	const memberOf = (qualified: string): {member: Member; key: string} => {
		const split = splitKey(qualified, names);
		const member = split ? members.find((candidate) => candidate.name === split.server) : undefined;
		if (!split || !member) throw new Error(`${qualified.slice(0, 8)} is not a row of any server in this view`);
		return {member, key: split.key};
	};

	/** Calls a controller method that may be missing (the view says "not available" then). */
	const routed = <R>(qualified: string, call: (controller: DashboardController, key: string) => R): R => {
		const {member, key} = memberOf(qualified);
		return call(member.controller, key);
	};

	const grouped = (keys: readonly string[]): Map<Member, string[]> => {
		const groups = new Map<Member, string[]>(members.map((member) => [member, []]));
		for (const qualified of keys) {
			const split = splitKey(qualified, names);
			const member = split ? members.find((candidate) => candidate.name === split.server) : undefined;
			if (member && split) groups.get(member)!.push(split.key);
		}
		return groups;
	};

	const first = members[0]!.controller;
	const controller: DashboardController = {
		refresh: () => {
			for (const member of members) member.controller.refresh();
		},
		setVisibleConversations: (keys) => {
			for (const [member, own] of grouped(keys)) member.controller.setVisibleConversations(own);
		},
		openTimeline: (qualified) => {
			const {member, key} = memberOf(qualified);
			if (timelineServer && timelineServer !== member) timelineServer.controller.closeTimeline();
			timelineServer = member;
			member.controller.openTimeline(key);
			touch();
		},
		closeTimeline: () => {
			timelineServer?.controller.closeTimeline();
			timelineServer = null;
			touch();
		},
		loadOlderEvents: () => timelineServer?.controller.loadOlderEvents?.(),
		loadNewerEvents: () => timelineServer?.controller.loadNewerEvents?.(),
		timelineToNewest: () => timelineServer?.controller.timelineToNewest?.(),
		pinTimeline: (range) => timelineServer?.controller.pinTimeline?.(range),
		...fleetDelete(first, grouped),
		pauseSandbox: (qualified) => routed(qualified, (own, key) => own.pauseSandbox(key)),
		resumeSandbox: (qualified) => routed(qualified, (own, key) => own.resumeSandbox(key)),
		startConversation: async () => {
			// Where it would go is not clear in a list of every server: one profile's view says it.
			setNotice('Starting a conversation needs one server: switch to its profile (ctrl-p), then press +.', 'warn');
		},
		resetStart: () => {
			for (const member of members) member.controller.resetStart();
		},
		notice: (text, level) => setNotice(text, level),
		dismissNotice: () => {
			notice = null;
			for (const member of members) member.controller.dismissNotice();
			touch();
		},
		...(first.snooze ? {snooze: (qualified: string, until: number | 'change') => routed(qualified, (own, key) => own.snooze?.(key, until) ?? null)} : {}),
		...(first.unsnooze ? {unsnooze: (qualified: string) => routed(qualified, (own, key) => own.unsnooze?.(key) ?? false)} : {}),
		...(first.approve ? {approve: (qualified: string) => routed(qualified, (own, key) => own.approve!(key))} : {}),
		...(first.reject ? {reject: (qualified: string, reason?: string) => routed(qualified, (own, key) => own.reject!(key, reason))} : {}),
		...(first.pendingActions ? {pendingActions: (qualified: string) => routed(qualified, (own, key) => own.pendingActions!(key))} : {}),
		...(first.nudge ? {nudge: (qualified: string, text: string) => routed(qualified, (own, key) => own.nudge!(key, text))} : {}),
		...(first.interrupt ? {interrupt: (qualified: string) => routed(qualified, (own, key) => own.interrupt!(key))} : {}),
		...(first.continueAgent ? {continueAgent: (qualified: string) => routed(qualified, (own, key) => own.continueAgent!(key))} : {}),
		...(first.askAgent
			? {askAgent: (qualified: string, question: string, signal?: AbortSignal) => routed(qualified, (own, key) => own.askAgent!(key, question, signal))}
			: {}),
		...(first.conversationLink ? {conversationLink: (qualified: string) => routed(qualified, (own, key) => own.conversationLink!(key))} : {}),
		// Plans on fresh data (state/fresh-plan.ts), server by server: each reads its own list again
		// and resumes one step at a time; the rows come back keyed as this view keys them.
		...(first.freshSandboxes
			? {
				freshSandboxes: async () => {
					const merged = new Map<string, SandboxRow>();
					for (const member of members) {
						const own = await member.controller.freshSandboxes?.();
						for (const row of own?.values() ?? []) merged.set(qualifyKey(row.key, member.name), qualifiedSandbox(member, row));
					}
					return merged;
				},
			}
			: {}),
		...(first.resumeInSteps
			? {
				resumeInSteps: async (keys: readonly string[], planned: ReadonlyMap<string, readonly string[]> | null, report: (report: ResumeStepReport) => void, stopped: () => boolean) => {
					for (const [member, own] of grouped(keys)) {
						if (own.length === 0 || stopped() || !member.controller.resumeInSteps) continue;
						const q = (key: string) => qualifyKey(key, member.name);
						const ownPlanned = planned ? new Map(own.map((key) => [key, (planned.get(q(key)) ?? []).map((victim) => splitKey(victim, names)?.key ?? victim)] as const)) : null;
						await member.controller.resumeInSteps(own, ownPlanned, (step) => report(qualifiedStep(step, q)), stopped);
					}
				},
			}
			: {}),
		...(first.openChanges ? {openChanges: (qualified: string) => routed(qualified, (own, key) => own.openChanges!(key))} : {}),
		...(first.searchAcross ? {searchAcross: (keys: readonly string[], query: string, listener: SearchListener) => searchEveryServer(keys, query, listener)} : {}),
		close: async () => {
			closed = true;
			for (const member of members) member.unsubscribe();
			publisher.close();
		},
	};

	function setNotice(text: string, level: 'info' | 'warn' | 'error'): void {
		notice = {text, level, at: now()};
		touch();
	}

	/** One search per server over its own rows; hits come back with qualified keys, progress summed. */
	function searchEveryServer(keys: readonly string[], query: string, listener: SearchListener): () => void {
		const progress = new Map<Member, SearchProgress>();
		const cancels: Array<() => void> = [];
		const groups = [...grouped(keys)].filter(([, own]) => own.length > 0);
		for (const [member] of groups) progress.set(member, {searched: 0, stored: 0, skipped: 0, failed: 0, total: 0, done: false, lastError: null});
		for (const [member, own] of groups) {
			cancels.push(
				member.controller.searchAcross!(own, query, {
					onHit: (hit) => listener.onHit({...hit, conversationKey: qualifyKey(hit.conversationKey, member.name)}),
					onProgress: (report) => {
						progress.set(member, report);
						listener.onProgress(sumProgress([...progress.values()], member.name, report));
					},
				}),
			);
		}
		if (groups.length === 0) listener.onProgress({searched: 0, stored: 0, skipped: 0, failed: 0, total: 0, done: true, lastError: null});
		return () => {
			for (const cancel of cancels) cancel();
		};
	}

	return {store: {subscribe: publisher.subscribe, getSnapshot: publisher.get}, controller};
}

/** A resume step's report with its sandbox keys as the all-servers view keys them. */
function qualifiedStep(step: ResumeStepReport, q: (key: string) => string): ResumeStepReport {
	if (step.state === 'sent') return {...step, key: q(step.key), pauses: step.pauses.map(q), planned: step.planned ? step.planned.map(q) : null};
	if (step.state === 'done') return {...step, key: q(step.key), paused: step.paused.map(q)};
	return {...step, key: q(step.key)};
}

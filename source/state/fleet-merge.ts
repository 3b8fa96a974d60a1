import {normalizeId} from '../wire/ids.js';
import type {ConversationRow, DashboardController, DashboardSnapshot, DashboardStore, RowServer, SandboxRow, ServerState, TimelineState} from './dashboard-types.js';
import {qualifyKey} from './server-keys.js';
import {fleetConnection, sameList, sameSnapshot, serverIsStale} from './fleet-parts.js';
import {unreadableMerger} from './unreadable-rows.js';

/**
 * The snapshot half of the all-servers view (fleet-store.ts): every server's snapshot merged into
 * one, keys qualified by server. Rows are rewrapped only when their server's row or its stale mark
 * changed, and a part whose sources did not change is kept as it is, so memoised rows stay still.
 */

export type FleetServer = {
	/** The profile's name: the SERVER column's word and the key qualifier. */
	name: string;
	/** Its host, for the header (never a key). */
	label: string;
	store: DashboardStore;
	controller: DashboardController;
};

export type FleetMember = FleetServer & {
	tag: RowServer;
	rows: WeakMap<ConversationRow, ConversationRow>;
	sandboxes: WeakMap<SandboxRow, SandboxRow>;
	unsubscribe: () => void;
};

export function fleetMember(server: FleetServer): FleetMember {
	return {...server, tag: {name: server.name, stale: false, clockOffsetMs: 0}, rows: new WeakMap(), sandboxes: new WeakMap(), unsubscribe: () => undefined};
}

/** What the merge reads besides the members: the view's own notice and whose timeline is open. */
export type FleetViewState = {
	notice(): DashboardSnapshot['notice'];
	timelineServer(): FleetMember | null;
};

type Merged = {
	conversations: Map<string, ConversationRow>;
	sandboxes: Map<string, SandboxRow>;
	/** What each part was built from, so an unchanged part is kept as it is. */
	from: {conversations: unknown[]; sandboxes: unknown[]; servers: unknown[]; specs: unknown[]; answers: unknown[]};
	servers: readonly ServerState[];
	specs: DashboardSnapshot['specs'];
	answers: ReadonlyMap<string, string>;
};

const idleStart: DashboardSnapshot['start'] = {state: 'idle', phases: [], error: null, conversationKey: null};

/** The row tag of a server: a new object only when its stale mark, clock offset or whether its ages are known moved. */
function tagOf(member: FleetMember, snapshot: DashboardSnapshot): RowServer {
	const stale = serverIsStale(snapshot.connection);
	const offset = snapshot.connection.clockOffsetMs;
	const unverified = snapshot.connection.agesUnverified === true;
	if (member.tag.stale !== stale || member.tag.clockOffsetMs !== offset || (member.tag.agesUnverified ?? false) !== unverified) {
		member.tag = {name: member.name, stale, clockOffsetMs: offset, ...(unverified ? {agesUnverified: true} : {})};
	}
	return member.tag;
}

function qualifiedRow(member: FleetMember, row: ConversationRow): ConversationRow {
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

export function qualifiedSandbox(member: FleetMember, row: SandboxRow): SandboxRow {
	const cached = member.sandboxes.get(row);
	if (cached && cached.server === member.tag) return cached;
	const next: SandboxRow = {...row, key: qualifyKey(row.key, member.name), conversationKeys: row.conversationKeys.map((key) => qualifyKey(key, member.name)), server: member.tag};
	member.sandboxes.set(row, next);
	return next;
}

/** Every member's rows of one kind in one map, keyed as qualified. */
function qualifiedMap<Row extends {key: string}>(members: readonly FleetMember[], lists: ReadonlyArray<ReadonlyMap<string, Row>>, qualify: (member: FleetMember, row: Row) => Row): Map<string, Row> {
	return new Map(members.flatMap((member, index) => [...lists[index]!.values()].map((row): [string, Row] => {
		const next = qualify(member, row);
		return [next.key, next];
	})));
}

/**
 * The merged snapshot's builder: call it with the last published snapshot (or null) for the next
 * one; it returns the previous object when nothing a view reads has changed.
 */
export function fleetMerger(members: readonly FleetMember[], state: FleetViewState): (previous: DashboardSnapshot | null) => DashboardSnapshot {
	const timelines = new WeakMap<TimelineState, TimelineState>();
	const mergeUnreadable = unreadableMerger();
	let merged: Merged | null = null;

	function qualifiedTimeline(member: FleetMember, timeline: TimelineState): TimelineState {
		const cached = timelines.get(timeline);
		if (cached) return cached;
		const next = {...timeline, conversationKey: qualifyKey(timeline.conversationKey, member.name)};
		timelines.set(timeline, next);
		return next;
	}

	function mergeParts(snapshots: readonly DashboardSnapshot[], tags: readonly RowServer[]): Merged {
		const from = {
			conversations: [...snapshots.map((snapshot) => snapshot.conversations), ...tags],
			sandboxes: [...snapshots.map((snapshot) => snapshot.sandboxes), ...tags],
			servers: snapshots.map((snapshot) => snapshot.connection),
			specs: snapshots.map((snapshot) => snapshot.specs),
			answers: snapshots.map((snapshot) => snapshot.answers),
		};
		const last = merged;
		const kept = (part: keyof Merged['from']) => last !== null && sameList(last.from[part], from[part]);
		merged = {
			conversations: kept('conversations') ? last!.conversations : qualifiedMap(members, snapshots.map((snapshot) => snapshot.conversations), qualifiedRow),
			sandboxes: kept('sandboxes') ? last!.sandboxes : qualifiedMap(members, snapshots.map((snapshot) => snapshot.sandboxes), qualifiedSandbox),
			servers: kept('servers')
				? last!.servers
				: members.map((member, index): ServerState => ({name: member.name, label: member.label, connection: snapshots[index]!.connection, keySource: snapshots[index]!.keySource ?? null})),
			specs: kept('specs') ? last!.specs : snapshots.flatMap((snapshot) => snapshot.specs),
			answers: kept('answers')
				? last!.answers
				: new Map(members.flatMap((member, index) => [...(snapshots[index]!.answers ?? new Map<string, string>())].map(([key, text]): [string, string] => [qualifyKey(key, member.name), text]))),
			from,
		};
		return merged;
	}

	/** The newest notice of any server (named), or the view's own. */
	function newestNotice(snapshots: readonly DashboardSnapshot[], previous: DashboardSnapshot['notice']): DashboardSnapshot['notice'] {
		let newest = state.notice();
		for (const [index, snapshot] of snapshots.entries()) {
			const own = snapshot.notice;
			if (own && (!newest || own.at > newest.at)) newest = {...own, text: `${members[index]!.name}: ${own.text}`};
		}
		// The same notice as last time keeps its object, so an idle view does not re-render.
		return previous && newest && previous.text === newest.text && previous.at === newest.at && previous.level === newest.level ? previous : newest;
	}

	return function build(previous: DashboardSnapshot | null): DashboardSnapshot {
		const snapshots = members.map((member) => member.store.getSnapshot());
		const tags = members.map((member, index) => tagOf(member, snapshots[index]!));
		const parts = mergeParts(snapshots, tags);
		const states = parts.servers;
		let timeline: TimelineState | null = null;
		for (const [index, member] of members.entries()) {
			const own = snapshots[index]!.timeline;
			if (own && member === state.timelineServer()) timeline = qualifiedTimeline(member, own);
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
	};
}

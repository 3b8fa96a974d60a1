import {normalizeId} from '../wire/ids.js';
import type {AppConversation, Sandbox} from '../wire/schemas/app.js';
import {sameWireObject} from './conversation-rows.js';
import type {SandboxActionState, SandboxRow} from './dashboard-types.js';

/**
 * Sandbox rows and the life of a pause/resume. The server answers pause and resume as soon as
 * the runtime accepts them; the status changes later (docs/service-behaviour.md §1.2), so an action stays
 * `pending` until a poll shows the target status, the sandbox fails, or `actionTimeoutMs` passes.
 * Resuming can make the service pause the user's oldest other running sandbox (running-sandbox
 * cap): sandboxes that were RUNNING when a resume was sent and are PAUSED afterwards, without a
 * pause of ours, are flagged `pausedByCap`.
 */

export function sandboxKey(sandbox: Pick<Sandbox, 'id'>): string {
	return normalizeId(String(sandbox.id));
}

export type CapWatch = {
	/** The sandbox resumed, or '' for a start (its new sandbox is not known yet). */
	resumedKey: string;
	/** What may make the service pause another: `Resuming sandbox ab12`, `Starting a conversation`. */
	cause: string;
	/** Other sandboxes RUNNING when the resume was sent. */
	runningBefore: ReadonlySet<string>;
	until: number;
};

export type SandboxNotice = {text: string; level: 'info' | 'warn' | 'error'};

export type SandboxMerge = {
	rows: Map<string, SandboxRow>;
	changed: boolean;
	notices: SandboxNotice[];
};

const targetStatus: Record<SandboxActionState['kind'], string> = {pausing: 'PAUSED', resuming: 'RUNNING'};

/**
 * The key of the sandbox a conversation names: its normalised id, or the row whose raw id it is
 * (a server may spell ids differently in the two lists); the normalised id when none is loaded.
 */
export function sandboxKeyOf(sandboxes: ReadonlyMap<string, SandboxRow>, sandboxId: string): string {
	const key = normalizeId(sandboxId);
	if (sandboxes.has(key)) return key;
	for (const row of sandboxes.values()) if (row.sandbox.id === sandboxId) return row.key;
	return key;
}

/**
 * Sandboxes whose pending pause or resume a conversation has just confirmed: a conversation
 * carries its sandbox's status too, often a poll before the sandbox list does. Returned as
 * sandbox updates (the status the action waited for), for `mergeSandboxes`.
 */
export function confirmedByConversations(sandboxes: ReadonlyMap<string, SandboxRow>, conversations: readonly AppConversation[]): Sandbox[] {
	const confirmed: Sandbox[] = [];
	// Every conversation refresh comes through here; with no action in flight there is nothing to do.
	if (![...sandboxes.values()].some((row) => row.pending && !row.pending.error)) return confirmed;
	for (const conversation of conversations) {
		if (!conversation.sandbox_id) continue;
		const row = sandboxes.get(sandboxKeyOf(sandboxes, conversation.sandbox_id));
		if (!row?.pending || row.pending.error) continue;
		const target = targetStatus[row.pending.kind];
		if (String(conversation.sandbox_status ?? '').toUpperCase() === target && String(row.sandbox.status).toUpperCase() !== target) {
			confirmed.push({...row.sandbox, status: target} as Sandbox);
		}
	}
	return confirmed;
}

/**
 * The sandbox ids to look up quickly: those with an action waiting for its status change, and,
 * while a resume may still make the service pause another one, the ones that were running.
 */
export function watchedSandboxIds(rows: ReadonlyMap<string, SandboxRow>, capWatch: CapWatch | null): string[] {
	const ids: string[] = [];
	const open = new Set<string>();
	for (const row of rows.values()) {
		if (row.pending && !row.pending.error) {
			ids.push(String(row.sandbox.id));
			open.add(row.key);
		}
	}

	// The cap pause follows the resume; watch the others only while the resume is still open.
	if (capWatch && open.has(capWatch.resumedKey)) {
		for (const key of capWatch.runningBefore) {
			const row = rows.get(key);
			if (row && !open.has(key)) ids.push(String(row.sandbox.id));
		}
	}

	return ids;
}

/** What a start or resume would make the service do to the other sandboxes, as far as we can tell. */
export type CapEffect = {
	/** The sandbox it would pause: the oldest other running one (pause_old_sandboxes). */
	victimKey: string;
	/** Conversations that sandbox holds. */
	conversations: number;
	/** Other sandboxes running (or starting) now. */
	running: number;
	/** The cap when known (configured or learned); null when we cannot know. */
	cap: number | null;
	/** True when the running count is at the cap: it will pause the victim, not just may. */
	certain: boolean;
};

const live = new Set(['RUNNING', 'STARTING']);

/**
 * Starting a conversation or resuming a sandbox first runs the service's pause_old_sandboxes(max - 1)
 * (docs/service-behaviour.md §1.2): when the other running sandboxes are at the cap, the oldest of them is
 * paused. Null when nothing would be paused (under a known cap, or nothing else runs).
 */
export function capEffect(rows: ReadonlyMap<string, SandboxRow>, excludeKey: string | null, cap: number | null): CapEffect | null {
	const running = [...rows.values()].filter((row) => row.key !== excludeKey && live.has(String(row.sandbox.status).toUpperCase()));
	if (running.length === 0) return null;
	if (cap !== null && running.length < cap) return null;
	const created = (row: SandboxRow) => {
		const ms = Date.parse(String(row.sandbox.created_at ?? ''));
		return Number.isNaN(ms) ? Number.POSITIVE_INFINITY : ms;
	};
	const victim = running.sort((a, b) => created(a) - created(b) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))[0]!;
	return {victimKey: victim.key, conversations: victim.conversationKeys.length, running: running.length, cap, certain: cap !== null};
}

export function shortId(key: string): string {
	return key.length > 12 ? key.slice(0, 8) : key;
}

/**
 * Applies sandboxes to the rows. A `complete` list replaces them (rows of sandboxes that are gone
 * are dropped); a partial one (the watched sandboxes) updates only the rows it names.
 */
export function mergeSandboxes(
	previous: ReadonlyMap<string, SandboxRow>,
	sandboxes: readonly Sandbox[],
	context: {
		now: number;
		conversationKeys: ReadonlyMap<string, readonly string[]>;
		capWatch: CapWatch | null;
		actionTimeoutMs: number;
		complete: boolean;
	},
): SandboxMerge {
	const rows = context.complete ? new Map<string, SandboxRow>() : new Map(previous);
	const notices: SandboxNotice[] = [];
	let changed = context.complete && previous.size !== sandboxes.length;
	for (const sandbox of sandboxes) {
		const key = sandboxKey(sandbox);
		const before = previous.get(key);
		const status = String(sandbox.status).toUpperCase();
		let pending = before?.pending ?? null;
		if (pending && !pending.error) {
			if (status === targetStatus[pending.kind]) {
				notices.push({text: `Sandbox ${shortId(key)} ${pending.kind === 'pausing' ? 'paused' : 'running again'}.`, level: 'info'});
				pending = null;
			} else if (status === 'ERROR' || status === 'MISSING') {
				pending = {...pending, error: `the sandbox went to ${status}`};
				notices.push({text: `Sandbox ${shortId(key)}: ${pending.error}.`, level: 'error'});
			} else if (context.now - pending.startedAt > context.actionTimeoutMs) {
				pending = {...pending, error: `no status change after ${Math.round(context.actionTimeoutMs / 1000)} s (still ${status})`};
				notices.push({text: `Sandbox ${shortId(key)}: ${pending.error}.`, level: 'warn'});
			}
		}

		let pausedByCap = before?.pausedByCap ?? false;
		if (status === 'RUNNING' || status === 'STARTING') pausedByCap = false;
		const watch = context.capWatch;
		if (
			watch &&
			status === 'PAUSED' &&
			!pausedByCap &&
			key !== watch.resumedKey &&
			watch.runningBefore.has(key) &&
			before?.pending?.kind !== 'pausing' &&
			String(before?.sandbox.status).toUpperCase() !== 'PAUSED'
		) {
			pausedByCap = true;
			notices.push({
				text: `${watch.cause} made the service pause sandbox ${shortId(key)} (running-sandbox limit).`,
				level: 'warn',
			});
		}

		const conversationKeys = context.conversationKeys.get(key) ?? [];
		const row = sameRow(before, sandbox, conversationKeys, pending, pausedByCap)
			? before!
			: {
					key,
					sandbox: before && sameWireObject(before.sandbox, sandbox) ? before.sandbox : sandbox,
					conversationKeys: before && sameKeys(before.conversationKeys, conversationKeys) ? before.conversationKeys : [...conversationKeys],
					pending,
					pausedByCap,
				};
		if (row !== before) changed = true;
		rows.set(key, row);
	}

	return {rows, changed, notices};
}

function sameRow(
	before: SandboxRow | undefined,
	sandbox: Sandbox,
	conversationKeys: readonly string[],
	pending: SandboxActionState | null,
	pausedByCap: boolean,
): boolean {
	return (
		before !== undefined &&
		before.pending === pending &&
		before.pausedByCap === pausedByCap &&
		sameKeys(before.conversationKeys, conversationKeys) &&
		sameWireObject(before.sandbox, sandbox)
	);
}

export function sameKeys(a: readonly string[], b: readonly string[]): boolean {
	if (a === b) return true;
	if (a.length !== b.length) return false;
	for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
	return true;
}

/** Re-links rows to conversations after the conversation list changed; same Map when nothing did. */
export function relinkSandboxes(
	rows: ReadonlyMap<string, SandboxRow>,
	conversationKeys: ReadonlyMap<string, readonly string[]>,
): ReadonlyMap<string, SandboxRow> {
	let next: Map<string, SandboxRow> | null = null;
	for (const [key, row] of rows) {
		const keys = conversationKeys.get(key) ?? [];
		if (sameKeys(row.conversationKeys, keys)) continue;
		next ??= new Map(rows);
		next.set(key, {...row, conversationKeys: [...keys]});
	}

	return next ?? rows;
}

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
	/** Other sandboxes RUNNING when the action was sent: the only ones the service counts and pauses. */
	runningBefore: ReadonlySet<string>;
	/** The sandboxes the question said it pauses (capEffect at the time), oldest first; empty: none. */
	predicted: readonly string[];
	/** The question said "it pauses" (a known cap), not "at the cap it may". */
	certain: boolean;
	/** Watched until then: what the service paused is compared with `predicted` at the latest by this time. */
	until: number;
	/** When the action was sent, by our clock. */
	startedAt: number;
	/** When the resume (or start) itself was done, by our clock; null while it is still under way. */
	settledAt: number | null;
};

/**
 * After the resume or start is done, how long the service's pause of the named sandboxes is
 * waited for: as long again as the action took, twice over (the service asked for the pause
 * before it began the resume), within 10 s to 1 min.
 */
export function capGraceMs(actionMs: number): number {
	return Math.min(60_000, Math.max(10_000, 2 * actionMs));
}

/** A cap watch for an action about to be sent: who runs now, and what the question predicts. */
export function capWatchFor(
	rows: ReadonlyMap<string, SandboxRow>,
	resumedKey: string,
	cause: string,
	cap: number | null,
	now: number,
	timeoutMs: number,
): CapWatch {
	const runningBefore = new Set<string>();
	for (const [key, row] of rows) if (key !== resumedKey && statusOf(row) === 'RUNNING') runningBefore.add(key);
	const effect = capEffect(rows, resumedKey || null, cap);
	return {resumedKey, cause, runningBefore, predicted: effect?.victimKeys ?? [], certain: effect?.certain ?? cap !== null, until: now + timeoutMs, startedAt: now, settledAt: null};
}

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
 * while a start or resume may still make the service pause others, the ones that were running
 * and are not PAUSED yet: the service's pause can land after the resumed sandbox runs (watching
 * them only while the resume was open left one showing RUNNING for most of a minute).
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

	if (capWatch) {
		// Any of them may be the one paused (the question may be wrong): all, while the watch lasts.
		for (const key of capWatch.runningBefore) {
			const row = rows.get(key);
			if (row && !open.has(key) && statusOf(row) !== 'PAUSED') ids.push(String(row.sandbox.id));
		}
	}

	return ids;
}

/**
 * The question against what the service did: sandboxes it paused that the question did not name,
 * and (once the watch is over, `final`) ones it named that are still running. Null when they agree.
 */
export function capVerdict(rows: ReadonlyMap<string, SandboxRow>, watch: CapWatch, final: boolean): SandboxNotice | null {
	const paused = [...watch.runningBefore].filter((key) => rows.get(key)?.pausedByCap);
	const named = (keys: readonly string[]) => keys.map((key) => shortId(key)).join(', ');
	const unexpected = paused.filter((key) => !watch.predicted.includes(key));
	if (unexpected.length > 0) {
		if (watch.predicted.length === 0) return watch.certain ? {text: `The service paused ${named(unexpected)}; the question expected no pause.`, level: 'warn'} : null;
		const alsoNamed = watch.predicted.some((key) => paused.includes(key));
		return {
			text: alsoNamed
				? `The service also paused ${named(unexpected)}, which the question did not name.`
				: `The service paused ${named(unexpected)}, not ${named(watch.predicted)} as the question said.`,
			level: 'warn',
		};
	}

	if (!final || !watch.certain) return null;
	const spared = watch.predicted.filter((key) => {
		const status = rows.get(key) ? statusOf(rows.get(key)!) : null;
		return status === 'RUNNING' && !paused.includes(key);
	});
	if (spared.length === 0) return null;
	return {text: `${watch.cause} did not make the service pause ${named(spared)}, which the question named: still running.`, level: 'warn'};
}

/** What a start or resume would make the service do to the other sandboxes, as far as we can tell. */
export type CapEffect = {
	/** The sandboxes it would pause, oldest first: the oldest other RUNNING ones (pause_old_sandboxes). */
	victimKeys: string[];
	/** Conversations those sandboxes hold, together. */
	conversations: number;
	/** Other sandboxes RUNNING now: the ones the service counts. */
	running: number;
	/** Other sandboxes STARTING now: the service does not count them, nor pause them. */
	starting: number;
	/** The cap when known (configured or learned); null when we cannot know. */
	cap: number | null;
	/** True when the running count is at the cap: it will pause the victims, not just may. */
	certain: boolean;
};

/**
 * Starting a conversation or resuming a sandbox first runs the service's
 * `pause_old_sandboxes(max_num_sandboxes - 1)` (OpenHands openhands/app_server/sandbox/
 * sandbox_service.py; remote_sandbox_service.py calls it in start_sandbox and resume_sandbox):
 * it lists the user's sandboxes, keeps those whose status is RUNNING (a STARTING one is neither
 * counted nor paused), sorts them by created_at, oldest first, and pauses as many of the oldest
 * as it takes to leave `max - 1` running. So with a known cap, the victims are the
 * `running - (cap - 1)` oldest RUNNING others; with an unknown one, the oldest may be. Null when
 * nothing would be paused (under a known cap, or nothing else runs). In the all-servers view
 * (rows tagged with their server) a cap is one server's: only the sandboxes of the server of
 * `excludeKey` count and can be paused.
 */
export function capEffect(rows: ReadonlyMap<string, SandboxRow>, excludeKey: string | null, cap: number | null): CapEffect | null {
	const server = excludeKey === null ? undefined : rows.get(excludeKey)?.server?.name;
	const others = [...rows.values()].filter((row) => row.key !== excludeKey && (server === undefined || row.server?.name === server));
	const running = others.filter((row) => statusOf(row) === 'RUNNING');
	const starting = others.filter((row) => statusOf(row) === 'STARTING').length;
	if (running.length === 0) return null;
	if (cap !== null && running.length < cap) return null;
	const created = (row: SandboxRow) => {
		const ms = Date.parse(String(row.sandbox.created_at ?? ''));
		return Number.isNaN(ms) ? Number.POSITIVE_INFINITY : ms;
	};
	running.sort((a, b) => created(a) - created(b) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
	const victims = running.slice(0, cap === null ? 1 : running.length - (cap - 1));
	return {
		victimKeys: victims.map((row) => row.key),
		conversations: victims.reduce((sum, row) => sum + row.conversationKeys.length, 0),
		running: running.length,
		starting,
		cap,
		certain: cap !== null,
	};
}

function statusOf(row: SandboxRow): string {
	return String(row.sandbox.status).toUpperCase();
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

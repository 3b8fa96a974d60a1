import {normalizeId} from '../wire/ids.js';
import type {AppConversation, Sandbox, SandboxSpec} from '../wire/schemas/app.js';
import {parseTime} from './attention.js';
import type {SandboxRow} from './dashboard-types.js';
import {type NoticeLevel, worst} from './dashboard-notices.js';
import type {FactVia, Observed} from './fact.js';
import {
	type CapWatch,
	capGraceMs,
	capVerdict,
	capWatchFor,
	confirmedByConversations,
	mergeSandboxes,
	relinkSandboxes,
	sandboxKey,
	sandboxKeyOf,
	watchedSandboxIds,
} from './sandbox-rows.js';

/**
 * One server's sandboxes and specs as its lists said them (facts), with what the client infers
 * beside them: each sandbox's running session start, the cap on running sandboxes (configured or
 * learned from what the service paused), the cap watch after a resume or start, and a pause or
 * resume in flight (`pending`, an annotation beside the fact, never an edit of it). Each sandbox
 * row's last answer is kept with where and when it came (`observed(key)`).
 */

export type SandboxFactsOptions = {
	server: string;
	now: () => number;
	/** Now on the data clock, and a moment of our clock placed on it (null while ages are not known). */
	serverNow: () => number;
	onDataClock: (localMs: number) => number | null;
	actionTimeoutMs: number;
	runningCap: number | null;
	/** Which conversations each sandbox holds, from the conversation rows. */
	conversationKeys: () => Map<string, string[]>;
	notice: (text: string, level: NoticeLevel) => void;
	/** A sandbox's reason changed: its conversations' rows are built again. */
	refreshRow: (key: string) => void;
	/** Which sandboxes the poller looks up quickly, and a read of the whole list now. */
	watchSandboxes: (ids: string[]) => void;
	refreshSandboxes: () => void;
	changed: () => void;
};

export class SandboxFacts {
	#sandboxes: ReadonlyMap<string, SandboxRow> = new Map();
	#specs: readonly SandboxSpec[] = [];
	#sandboxesListed = false;
	/** The conversation rows moved between sandboxes: the sandbox rows' conversation keys are redone before publishing. */
	#linksDirty = false;
	#capWatch: CapWatch | null = null;
	#runningCap: number | null;
	/** Sandboxes whose list was read again for a status their conversations showed first (the status asked for). */
	readonly #reasonAsked = new Map<string, string>();
	/** Per sandbox: its status as last seen, and when it was seen to start running (servers' clock). */
	#sessions = new Map<string, {status: string; runningSince: number | null}>();
	/** Where and when each sandbox's last answer came from. */
	readonly #observed = new Map<string, Observed>();
	readonly #options: SandboxFactsOptions;

	constructor(options: SandboxFactsOptions) {
		this.#options = options;
		this.#runningCap = options.runningCap;
	}

	get rows(): ReadonlyMap<string, SandboxRow> {
		return this.#sandboxes;
	}

	get specs(): readonly SandboxSpec[] {
		return this.#specs;
	}

	get listed(): boolean {
		return this.#sandboxesListed;
	}

	get runningCap(): number | null {
		return this.#runningCap;
	}

	get capWatch(): CapWatch | null {
		return this.#capWatch;
	}

	setCapWatch(watch: CapWatch | null): void {
		this.#capWatch = watch;
	}

	/** Where and when this sandbox's last answer came from (undefined: never seen). */
	observed(key: string): Observed | undefined {
		return this.#observed.get(key);
	}

	markLinksDirty(): void {
		this.#linksDirty = true;
	}

	/** Before a publish: the sandbox rows' conversation keys follow the conversation rows. */
	relinkIfDirty(): void {
		if (!this.#linksDirty) return;
		this.#linksDirty = false;
		this.#sandboxes = relinkSandboxes(this.#sandboxes, this.#options.conversationKeys());
	}

	onSandboxes(items: readonly Sandbox[], complete: boolean, via: FactVia = complete ? 'list' : 'lookup'): void {
		const now = this.#options.now();
		if (complete) {
			this.#linksDirty = false;
			this.#sandboxesListed = true;
		}
		this.#observe(items, now, via);
		const merged = mergeSandboxes(this.#sandboxes, items, {
			now,
			conversationKeys: this.#options.conversationKeys(),
			capWatch: this.#capWatch,
			actionTimeoutMs: this.#options.actionTimeoutMs,
			complete,
		});
		if (merged.notices.length > 0) {
			const level = worst(merged.notices.map((notice) => notice.level)) ?? 'info';
			for (const text of new Set(merged.notices.map((notice) => notice.text))) this.#options.notice(text, level);
		}

		const watch = this.#capWatch;
		if (watch) {
			// The service kept (others running before - those it paused) + the new one: that is its cap.
			let pausedNow = 0;
			for (const [key, row] of merged.rows) if (row.pausedByCap && !this.#sandboxes.get(key)?.pausedByCap) pausedNow++;
			if (pausedNow > 0) this.#runningCap = watch.runningBefore.size - pausedNow + 1;
			this.#checkCapWatch(watch, merged.rows, now, pausedNow > 0);
		}

		if (merged.changed) {
			const before = this.#sandboxes;
			this.#sandboxes = merged.rows;
			this.#options.changed();
			// A sandbox's reason shows on its conversations' rows: rebuild those whose reason changed.
			for (const [key, row] of merged.rows) {
				const old = before.get(key)?.sandbox;
				const detail = row.sandbox.status_detail ?? null;
				if ((old?.status_detail ?? null) === detail && (detail === null || old?.status === row.sandbox.status)) continue;
				for (const conversationKey of row.conversationKeys) this.#options.refreshRow(conversationKey);
			}
		}
		this.#noteSessions(merged.rows);

		this.updateWatch();
	}

	/**
	 * The list must not say "paused" while p and r still say "pausing…" until the next sandbox
	 * poll: conversations that show the awaited status settle the action now.
	 */
	confirmFromConversations(items: readonly AppConversation[]): void {
		const confirmed = confirmedByConversations(this.#sandboxes, items);
		if (confirmed.length > 0) this.onSandboxes(confirmed, false, 'search');
	}

	#observe(items: readonly Sandbox[], receivedAt: number, via: FactVia): void {
		const observedAt = this.#options.onDataClock(receivedAt);
		for (const sandbox of items) this.#observed.set(sandboxKey(sandbox), {server: this.#options.server, observedAt, receivedAt, via});
	}

	/**
	 * When each sandbox's running session began, as far as seen: a change to RUNNING after the first
	 * sight is exact; one already running at first sight began at its creation at the earliest.
	 */
	#noteSessions(rows: ReadonlyMap<string, SandboxRow>): void {
		for (const [key, row] of rows) {
			const status = String(row.sandbox.status).toUpperCase();
			const seen = this.#sessions.get(key);
			if (seen?.status === status) continue;
			const started = seen !== undefined && status === 'RUNNING' ? this.#options.serverNow() : null;
			this.#sessions.set(key, {status, runningSince: started});
		}
	}

	sessionStart(conversation: AppConversation): {at: number; exact: boolean} | null {
		if (String(conversation.sandbox_status) !== 'RUNNING' || !conversation.sandbox_id) return null;
		const key = sandboxKeyOf(this.#sandboxes, conversation.sandbox_id);
		const seen = this.#sessions.get(key);
		if (seen?.runningSince != null) return {at: seen.runningSince, exact: true};
		const created = parseTime(this.#sandboxes.get(key)?.sandbox.created_at);
		return created === null ? null : {at: created, exact: false};
	}

	/** Tells the poller which sandboxes to look up quickly (none: back to the slow full list). */
	updateWatch(): void {
		// The cap watch itself outlives the resume (the service may pause the other sandbox a bit
		// later); the slow full list still sees that until the watch expires.
		this.#options.watchSandboxes(watchedSandboxIds(this.#sandboxes, this.#capWatch));
	}

	/**
	 * The question said what the service would pause; this checks it against what the service did.
	 * The resume (or start) is done when its sandbox runs (or its task is READY); the sandboxes that
	 * were running are then waited for `capGraceMs` more, looked up meanwhile, and a difference
	 * either way is said in a notice. The watch ends there, or once every named one is PAUSED.
	 */
	#checkCapWatch(watch: CapWatch, rows: ReadonlyMap<string, SandboxRow>, now: number, pausedNow: boolean): void {
		if (watch.settledAt === null && watch.resumedKey !== '') {
			const resumed = rows.get(watch.resumedKey);
			if (resumed && !resumed.pending) this.settleCapWatch(now);
		}

		const named = watch.predicted.length > 0 && watch.predicted.every((key) => String(rows.get(key)?.sandbox.status).toUpperCase() === 'PAUSED');
		const final = now > watch.until || (watch.settledAt !== null && named);
		const verdict = pausedNow || final ? capVerdict(rows, watch, final) : null;
		if (verdict) this.#options.notice(verdict.text, verdict.level);
		if (final) this.#capWatch = null;
	}

	/** The resume or start the cap watch is about is done: the named sandboxes get `capGraceMs` more. */
	settleCapWatch(now: number): void {
		const watch = this.#capWatch;
		if (!watch || watch.settledAt !== null) return;
		this.#capWatch = {...watch, settledAt: now, until: Math.min(watch.until, now + capGraceMs(now - watch.startedAt))};
		// Anything the question did not foresee shows in the whole list: read it once more now.
		this.#options.refreshSandboxes();
	}

	/** A start may make the service pause the oldest other running sandboxes: watch for it. */
	watchStart(label: string): void {
		this.#capWatch = capWatchFor(this.#sandboxes, '', label, this.#runningCap, this.#options.now(), this.#options.actionTimeoutMs);
	}

	onSpecs(items: readonly SandboxSpec[]): void {
		const same =
			items.length === this.#specs.length && items.every((spec, index) => JSON.stringify(spec) === JSON.stringify(this.#specs[index]));
		if (same) return;
		this.#specs = items;
		this.#options.changed();
	}

	setPending(key: string, pending: SandboxRow['pending']): void {
		const row = this.#sandboxes.get(key);
		if (!row) return;
		const next = new Map(this.#sandboxes);
		next.set(key, {...row, pending});
		this.#sandboxes = next;
		this.#options.changed();
	}

	/** Where a conversation's workspace is, as far as the sandbox and spec lists say (git-paths.ts). */
	workspaceOf(conversation: AppConversation): {sandboxWorkingDir: string | null; specWorkingDir: string | null; sharedSandbox: boolean} {
		const row = conversation.sandbox_id ? this.#sandboxes.get(normalizeId(conversation.sandbox_id)) : undefined;
		const spec = row?.sandbox.sandbox_spec_id ? this.#specs.find((candidate) => candidate.id === row.sandbox.sandbox_spec_id) : undefined;
		return {sandboxWorkingDir: row?.sandbox.working_dir ?? null, specWorkingDir: spec?.working_dir ?? null, sharedSandbox: (row?.conversationKeys.length ?? 0) > 1};
	}

	/**
	 * Why its sandbox is as it is, when the sandbox list says so for the status this conversation
	 * shows (the two lists are polled apart; a reason for another status would mislead).
	 */
	sandboxDetail(conversation: AppConversation): string | null {
		if (!conversation.sandbox_id) return null;
		const sandbox = this.#sandboxes.get(normalizeId(conversation.sandbox_id))?.sandbox;
		if (!sandbox?.status_detail) return null;
		return String(sandbox.status).toUpperCase() === String(conversation.sandbox_status ?? '').toUpperCase() ? sandbox.status_detail : null;
	}

	/** Its sandbox shows a status that may have a reason (ERROR, STARTING, UNKNOWN, …) the sandbox list does not show yet. */
	sandboxNeedsReason(conversation: AppConversation): boolean {
		const status = String(conversation.sandbox_status ?? '').toUpperCase();
		if (!conversation.sandbox_id || ['RUNNING', 'PAUSED', 'MISSING', ''].includes(status)) return false;
		const key = normalizeId(conversation.sandbox_id);
		const listed = this.#sandboxes.get(key)?.sandbox.status;
		if (!this.#sandboxesListed || String(listed ?? '').toUpperCase() === status) return false;
		// Once per sandbox and status: a sandbox the list never shows must not cost a list per poll.
		if (this.#reasonAsked.get(key) === status) return false;
		this.#reasonAsked.set(key, status);
		return true;
	}
}

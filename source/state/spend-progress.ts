import type {AppConversation} from '../wire/schemas/app.js';
import type {WireEvent} from '../wire/schemas/events.js';
import type {EventSearchParams, EventPage} from '../wire/agent-client.js';
import {CostHistory, costRise} from './spend.js';

/**
 * *Spending without progress*: a running conversation whose cost keeps rising while its agent
 * has not taken an action nor received an observation for `afterMs` (`--spend-after`). Cost comes
 * from the polls (spend.ts); progress is asked of the conversation's agent server, and only for
 * the candidates (sandbox running, agent running, cost rising), at most one probe at a time and
 * each candidate at most every `probeEveryMs`:
 *   the newest event, the newest ActionEvent that is a valid call (an invalid call the model got
 *   wrong is not progress; it is the classic way to spend without any), the newest observation.
 * The gap between the newest event and the newest progress is measured on the agent server's own
 * clock (its timestamps are naive local times: only differences between them mean anything),
 * and placed on the servers' clock once per distinct progress, so the flag's age stays still.
 * A git change is progress too (a build writing files, work done outside the agent's own calls):
 * each probe also reads the repository's changed files (`gitState`), and a list unlike the last
 * probe's places progress at that probe (it happened since the one before; the later bound, so
 * a flag is never early). Only the list is read, not the diffs: a file already changed that
 * changes again is seen by its action, not by git.
 */

export type ProgressMark = {
	/** Servers' clock (ms) of the probe's answer. */
	checkedAt: number;
	/** The newest progress event's timestamp as the agent server wrote it (null: none found). */
	stamp: string | null;
	/** Servers' clock estimate of that progress: the probe's time minus the gap the server's own stamps show. */
	progressAt: number;
	/** The repository's changed files at the probe (`gitState`'s answer), when read. */
	git?: string | null;
};

export type SpendVerdict = {
	/** Servers' clock estimate of the last progress. */
	since: number;
	/** USD spent since then (as far as watched). */
	spent: number;
};

/**
 * The verdict for one conversation: flagged when, at the last probe, the last progress was
 * already `afterMs` old (between probes nothing is known of progress, so only what a probe saw
 * counts), and the cost rose within the last `afterMs`. Null otherwise, or while no probe has answered.
 */
export function spendingWithoutProgress(history: CostHistory, key: string, mark: ProgressMark | null | undefined, now: number, afterMs: number): SpendVerdict | null {
	if (!mark) return null;
	if (mark.checkedAt - mark.progressAt < afterMs) return null;
	const recent = costRise(history, key, now - afterMs, now);
	if (recent === null || recent <= 0) return null;
	const spent = costRise(history, key, mark.progressAt, now) ?? recent;
	return {since: mark.progressAt, spent: Math.round(spent * 100) / 100};
}

/** What a probe needs of the agent server (AgentClient's searchEvents). */
export type ProbeClient = {searchEvents(params: EventSearchParams): Promise<EventPage>};

/** Milliseconds of a naive (or zoned) ISO timestamp, for differences between stamps of one server only. */
export function stampMs(stamp: string): number | null {
	const zoned = /(?:Z|[+-]\d\d:?\d\d)$/i.test(stamp);
	const trimmed = stamp.replace(/(\.\d{3})\d+/, '$1');
	const ms = Date.parse(zoned ? trimmed : `${trimmed}Z`);
	return Number.isNaN(ms) ? null : ms;
}

function isProgress(event: WireEvent): boolean {
	if (event.kind === 'ActionEvent') return event.action !== null;
	return event.kind === 'ObservationEvent';
}

/**
 * One probe: the newest event's stamp and the newest progress's. Three small reads (limit 1, and
 * 10 actions to step over invalid ones); a fourth, the very first event, only when the agent has
 * never made progress (its whole life is then the gap).
 */
export async function probeProgress(client: ProbeClient, signal?: AbortSignal): Promise<{newest: string | null; progress: string | null}> {
	const read = (params: EventSearchParams) => client.searchEvents({...params, ...(signal ? {signal} : {})});
	const [newest, actions, observations] = await Promise.all([
		read({sortOrder: 'TIMESTAMP_DESC', limit: 1}),
		read({kind: 'ActionEvent', sortOrder: 'TIMESTAMP_DESC', limit: 10}),
		read({kind: 'ObservationEvent', sortOrder: 'TIMESTAMP_DESC', limit: 1}),
	]);
	const newestStamp = newest.events[0]?.timestamp ?? null;
	const candidates: string[] = [];
	const valid = actions.events.find((event) => isProgress(event));
	if (valid) candidates.push(valid.timestamp);
	// Ten invalid calls in a row: progress was before the oldest of them, at the latest.
	else if (actions.events.length === 10) candidates.push(actions.events.at(-1)!.timestamp);
	const observation = observations.events.find((event) => isProgress(event));
	if (observation) candidates.push(observation.timestamp);
	if (candidates.length === 0) {
		const first = await read({sortOrder: 'TIMESTAMP', limit: 1});
		return {newest: newestStamp, progress: first.events[0]?.timestamp ?? null};
	}
	const latest = candidates.reduce((a, b) => ((stampMs(a) ?? 0) >= (stampMs(b) ?? 0) ? a : b));
	return {newest: newestStamp, progress: latest};
}

export type SpendWatchOptions = {
	afterMs: number;
	/** The servers' clock. */
	now(): number;
	/** The agent server of a conversation (throws when it has none). */
	client(conversation: AppConversation): ProbeClient;
	/** A probe changed what is known of a conversation: recompute its row. */
	changed(key: string): void;
	/** Each candidate is probed at most this often (default: a quarter of afterMs, 5 s to 60 s). */
	probeEveryMs?: number;
	/**
	 * The repository's changed files as one comparable text (state/git-progress.ts), or null when
	 * they cannot be read; a probe whose list differs from the last one's counts as progress.
	 */
	gitState?(conversation: AppConversation, signal: AbortSignal): Promise<string | null>;
};

const agentAtWork = new Set(['running']);

/**
 * The store's part: cost samples of every conversation, progress marks of the candidates, and
 * the probes that keep them. `observe` is called for each polled conversation; `verdict` is read
 * when its row is built.
 */
export class SpendWatch {
	readonly history = new CostHistory();
	readonly #marks = new Map<string, ProgressMark>();
	readonly #options: SpendWatchOptions;
	readonly #probeEveryMs: number;
	readonly #queue: Array<{key: string; conversation: AppConversation}> = [];
	readonly #queued = new Set<string>();
	#busy = false;
	#closed = false;
	#abort = new AbortController();

	constructor(options: SpendWatchOptions) {
		this.#options = options;
		this.#probeEveryMs = options.probeEveryMs ?? Math.min(60_000, Math.max(5000, Math.floor(options.afterMs / 4)));
	}

	get afterMs(): number {
		return this.#options.afterMs;
	}

	/** A polled conversation: its cost, and a probe when it is a candidate whose mark is due. */
	observe(key: string, conversation: AppConversation, agentStatus: string | null): void {
		const now = this.#options.now();
		this.history.observe(key, conversation.metrics?.accumulated_cost, now);
		const working = String(conversation.sandbox_status) === 'RUNNING' && agentAtWork.has(String(agentStatus ?? '').toLowerCase());
		if (!working) {
			// A stopped agent spends nothing: its mark would be stale when it runs again.
			this.#marks.delete(key);
			return;
		}
		const rising = (costRise(this.history, key, now - this.#options.afterMs, now) ?? 0) > 0;
		if (!rising) return;
		const mark = this.#marks.get(key);
		if (mark && now < this.#dueAt(mark)) return;
		this.#enqueue(key, conversation);
	}

	/**
	 * The next probe: the usual interval, or sooner when the last progress it saw turns `afterMs`
	 * old before then (so the flag comes when the time is up, not up to an interval later); never
	 * within 2 s of the last one.
	 */
	#dueAt(mark: ProgressMark): number {
		return Math.max(mark.checkedAt + 2000, Math.min(mark.checkedAt + this.#probeEveryMs, mark.progressAt + this.#options.afterMs));
	}

	verdict(key: string): SpendVerdict | null {
		return spendingWithoutProgress(this.history, key, this.#marks.get(key), this.#options.now(), this.#options.afterMs);
	}

	forget(key: string): void {
		this.history.forget(key);
		this.#marks.delete(key);
	}

	close(): void {
		this.#closed = true;
		this.#abort.abort();
		this.#queue.length = 0;
		this.#queued.clear();
	}

	#enqueue(key: string, conversation: AppConversation): void {
		if (this.#queued.has(key) || this.#closed) return;
		this.#queued.add(key);
		this.#queue.push({key, conversation});
		void this.#drain();
	}

	async #drain(): Promise<void> {
		if (this.#busy) return;
		this.#busy = true;
		try {
			for (let next = this.#queue.shift(); next && !this.#closed; next = this.#queue.shift()) {
				try {
					await this.#probe(next.key, next.conversation);
				} finally {
					// Queued until answered: a poll while it is probed must not queue it again.
					this.#queued.delete(next.key);
				}
			}
		} finally {
			this.#busy = false;
		}
	}

	async #probe(key: string, conversation: AppConversation): Promise<void> {
		const previous = this.#marks.get(key);
		let answer: {newest: string | null; progress: string | null};
		try {
			answer = await probeProgress(this.#options.client(conversation), this.#abort.signal);
		} catch {
			// Unreachable agent server: try again at the next due time, keeping what was known.
			if (previous) this.#marks.set(key, {...previous, checkedAt: this.#options.now()});
			return;
		}
		const git = this.#options.gitState ? await this.#options.gitState(conversation, this.#abort.signal).catch(() => null) : null;
		if (this.#closed) return;
		const now = this.#options.now();
		const newest = answer.newest === null ? null : stampMs(answer.newest);
		const progress = answer.progress === null ? null : stampMs(answer.progress);
		if (newest === null || progress === null || answer.progress === null) return;
		// The same progress as before keeps its place in time; a new one is placed now.
		let progressAt = previous && previous.stamp === answer.progress ? previous.progressAt : now - Math.max(0, newest - progress);
		// The changed files moved since the last probe: progress, at the latest now. (An unreadable
		// list keeps the last one known, so a failed read neither makes progress nor forgets it.)
		const gitNow = git ?? previous?.git ?? null;
		if (git !== null && previous?.git != null && git !== previous.git) progressAt = now;
		// Progress only goes forward: an older event found later does not undo a git change.
		if (previous) progressAt = Math.max(progressAt, previous.progressAt);
		this.#marks.set(key, {checkedAt: now, stamp: answer.progress, progressAt, git: gitNow});
		if (!previous || previous.progressAt !== progressAt) this.#options.changed(key);
	}
}

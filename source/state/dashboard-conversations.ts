import {normalizeId} from '../wire/ids.js';
import {deadFacts, type DeadOptions} from './dead-group.js';
import type {AppConversation} from '../wire/schemas/app.js';
import {subAgentReason} from './attention.js';
import {onDataClock} from './age-basis.js';
import type {AnswerTiming} from './conversation-poller.js';
import {buildRow, conversationKey, parentKeyOf, statusSignature} from './conversation-rows.js';
import {SubAgentIndex} from './sub-agent-index.js';
import type {ConversationRow} from './dashboard-types.js';
import {type DashboardClocks, parseUtc} from './dashboard-clocks.js';
import type {SandboxFacts} from './dashboard-sandboxes.js';
import type {DashboardTimeline} from './dashboard-timeline.js';
import type {DashboardSpend} from './dashboard-spend.js';
import type {NoticeLevel} from './dashboard-notices.js';
import type {ErrorCauses} from './error-causes.js';
import type {FinalResponses} from './final-responses.js';
import {type Fact, type FactVia, type Observed, fact} from './fact.js';
import {shortId} from './sandbox-rows.js';

/**
 * The fleet's rows: one server's conversations as its answers said them (facts, each kept with
 * where and when it came: `observed(key)`, `fact(key)`), and each row built from them with what
 * the client infers beside them (status times, rates, causes, ages on the data clock). Only
 * poller answers (and the start flow's own answer) write here. The rows Map is shared with the
 * published snapshot and copied on the first change after a publish.
 */

/** What the rows are built with: the other concerns of the same dashboard, wired by dashboard-store.ts. */
export type ConversationPeers = {
	server: string;
	now: () => number;
	quietAfterMs: number;
	repeatThreshold: number | undefined;
	/** When an ERROR/MISSING conversation is dead and a STARTING sandbox a cause (state/dead-group.ts). */
	dead: DeadOptions;
	clocks: DashboardClocks;
	sandboxes: SandboxFacts;
	timeline: DashboardTimeline;
	spend: DashboardSpend;
	errorCauses: () => ErrorCauses;
	finalResponses: () => FinalResponses;
	notice: (text: string, level: NoticeLevel) => void;
	refreshSandboxes: () => void;
	changed: () => void;
	/** What the repeat scan found of a conversation's newest calls (state/repeat-scan.ts). */
	repeatOf: (key: string) => {tool: string; count: number} | null;
	/** A conversation whose status the server no longer says and that has none kept: read its last one (state/last-status-reads.ts). */
	wantLastStatus: (key: string, conversation: AppConversation) => void;
	/** After each answer of conversations (the repeat scan follows the running ones). */
	answered: () => void;
};

export class ConversationFacts {
	/** Working rows; shared with the published snapshot until the first change after a flush. */
	#rows: Map<string, ConversationRow> = new Map();
	#rowsOwned = false;
	#conversationsListed = false;
	/** key -> the agent's and the sandbox's status, and when the store saw each appear (null: before it looked). */
	#statusSeen = new Map<string, {agent: string; agentSince: number | null; sandbox: string; sandboxSince: number | null}>();
	/** The last execution status seen per conversation: the server sends none once its sandbox stops. */
	#lastKnownStatus = new Map<string, string>();
	/** Parents and their sub-conversations: a child that needs you raises its parent. */
	readonly #subAgents = new SubAgentIndex();
	/** Where and when each conversation's last answer came from. */
	readonly #observed = new Map<string, Observed>();
	readonly #peers: ConversationPeers;

	constructor(peers: ConversationPeers) {
		this.#peers = peers;
	}

	get rows(): ReadonlyMap<string, ConversationRow> {
		return this.#rows;
	}

	/** Whether the whole listing is in (the first full search walk done). */
	get listed(): boolean {
		return this.#conversationsListed;
	}

	/** The rows as a snapshot publishes them: from here on that Map is shared, and the next change copies it first. */
	publish(): ReadonlyMap<string, ConversationRow> {
		this.#rowsOwned = false;
		return this.#rows;
	}

	/** Where and when this conversation's last answer came from (undefined: not in the list). */
	observed(key: string): Observed | undefined {
		return this.#observed.get(key);
	}

	/** The conversation as its server last said it, with where and when. */
	fact(key: string): Fact<AppConversation> | undefined {
		const row = this.#rows.get(key);
		const observed = this.#observed.get(key);
		return row && observed ? fact(row.conversation, observed) : undefined;
	}

	/** The first full walk is in: ages resting on the Date header alone may now be told. */
	walkComplete(): void {
		if (this.#conversationsListed) return;
		this.#conversationsListed = true;
		this.onConversations([]);
		this.#peers.changed();
	}

	#mutableRows(): Map<string, ConversationRow> {
		if (!this.#rowsOwned) {
			this.#rows = new Map(this.#rows);
			this.#rowsOwned = true;
		}

		return this.#rows;
	}

	#observe(items: readonly AppConversation[], receivedAt: number, via: FactVia): void {
		if (items.length === 0) return;
		const observedAt = this.#peers.clocks.onDataClock(receivedAt);
		for (const conversation of items) this.#observed.set(conversationKey(conversation), {server: this.#peers.server, observedAt, receivedAt, via});
	}


	#rowFor(key: string, conversation: AppConversation, previous: ConversationRow | undefined): ConversationRow {
		const timeline = this.#peers.timeline.sessionFor(key);
		const streamStatus = timeline?.executionStatus ?? null;
		const live = streamStatus ?? conversation.execution_status;
		if (live) this.#lastKnownStatus.set(key, String(live));
		else if (!this.#lastKnownStatus.has(key)) this.#peers.wantLastStatus(key, conversation);
		const signature = statusSignature(conversation, live ? String(live) : (this.#lastKnownStatus.get(key) ?? null));
		const seen = this.#statusSeen.get(key);
		if (!seen) {
			// First sight: the transition time is unknown; updated_at then is the best the server gives,
			// kept, so a later updated_at (its sandbox paused) does not make an old status look new.
			const updatedAt = parseUtc(conversation.updated_at);
			this.#statusSeen.set(key, {agent: signature.agent, agentSince: updatedAt, sandbox: signature.sandbox, sandboxSince: updatedAt});
		} else if (seen.agent !== signature.agent || seen.sandbox !== signature.sandbox) {
			const now = this.#peers.clocks.serverNow();
			// An agent status seen for the first time (none was known: its sandbox was not running) is
			// no transition we saw happen: it began by updated_at, as on first sight.
			const agentSince = seen.agent === '' ? parseUtc(conversation.updated_at) : now;
			this.#statusSeen.set(key, {
				agent: signature.agent,
				agentSince: seen.agent === signature.agent ? seen.agentSince : agentSince,
				sandbox: signature.sandbox,
				sandboxSince: seen.sandbox === signature.sandbox ? seen.sandboxSince : now,
			});
		}

		const children = [...this.#subAgents.children(key)].flatMap((child) => this.#rows.get(child) ?? []);
		const now = this.#peers.clocks.serverNow();
		const spend = this.#peers.spend.rowSpend(key, conversation, live ? String(live) : null, now);
		const status = this.#lastKnownStatus.get(key) ?? null;
		// In error: why. Read once per error (a later error has a later updated_at).
		const errorCause = status === 'error' ? this.#peers.errorCauses().causeFor(key, conversation, String(conversation.updated_at ?? '')) : undefined;
		// Its goal loop, as its open timeline says (remembered after it closes: nothing else says it).
		const goal = this.#peers.timeline.goalFor(key, timeline);
		const streamActivity = this.#peers.timeline.streamActivity(key);
		return buildRow(previous, conversation, {
			sandboxDetail: this.#peers.sandboxes.sandboxDetail(conversation),
			subAgent: children.length === 0 ? null : subAgentReason(children),
			costPerHour: spend.costPerHour,
			spending: spend.spending,
			sessionStart: this.#peers.sandboxes.sessionStart(conversation),
			lastKnownStatus: status,
			...(errorCause === undefined ? {} : {errorCause}),
			...(goal === undefined ? {} : {goal}),
			now: this.#peers.clocks.serverNow(),
			quietAfterMs: this.#peers.quietAfterMs,
			...(this.#peers.clocks.agesKnown ? {} : {agesKnown: false, quietSeenMs: this.#peers.clocks.heldFor(key)}),
			...deadFacts(this.#peers.dead),
			ageBasis: this.#peers.clocks.dataClock.ageBasis(),
			...(this.#peers.repeatThreshold === undefined ? {} : {repeatThreshold: this.#peers.repeatThreshold}),
			streamStatus,
			events: timeline?.currentEvents ?? null,
			repeat: this.#peers.repeatOf(key),
			// Arrivals are on our clock: placed on the data's, as every time they are compared with.
			streamActivityAt: streamActivity === undefined ? null : onDataClock(streamActivity, this.#peers.clocks.serverNow() - this.#peers.now()),
			statusSince: this.#statusSeen.get(key)?.agentSince ?? null,
			sandboxStatusSince: this.#statusSeen.get(key)?.sandboxSince ?? null,
			unseenEvents: this.#peers.timeline.unseen(key),
		});
	}


	onConversations(items: readonly AppConversation[], timing?: AnswerTiming, via: FactVia = 'search'): void {
		// What the whole answer says of the clock first: whether ages can be told holds for every row.
		const flipped = this.#peers.clocks.observeAnswer(items, timing, (key) => this.#rows.get(key)?.conversation, this.#conversationsListed);
		// Each conversation's answer kept with its server and time (on the data clock as this answer left it).
		this.#observe(items, timing?.receivedAt ?? this.#peers.now(), via);
		let changed = false;
		const parents = new Set<string>();
		for (const conversation of items) {
			const key = conversationKey(conversation);
			const previous = this.#rows.get(key);
			const linked = this.#subAgents.link(key, parentKeyOf(conversation));
			const row = this.#rowFor(key, conversation, previous);
			if (row === previous) continue;
			this.#mutableRows().set(key, row);
			changed = true;
			for (const parent of linked) parents.add(parent);
			if (!previous || previous.conversation.sandbox_id !== row.conversation.sandbox_id) this.#peers.sandboxes.markLinksDirty();
			this.#peers.timeline.sessionFor(key)?.update(conversation);
		}

		this.#refreshParents(parents);
		if (flipped) {
			// Ages became known (or doubtful): every row's age-based reasons (quiet) follow at once.
			const listed = new Set(items.map((conversation) => conversationKey(conversation)));
			for (const key of [...this.#rows.keys()]) if (!listed.has(key)) this.refreshRow(key);
			changed = true;
		}
		if (changed) {
			this.#peers.changed();
			// Rows on screen that changed may have a new last answer.
			this.#peers.finalResponses().changed();
		}
		// A sandbox that went into trouble says why only in the sandbox list: read it now, not a minute later.
		if (items.some((conversation) => this.#peers.sandboxes.sandboxNeedsReason(conversation))) this.#peers.refreshSandboxes();
		// The list must not say "paused" while p and r still say "pausing…" until the next
		// sandbox poll: a conversation that shows the awaited status settles the action now.
		this.#peers.sandboxes.confirmFromConversations(items);
		this.#peers.answered();
	}

	/** The agent's last status read from the stored copy (an UNKNOWN sandbox's): kept unless one is known already. */
	noteLastKnownStatus(key: string, status: string | null): void {
		if (status === null || this.#lastKnownStatus.has(key)) return;
		this.#lastKnownStatus.set(key, status);
		this.refreshRow(key);
	}

	/**
	 * Recomputes one row from its current conversation (stream status, events, unseen, its
	 * sandbox's reason or its sub-agents changed); its parent follows when it changed.
	 */
	refreshRow(key: string): void {
		if (this.#rebuild(key)) this.#refreshParents([key].flatMap((child) => this.#subAgents.parentOf(child) ?? []));
	}

	#rebuild(key: string): boolean {
		const previous = this.#rows.get(key);
		if (!previous) return false;
		const row = this.#rowFor(key, previous.conversation, previous);
		if (row === previous) return false;
		this.#mutableRows().set(key, row);
		this.#peers.changed();
		return true;
	}

	/** Rebuilds these parents, then theirs while something changed (each once: ids can loop). */
	#refreshParents(keys: Iterable<string>): void {
		const seen = new Set<string>();
		let queue = [...keys];
		while (queue.length > 0) {
			const next: string[] = [];
			for (const key of queue) {
				if (seen.has(key)) continue;
				seen.add(key);
				const grandparent = this.#subAgents.parentOf(key);
				if (this.#rebuild(key) && grandparent) next.push(grandparent);
			}
			queue = next;
		}
	}

	/**
	 * A look-up answered null: the server does not know the id any more (deleted, or no longer
	 * visible to this user). The row is removed rather than kept as MISSING: MISSING is a real
	 * sandbox status with another meaning (the conversation exists, its runtime does not), and a
	 * ghost row would invite actions that can only fail. An open timeline stays open, with a notice.
	 */
	onRemoved(keys: readonly string[]): void {
		let removed = 0;
		const parents: string[] = [];
		for (const key of keys) {
			if (!this.#rows.has(key)) continue;
			this.#mutableRows().delete(key);
			const parent = this.#subAgents.unlink(key);
			if (parent) parents.push(parent);
			this.#statusSeen.delete(key);
			this.#lastKnownStatus.delete(key);
			this.#peers.finalResponses().forget(key);
			this.#peers.clocks.forget(key);
			this.#observed.delete(key);
			this.#peers.spend.forget(key);
			this.#peers.errorCauses().forget(key);
			this.#peers.timeline.forget(key);
			removed++;
		}

		if (removed === 0) return;
		this.#refreshParents(parents);
		this.#peers.sandboxes.markLinksDirty();
		const open = this.#peers.timeline.session?.key;
		if (open && keys.includes(open)) {
			this.#peers.notice(`Conversation ${shortId(open)} no longer exists on the server.`, 'warn');
		}

		this.#peers.changed();
	}

	conversationKeysBySandbox(): Map<string, string[]> {
		const index = new Map<string, string[]>();
		for (const row of this.#rows.values()) {
			const sandboxId = row.conversation.sandbox_id;
			if (!sandboxId) continue;
			const key = normalizeId(sandboxId);
			const list = index.get(key);
			if (list) list.push(row.key);
			else index.set(key, [row.key]);
		}

		for (const list of index.values()) list.sort();
		return index;
	}
}

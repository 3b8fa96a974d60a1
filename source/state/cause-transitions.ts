import {type CauseJson, causeJson, causeOf, type Cause} from './causes.js';
import type {ConversationRow} from './dashboard-types.js';
import type {StatusTransition} from './status-transitions.js';

/**
 * Each change of a conversation's cause (state/causes.ts, what `!` groups it by): became waiting,
 * an error (with its classification once read), stuck, repeating, quiet, spending without
 * progress, a sandbox down or paused mid-run, or cleared. `watch --json` prints one line per
 * change and `watch --alert-command` gets the same object, so a script can page on it.
 *
 * The first observation is the baseline: nothing is said of causes that were there when `watch`
 * began. Repeating is known only once a conversation's newest events were read (state/
 * repeat-scan.ts), after the first list, so one already looping is said then. A new error whose
 * classification is still being read (`error:unread`) is held up to `unreadWaitMs` for it, and so
 * is a sandbox ERROR for its reason (as the status lines are, commands/sandbox-reason-wait.ts), then
 * said as it is; `force` (watch ending) says it at once.
 */
export type CauseTransition = Omit<StatusTransition, 'which' | 'from' | 'to' | 'error_cause'> & {
	which: 'cause';
	/** The same conversation id as `id`, under the name the dashboard's alert objects use. */
	conversation_id: string;
	/** The previous cause's key (`approval`, `error:rate_limit`, `stuck`, …), or null when there was none. */
	from: string | null;
	/** The new cause's key, or null: cleared. */
	to: string | null;
	/** The new cause's kind, or `cleared`. */
	kind: Cause['kind'] | 'cleared';
	/** The cause it had before, whole (null: none). */
	previous_cause: CauseJson | null;
	/** The server it happened on (its label: profile or host). */
	server: string;
	/** When it was seen, on that server's clock (the data clock's offset applied), ISO. */
	server_time: string;
};

export type CauseContext = {server: string; now: number; clockOffsetMs: number};

const unreadWaitMs = 10_000;

export class CauseTransitions {
	readonly #last = new Map<string, Cause | null>();
	/** When a row was first seen as `error:unread` (held for its classification). */
	readonly #unreadSince = new Map<string, number>();
	#baseline = true;

	observe(rows: Iterable<ConversationRow>, context: CauseContext, force = false): CauseTransition[] {
		const transitions: CauseTransition[] = [];
		const baseline = this.#baseline;
		this.#baseline = false;
		for (const row of rows) {
			// A snoozed row leaves the alerts (state/snoozed-dashboard.ts): its changes are not said
			// while it sleeps; the next one after it wakes is, from what was said last.
			if (row.snoozed && !baseline) continue;
			const cause = causeOf(row);
			const previous = this.#last.has(row.key) ? this.#last.get(row.key)! : undefined;
			if (baseline || previous === undefined) {
				// Not a change: the state it had when first seen (a new conversation starts with its cause said, if any).
				this.#last.set(row.key, cause);
				if (!baseline && previous === undefined && cause) transitions.push(transition(row, null, cause, context));
				continue;
			}
			if ((previous?.key ?? null) === (cause?.key ?? null) || refines(previous, cause)) {
				// The same cause, known better now (its error's class read, its sandbox's reason): no change.
				this.#last.set(row.key, cause);
				this.#unreadSince.delete(row.key);
				continue;
			}
			if (awaitsDetail(cause) && !force) {
				const since = this.#unreadSince.get(row.key) ?? context.now;
				this.#unreadSince.set(row.key, since);
				if (context.now - since < unreadWaitMs) continue;
			}
			this.#unreadSince.delete(row.key);
			this.#last.set(row.key, cause);
			transitions.push(transition(row, previous, cause, context));
		}
		return transitions;
	}

	/** Rows held for their error's classification (the caller looks again after a second while any are). */
	get holding(): boolean {
		return this.#unreadSince.size > 0;
	}
}

/** A cause whose words are still being read: an error's class, a sandbox's reason for ERROR (as the status lines wait for it). */
function awaitsDetail(cause: Cause | null): boolean {
	return cause?.key === 'error:unread' || (cause?.kind === 'sandbox_down' && cause.sandboxStatus === 'ERROR' && !cause.detail);
}

/** The same cause, told more precisely: an error whose class was unread, a sandbox down whose reason came. */
function refines(previous: Cause | null, cause: Cause | null): boolean {
	if (!previous || !cause || previous.kind !== cause.kind) return false;
	if (previous.kind === 'error') return previous.errorKind === 'unread';
	if (previous.kind === 'sandbox_down') return previous.sandboxStatus === cause.sandboxStatus && !previous.detail && Boolean(cause.detail);
	return false;
}

function transition(row: ConversationRow, previous: Cause | null, cause: Cause | null, context: CauseContext): CauseTransition {
	return {
		time: new Date(context.now).toISOString(),
		server_time: new Date(context.now + context.clockOffsetMs).toISOString(),
		server: context.server,
		id: row.key,
		conversation_id: row.key,
		title: row.conversation.title ?? '',
		which: 'cause',
		from: previous?.key ?? null,
		to: cause?.key ?? null,
		kind: cause?.kind ?? 'cleared',
		reason: row.attention[0]?.kind ?? null,
		cause: causeJson(cause),
		previous_cause: causeJson(previous),
		parent_conversation_id: row.conversation.parent_conversation_id ?? null,
		sandbox_status_detail: row.sandboxDetail ?? null,
	};
}

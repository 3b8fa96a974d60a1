import {type ErrorCauseJson, errorCauseJson} from '../wire/error-classification.js';
import {causeJson, causeOf, type CauseJson} from './causes.js';
import type {ConversationRow} from './dashboard-types.js';

/**
 * Status transitions of conversations, each reported once: what `agent-tui watch` prints and
 * what an alert would ring for. A conversation has two statuses, reported apart and named: its
 * agent's (execution status) and its sandbox's. When the sandbox stops, the server stops sending
 * an agent status (it is null unless the sandbox runs): that is not a change of the agent, whose
 * last known status is kept; only the sandbox's change is reported.
 *
 * Exactly once, whatever the polling does: the first complete list is the baseline (nothing is
 * reported for how things already were); a re-poll, a reconnect or a refresh that brings the
 * same statuses reports nothing; a conversation missing from one answer keeps its last status
 * (a page that shifted is not a disappearance); one that appears after the baseline is reported
 * once, from `null` (its agent status, or its sandbox's while it has none).
 */

export type StatusTransition = {
	/** ISO time the change was seen. */
	time: string;
	id: string;
	title: string;
	/** Which status changed: the agent's (execution status) or its sandbox's. */
	which: 'agent' | 'sandbox';
	/** Lower case, as the server spells agent statuses (`paused`, `waiting_for_confirmation`). */
	from: string | null;
	to: string;
	/** Why it needs a person now (the first attention reason), or null. */
	reason: string | null;
	/** The cause the queue groups it by (state/causes.ts), or null: what `watch --json` says of it. */
	cause: CauseJson | null;
	/** A sub-conversation's parent (a `task` sub-agent's, a planning agent's), or null. */
	parent_conversation_id: string | null;
	/** Why its sandbox is as it is (`status_detail`: `ImagePullBackOff`), when the sandbox said; else null. */
	sandbox_status_detail: string | null;
	/**
	 * On a change of the agent's status to `error`: why, as its newest ConversationErrorEvent says
	 * (with the SDK's classification on newer servers); null when it has none or it could not be
	 * read. Absent on other transitions, and while it is not known yet (`row.errorCause`).
	 */
	error_cause?: ErrorCauseJson | null;
};

type Seen = {agent: string | null; sandbox: string};

function statusesOf(row: ConversationRow): Seen {
	const agent = row.conversation.execution_status;
	return {
		agent: agent ? String(agent).toLowerCase() : null,
		sandbox: String(row.conversation.sandbox_status ?? 'MISSING').toLowerCase(),
	};
}

export class TransitionDetector {
	readonly #last = new Map<string, Seen>();
	#baselined = false;

	/** Feeds the current rows; returns the transitions since the previous call. */
	observe(rows: Iterable<ConversationRow>, now: number = Date.now()): StatusTransition[] {
		const transitions: StatusTransition[] = [];
		const time = new Date(now).toISOString();
		for (const row of rows) {
			const current = statusesOf(row);
			const previous = this.#last.get(row.key);
			// An agent status that went away with its sandbox stays what it last was.
			const agent = current.agent ?? previous?.agent ?? null;
			this.#last.set(row.key, {agent, sandbox: current.sandbox});
			if (!this.#baselined) continue;
			const base = {
				time,
				id: row.key,
				title: row.conversation.title ?? '',
				reason: row.attention[0]?.kind ?? null,
				parent_conversation_id: row.conversation.parent_conversation_id ?? null,
				sandbox_status_detail: row.sandboxDetail ?? null,
				cause: causeJson(causeOf(row)),
			};
			if (!previous) {
				transitions.push(agent === null ? {...base, which: 'sandbox', from: null, to: current.sandbox} : {...base, which: 'agent', from: null, to: agent, ...causeField(row, agent)});
				continue;
			}
			if (previous.sandbox !== current.sandbox) transitions.push({...base, which: 'sandbox', from: previous.sandbox, to: current.sandbox});
			if (agent !== null && previous.agent !== agent) transitions.push({...base, which: 'agent', from: previous.agent, to: agent, ...causeField(row, agent)});
		}
		this.#baselined = true;
		return transitions;
	}
}

/** `error_cause` for a transition into error, once the row knows it (else nothing: the caller may wait for it). */
function causeField(row: ConversationRow, to: string): {error_cause?: ErrorCauseJson | null} {
	if (to !== 'error' || row.errorCause === undefined) return {};
	return {error_cause: row.errorCause ? errorCauseJson(row.errorCause) : null};
}

/** Whether a transition waits for its cause: into error, cause not known yet. */
export function awaitsCause(transition: StatusTransition): boolean {
	return transition.which === 'agent' && transition.to === 'error' && transition.error_cause === undefined;
}

/** A held transition into error, completed from the row as it is now: its error's cause, and the queue's cause of the row. */
export function withErrorCause(transition: StatusTransition, row: ConversationRow | undefined): StatusTransition {
	if (!row) return {...transition, error_cause: null};
	return {...transition, cause: causeJson(causeOf(row)), error_cause: row.errorCause ? errorCauseJson(row.errorCause) : null};
}

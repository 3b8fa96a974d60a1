import type {ConversationRow} from './dashboard-types.js';

/**
 * Status transitions of conversations, each reported once: what `agent-tui watch` prints and
 * what an alert would ring for. A conversation's status here is its execution status, or its
 * sandbox's status when the sandbox is not running (a paused or missing conversation is not
 * "running" whatever its last execution status said).
 *
 * Exactly once, whatever the polling does: the first complete list is the baseline (nothing is
 * reported for how things already were); a re-poll, a reconnect or a refresh that brings the
 * same statuses reports nothing; a conversation missing from one answer keeps its last status
 * (a page that shifted is not a disappearance); one that appears after the baseline is reported
 * once, from `null`.
 */

export type StatusTransition = {
	/** ISO time the change was seen. */
	time: string;
	id: string;
	title: string;
	from: string | null;
	to: string;
	/** Why it needs a person now (the first attention reason), or null. */
	reason: string | null;
};

export function conversationStatus(row: ConversationRow): string {
	const sandbox = String(row.conversation.sandbox_status ?? 'MISSING').toUpperCase();
	if (sandbox !== 'RUNNING') return sandbox.toLowerCase();
	return String(row.conversation.execution_status ?? 'unknown').toLowerCase();
}

export class TransitionDetector {
	readonly #last = new Map<string, string>();
	#baselined = false;

	/** Feeds the current rows; returns the transitions since the previous call. */
	observe(rows: Iterable<ConversationRow>, now: number = Date.now()): StatusTransition[] {
		const transitions: StatusTransition[] = [];
		const time = new Date(now).toISOString();
		for (const row of rows) {
			const status = conversationStatus(row);
			const previous = this.#last.get(row.key);
			if (previous === status) continue;
			this.#last.set(row.key, status);
			if (!this.#baselined) continue;
			transitions.push({
				time,
				id: row.key,
				title: row.conversation.title ?? '',
				from: previous ?? null,
				to: status,
				reason: row.attention[0]?.kind ?? null,
			});
		}
		this.#baselined = true;
		return transitions;
	}
}

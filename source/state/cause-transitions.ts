import {causeJson, causeOf} from './causes.js';
import type {ConversationRow} from './dashboard-types.js';
import type {StatusTransition} from './status-transitions.js';

/**
 * A conversation that starts re-sending the same call (state/repeat-scan.ts) changes no status,
 * so `watch` would never say it: reported here as a change of its cause, once, when its row first
 * shows `repeating` (and again only after it stopped). No baseline, unlike the status
 * transitions: repeating is only known once the conversation's newest events were read, which is
 * after the first list, so a conversation already looping when `watch` began is reported then.
 */
export type CauseTransition = Omit<StatusTransition, 'which' | 'from' | 'to' | 'error_cause'> & {which: 'cause'; from: string | null; to: 'repeating'};

export class RepeatingTransitions {
	readonly #last = new Map<string, string | null>();

	observe(rows: Iterable<ConversationRow>, now: number = Date.now()): CauseTransition[] {
		const transitions: CauseTransition[] = [];
		for (const row of rows) {
			const cause = causeOf(row);
			const repeating = row.attention.some((reason) => reason.kind === 'repeating');
			const previous = this.#last.get(row.key);
			const was = previous === 'repeating';
			this.#last.set(row.key, repeating ? 'repeating' : (cause?.key ?? null));
			if (!repeating || was) continue;
			transitions.push({
				time: new Date(now).toISOString(),
				id: row.key,
				title: row.conversation.title ?? '',
				which: 'cause',
				from: previous ?? null,
				to: 'repeating',
				reason: row.attention[0]?.kind ?? null,
				cause: causeJson(cause),
				parent_conversation_id: row.conversation.parent_conversation_id ?? null,
				sandbox_status_detail: row.sandboxDetail ?? null,
			});
		}
		return transitions;
	}
}

import {executionStatusStyle} from '../format/status-style.js';
import type {ConversationCounts} from '../state/conversation-query.js';

/** Statuses in triage order: what needs a person first, then what is moving, then what is done. */
const order = ['waiting_for_confirmation', 'error', 'stuck', 'running', 'paused', 'idle', 'finished', 'deleting'];
const attention = new Set(['waiting_for_confirmation', 'error', 'stuck']);

export type CountSegment = {text: string; color: string | undefined; attention: boolean};

/**
 * `2 waiting 1 error 5 running 3 finished 4 not running` for the header: status words, not just
 * colours, so the counts read the same on a monochrome terminal.
 */
export function countSegments(counts: ConversationCounts): CountSegment[] {
	const segments: CountSegment[] = [];
	const known = new Set(order);
	const statuses = [...order, ...[...counts.byStatus.keys()].filter((status) => !known.has(status) && status !== 'none').sort()];
	for (const status of statuses) {
		const count = counts.byStatus.get(status) ?? 0;
		if (count === 0) continue;
		const style = executionStatusStyle(status);
		segments.push({text: `${count} ${style.word}`, color: style.color, attention: attention.has(status)});
	}
	const none = counts.byStatus.get('none') ?? 0;
	// Rows whose agent status was never seen: their sandbox was already stopped when we looked.
	if (none > 0) segments.push({text: `${none} no status`, color: 'gray', attention: false});
	if (counts.total === 0) segments.push({text: 'no conversations', color: 'gray', attention: false});
	return segments;
}

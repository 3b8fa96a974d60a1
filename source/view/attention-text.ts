import type {AttentionReason} from '../state/dashboard-types.js';
import {formatAge} from '../format/time.js';

/**
 * Short words for why a conversation needs a person, for the list (`stuck 4m`) and the preview
 * (`stuck for 4m`). The kinds come from the state layer; wording is the view's.
 */
/** `now` null: without the time (the shortest form, for a narrow row). */
export function attentionShort(reason: AttentionReason, now: number | null): string {
	const since = now !== null && 'since' in reason && reason.since !== null ? ` ${formatAge(Math.max(0, now - reason.since))}` : '';
	switch (reason.kind) {
		case 'waiting_for_confirmation':
			return `approve?${since}`;
		case 'error':
			return `error${since}`;
		case 'stuck':
			return `stuck${since}`;
		case 'sandbox_error':
			return `sandbox ${reason.status.toLowerCase()}`;
		case 'quiet':
			return now === null ? 'quiet' : `quiet ${formatAge(reason.quietForMs)}`;
		case 'repeating':
			return now === null ? `${reason.count}×` : `${reason.count}× ${reason.tool}`;
	}
}

export function attentionLong(reason: AttentionReason, now: number): string {
	const since = 'since' in reason && reason.since !== null ? ` for ${formatAge(Math.max(0, now - reason.since))}` : '';
	const last = 'lastKnown' in reason && reason.lastKnown ? ' (last known: its sandbox has stopped since)' : '';
	switch (reason.kind) {
		case 'waiting_for_confirmation':
			return `waiting for you to approve an action${since}${last}`;
		case 'error':
			return `the agent stopped with an error${since}${last}`;
		case 'stuck':
			return `the agent is stuck${since}${last}`;
		case 'sandbox_error':
			return reason.status === 'ERROR' ? 'its sandbox failed (ERROR): it cannot be resumed' : `its sandbox is ${reason.status}`;
		case 'quiet':
			return `running but quiet for ${formatAge(reason.quietForMs)}`;
		case 'repeating':
			return `repeated the same ${reason.tool} call ${reason.count} times`;
	}
}

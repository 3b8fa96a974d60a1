import type {AttentionReason} from '../state/dashboard-types.js';
import {formatCost} from '../format/numbers.js';
import {causeLong, causeShort, failureKindWords} from '../format/error-cause.js';
import {formatAge, type AgeNow} from '../format/time.js';

/**
 * Short words for why a conversation needs a person, for the list (`stuck 4m`) and the preview
 * (`stuck for 4m`). The kinds come from the state layer; wording is the view's. Text from the
 * server (a sandbox's status_detail, a sub-agent's title) is returned as is: callers sanitize.
 */
/**
 * `now` null: without the time (the shortest form, for a narrow row); `unknown`: ages cannot be
 * told yet (the data's clock is not known), so the words without them.
 */
export function attentionShort(reason: AttentionReason, now: AgeNow | null): string {
	const since = typeof now === 'number' && 'since' in reason && reason.since !== null ? ` ${formatAge(Math.max(0, now - reason.since))}` : '';
	switch (reason.kind) {
		case 'waiting_for_confirmation':
			return `approve?${since}`;
		case 'error':
			// The cause, when known, is what a person decides on: `error 4m · rate limit · retryable`.
			return reason.cause ? `error${since} · ${causeShort(reason.cause)}` : `error${since}`;
		case 'stuck':
			return `stuck${since}`;
		case 'sandbox_error':
			// The runtime's reason is what a person acts on (`ImagePullBackOff`); the SANDBOX column
			// beside it already says the status. Without one, or in the shortest form, the status.
			return reason.detail && now !== null ? reason.detail : `sandbox ${reason.status.toLowerCase()}`;
		case 'spending':
			return now === null ? '$ stalled' : `$ stalled${since}`;
		case 'quiet':
			// Not an age on the data's clock: how long it wrote nothing (`≥`: as long as the dashboard watched).
			return now === null ? 'quiet' : `quiet ${reason.atLeast ? '≥' : ''}${formatAge(reason.quietForMs)}`;
		case 'repeating':
			return now === null ? `${reason.count}×` : `${reason.count}× ${reason.tool}`;
		case 'sub_agent':
			// Short: the sub-agent is right under it, named in the preview.
			return `sub: ${attentionShort(reason.reason, now)}`;
	}
}

export function attentionLong(reason: AttentionReason, now: AgeNow): string {
	const since = now !== 'unknown' && 'since' in reason && reason.since !== null ? ` for ${formatAge(Math.max(0, now - reason.since))}` : '';
	const last = 'lastKnown' in reason && reason.lastKnown ? ' (last known: its sandbox has stopped since)' : '';
	switch (reason.kind) {
		case 'waiting_for_confirmation':
			return `waiting for you to approve an action${since}${last}`;
		case 'error':
			return `the agent stopped with an error${since}${last}${reason.cause ? `: ${causeLong(reason.cause)}` : ''}`;
		case 'stuck':
			return `the agent is stuck${since}${last}`;
		case 'sandbox_error':
			return sandboxTrouble(reason);
		case 'spending':
			return `${formatCost(reason.spent)} spent${now === 'unknown' ? '' : ` in ${formatAge(Math.max(0, now - reason.since))}`} without an action or observation`;
		case 'quiet':
			return `running but quiet for ${reason.atLeast ? 'at least ' : ''}${formatAge(reason.quietForMs)}${reason.atLeast ? ' (watched here; the data clock is not yet known)' : ''}`;
		case 'repeating':
			return `repeated the same ${reason.tool} call ${reason.count} times`;
		case 'sub_agent': {
			// What it needs first, then which sub-agent: a sub-agent's title is long ("Sub-agent
			// (task): …"), and at 80 columns whatever follows it is cut.
			const name = reason.child.title ? `"${reason.child.title}"` : 'untitled';
			const others = reason.count > 1 ? ` (${reason.count} sub-agents need you)` : '';
			return `a sub-agent needs you: ${attentionLong(reason.reason, now)}${others} · ${name} (${reason.child.key.slice(0, 8)})`;
		}
	}
}

/** A sandbox in trouble, in words: what its status means for the agent, then the runtime's reason. */
function sandboxTrouble(reason: Extract<AttentionReason, {kind: 'sandbox_error'}>): string {
	const why = reason.detail ? `: ${reason.detail}` : '';
	switch (reason.status) {
		case 'ERROR':
			return `its sandbox failed (ERROR${why}): it cannot be resumed`;
		case 'STARTING':
			return `its sandbox is not starting${why}`;
		case 'MISSING':
			return `its sandbox is MISSING${why}`;
		case 'UNKNOWN':
			return `its sandbox's status is UNKNOWN (${reason.detail ?? 'its provider is unavailable'}): what its agent does now cannot be seen`;
		default:
			return `its sandbox reports ${reason.status}, a status this client does not know${why}: its agent was at work`;
	}
}

/**
 * The list badge's words, longest first, for a row with `room` cells to spare: with the time and
 * the cause, without the time; for an error then the cause alone (the status column already says
 * error), the kind of failure alone, and the error without its cause.
 */
export function attentionVariants(reason: AttentionReason, now: AgeNow): string[] {
	const variants = [attentionShort(reason, now), attentionShort(reason, null)];
	if (reason.kind === 'error' && reason.cause) {
		// Narrow rows: the status column already says error; the kind of failure is what is left to say.
		const kind = reason.cause.classification ? failureKindWords(reason.cause.classification) : null;
		const bare = {...reason, cause: undefined};
		variants.push(causeShort(reason.cause), ...(kind ? [kind] : []), attentionShort(bare, now), attentionShort(bare, null));
	}
	return variants;
}

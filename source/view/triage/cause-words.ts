import {sanitizeLine} from '../../format/sanitize.js';
import type {Cause, CauseGroup} from '../../state/causes.js';
import {keyOf} from '../keymap.js';

/**
 * The queue's words: what a group of conversations has in common (`error · rate limit ·
 * retryable`, `sandbox error: ImagePullBackOff`) and what the person can do about it: the key of
 * the group's remedy, or, where no remedy is safe, what has to change and where. Pure.
 */

function errorWords(kind: NonNullable<Cause['errorKind']>): string {
	if (kind === 'unread') return 'error (reading why…)';
	if (kind === 'unclassified') return 'error (not classified)';
	return `error · ${kind.replaceAll('_', ' ')}`;
}

export function causeLabel(cause: Cause): string {
	switch (cause.kind) {
		case 'approval':
			return 'waiting for approval';
		case 'error':
			return `${errorWords(cause.errorKind ?? 'unread')}${cause.retryable === true ? ' · retryable' : ''}`;
		case 'stuck':
			return 'stuck';
		case 'spending':
			return 'spending without progress';
		case 'sandbox_down':
			if (String(cause.sandboxStatus) === 'STARTING') return `sandbox not starting: ${cause.detail ? sanitizeLine(cause.detail) : 'no reason given'}`;
			return `sandbox ${String(cause.sandboxStatus).toLowerCase()}${cause.detail ? `: ${sanitizeLine(cause.detail)}` : ''}`;
		case 'quiet':
			return 'running but quiet';
		case 'repeating':
			return 'repeating a tool call';
		case 'paused':
			return 'paused mid-run';
	}
}

/** What to do about a group: its remedy's key, or what has to change (nothing is done here). */
export function causeAdvice(group: CauseGroup): string {
	const cause = group.cause;
	const count = group.keys.length;
	if (group.remedy === 'run') return `${keyOf('runAll')} runs ${count === 1 ? 'it' : `all ${count}`} again`;
	if (group.remedy === 'resume') return `${keyOf('resumeAll')} resumes their sandboxes (says what the cap pauses)`;
	switch (cause.kind) {
		case 'approval':
			return `each is its own question: enter lists them, ${keyOf('approve')} shows what it runs`;
		case 'error':
			if (cause.errorKind === 'quota') return 'the budget is spent: raise max_budget_per_task in the settings, then run them again';
			if (cause.errorKind === 'auth') return 'the LLM key was refused: fix it in the settings; nothing here can';
			if (cause.errorKind === 'config') return 'fix the LLM settings (model, base URL); nothing here can';
			if (cause.errorKind === 'unread') return 'their errors are being read';
			return 'not retryable: enter lists them to read each error';
		case 'stuck':
			return `enter lists them: read the loop, then ${keyOf('nudge')} redirects one`;
		case 'spending':
			return `enter lists them; ${keyOf('interrupt')} stops one (its sandbox keeps running)`;
		case 'sandbox_down':
			return sandboxAdvice(String(cause.sandboxStatus));
		case 'quiet':
			return 'enter lists them: running, but nothing for a while';
		case 'repeating':
			return 'enter lists them: the same call again and again';
		case 'paused':
			return `${keyOf('resumeAll')} resumes their sandboxes`;
	}
}

function sandboxAdvice(status: string): string {
	switch (status.toUpperCase()) {
		case 'ERROR':
			return 'the sandbox failed and cannot be resumed: start the work again';
		case 'MISSING':
			return 'the runtime is gone: its history is still readable';
		case 'UNKNOWN':
			return 'the provider cannot say: wait; nothing here can help';
		case 'STARTING':
			return 'it has not started in time: its reason says why (capacity, image); waiting may not help';
		default:
			return 'enter lists them';
	}
}

import {readGoal} from '../wire/goal.js';
import type {EventOf} from '../wire/schemas/events.js';
import type {DetailDocumentBuilder} from './event-detail-document.js';
import {statsCost} from './event-values.js';
import {goalNeedsLook} from './goal.js';
import {prettyJson} from './json.js';
import {formatCost} from './numbers.js';

/** The details of the conversation's own machinery (event-details.ts): a state update (the goal loop, stats), a hook's run. */

export function stateUpdateDetails(doc: DetailDocumentBuilder, event: EventOf<'ConversationStateUpdateEvent'>): void {
	doc.field('key', event.key || '(no key)');
	const goal = event.key === 'goal' ? readGoal(event.value) : null;
	if (goal) {
		// The goal loop: where it stands and what the judge said last (conversation/goal/controller.py).
		doc.field('goal', `${goal.status}${goal.active ? ' (active)' : ''}`, goalNeedsLook(goal) ? 'warn' : 'normal');
		doc.field('iteration', goal.maxIterations === null ? goal.iteration : `${goal.iteration} of ${goal.maxIterations}`);
		doc.field('objective', goal.objective);
		if (goal.verdict) {
			const {score, complete, missing} = goal.verdict;
			doc.field('verdict', [complete === null ? null : complete ? 'complete' : 'not complete', score === null ? null : `score ${score.toFixed(2)}`].filter(Boolean).join(' · '));
			doc.field('missing', missing);
		}
	}

	if (event.key === 'stats') {
		const cost = statsCost(event.value);
		if (cost !== null) doc.field('cost', formatCost(cost));
	}

	if (event.value === undefined) doc.field('value', 'none (the field became None)', 'muted');
	else if (typeof event.value === 'string') doc.field('value', event.value);
	else doc.line('value', 'label').text(prettyJson(event.value), 'code');
}

export function hookDetails(doc: DetailDocumentBuilder, event: EventOf<'HookExecutionEvent'>): void {
	doc.field('hook', event.hook_event_type).field('command', event.hook_command).field('tool', event.tool_name);
	if (event.blocked) doc.line('blocked        yes', 'warn');
	if (event.success != null) doc.field('success', event.success ? 'yes' : 'no', event.success ? 'normal' : 'error');
	if (typeof event.exit_code === 'number') doc.field('exit code', event.exit_code, event.exit_code === 0 ? 'normal' : 'error');
	doc.field('reason', event.reason, event.blocked ? 'warn' : 'normal');
	doc.field('error', event.error, 'error');
	doc.field('action id', event.action_id, 'muted').field('message id', event.message_id, 'muted');
	if (event.additional_context) doc.blank().line('additional context', 'label').text(event.additional_context);
	if (event.stdout) doc.blank().line('stdout', 'label').text(event.stdout, 'code');
	if (event.stderr) doc.blank().line('stderr', 'label').text(event.stderr, 'error');
	if (event.hook_input !== undefined) doc.blank().line('input', 'label').text(prettyJson(event.hook_input), 'code');
}

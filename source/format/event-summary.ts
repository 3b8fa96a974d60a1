import {contentText, eventKindName} from '../wire/event-fields.js';
import type {EventOf, WireEvent} from '../wire/schemas/events.js';
import {readClassification} from '../wire/error-classification.js';
import {readGoal} from '../wire/goal.js';
import {goalNeedsLook, goalObjective, goalWords} from './goal.js';
import {classificationWords} from './error-cause.js';
import {describeActionEvent} from './event-summary-actions.js';
import {line, type Line, type SummaryTone} from './event-summary-line.js';
import {describeObservation, withExtendedContent} from './event-summary-observations.js';
import {compactJson, firstLine, plural, statsCost, stringAt} from './event-values.js';
import {formatCost, formatCount} from './numbers.js';
import {sanitizeLine} from './sanitize.js';
import {formatClock} from './time.js';

/**
 * One line per event for the timeline: what happened, in the words a person scanning a run looks
 * for (`$ pytest -q`, `edit src/app.py (str_replace)`, `exit 1 · 3 lines`). Pure and cheap: it
 * reads a bounded prefix of any text, so a 5 MB observation costs one newline count. Every string
 * it returns is sanitized. Tool calls have their words in event-summary-actions.ts, their results
 * in event-summary-observations.ts.
 */

export type {SummaryTone} from './event-summary-line.js';

export type EventSummary = {
	kind: string;
	source: string;
	time: string;
	text: string;
	tone: SummaryTone;
};

export function eventSummary(event: WireEvent): EventSummary {
	const {text, tone} = describe(event);
	return {
		kind: sanitizeLine(eventKindName(event)),
		source: sanitizeLine(event.source),
		time: sanitizeLine(formatClock(event.timestamp)),
		text: sanitizeLine(text),
		tone,
	};
}

function describe(event: WireEvent): Line {
	switch (event.kind) {
		case 'ActionEvent': {
			return describeActionEvent(event);
		}

		case 'ObservationEvent': {
			return withExtendedContent(describeObservation(event.observation, event.tool_name), event.extended_content);
		}

		case 'MessageEvent': {
			const text = firstLine(contentText(event.llm_message.content));
			const who = event.sender ? `${event.llm_message.role} (${event.sender})` : event.llm_message.role;
			const skills = event.activated_skills.length > 0 ? ` [${plural(event.activated_skills.length, 'skill')}]` : '';
			return line(`${who}: ${text || '(no text)'}${skills}`);
		}

		case 'UserRejectObservation': {
			const by = event.rejection_source === 'hook' ? 'blocked by hook' : `rejected by ${event.rejection_source}`;
			return line(`${by}: ${event.tool_name} · ${firstLine(event.rejection_reason)}`, 'warn');
		}

		case 'AgentErrorEvent': {
			return line(`${event.tool_name} error${classified(event.classification)}: ${firstLine(event.error)}`, 'error');
		}

		case 'ConversationErrorEvent': {
			return line(`${event.code}${classified(event.classification)}: ${firstLine(event.detail)}`, 'error');
		}

		case 'SystemPromptEvent': {
			return line(`system prompt · ${plural(event.tools?.length ?? 0, 'tool')}`, 'muted');
		}

		case 'Condensation': {
			return describeCondensation(event);
		}

		case 'CondensationRequest': {
			return line('condensation requested', 'muted');
		}

		case 'CondensationSummaryEvent': {
			return line(`condensation summary: ${firstLine(event.summary)}`, 'muted');
		}

		case 'ConversationStateUpdateEvent': {
			return describeStateUpdate(event);
		}

		case 'PauseEvent': {
			return line(`paused by ${event.source}`, 'warn');
		}

		case 'InterruptEvent': {
			return line(`interrupted by ${event.source}`, 'warn');
		}

		case 'HookExecutionEvent': {
			return describeHook(event);
		}

		case 'LLMCompletionLogEvent': {
			return line(`llm log ${event.model_name} · ${event.filename}`, 'muted');
		}

		case 'TokenEvent': {
			const prompt = event.prompt_token_ids?.length ?? 0;
			const response = event.response_token_ids?.length ?? 0;
			return line(`tokens: ${formatCount(prompt)} prompt, ${formatCount(response)} response`, 'muted');
		}

		case 'ACPToolCallEvent': {
			const status = event.status ? ` · ${event.status}` : '';
			return line(`${event.title ?? event.tool_kind ?? 'tool call'}${status}`, event.is_error ? 'error' : 'normal');
		}

		case 'StreamingDeltaEvent': {
			return line(`streaming: ${firstLine(event.content ?? event.reasoning_content ?? '')}`, 'muted');
		}

		case 'ServerErrorEvent': {
			return line(`server error ${event.code ?? ''}: ${firstLine(event.detail ?? '')}`, 'error');
		}

		case 'UnknownEvent': {
			const invalid = event.problem === 'unknown event kind' ? '' : ` (${event.problem})`;
			return line(`unknown: ${eventKindName(event)}${invalid}`, 'warn');
		}
	}
}

/** ` (rate limit · retryable)` after an error's name, or nothing when the server did not classify it. */
function classified(value: unknown): string {
	const classification = readClassification(value);
	return classification ? ` (${classificationWords(classification)})` : '';
}

function describeCondensation(event: EventOf<'Condensation'>): Line {
	const forgot = `forgot ${plural(event.forgotten_event_ids.length, 'event')}`;
	return line(event.summary ? `${forgot} · ${firstLine(event.summary)}` : forgot, 'warn');
}

const urgentStatuses: Record<string, SummaryTone> = {
	error: 'error',
	stuck: 'error',
	waiting_for_confirmation: 'warn',
	paused: 'warn',
};

function describeStateUpdate(event: EventOf<'ConversationStateUpdateEvent'>): Line {
	const {key, value} = event;
	if (key === 'execution_status' && typeof value === 'string') {
		return line(`execution_status → ${value}`, urgentStatuses[value] ?? 'muted');
	}

	if (key === 'stats') {
		const cost = statsCost(value);
		return line(cost === null ? `stats: ${compactJson(value, 80)}` : `stats: ${formatCost(cost)}`, 'muted');
	}

	if (key === 'goal') {
		const goal = readGoal(value);
		if (!goal) return line('goal cleared', 'muted');
		const objective = goalObjective(goal);
		return line(`${goalWords(goal)}${objective ? ` · ${objective}` : ''}`, goalNeedsLook(goal) ? 'warn' : 'normal');
	}

	if (key === 'full_state') {
		const status = stringAt(value, 'execution_status');
		return line(`full state${status ? ` · execution_status ${status}` : ''}`, 'muted');
	}

	// A field that became None arrives without a value (exclude_none).
	return line(`${key || '(no key)'} → ${value === undefined ? 'none' : compactJson(value, 100)}`, 'muted');
}

function describeHook(event: EventOf<'HookExecutionEvent'>): Line {
	const tool = event.tool_name ? ` ${event.tool_name}` : '';
	const command = event.hook_command ? ` · ${firstLine(event.hook_command, 80)}` : '';
	if (event.blocked) return line(`hook ${event.hook_event_type}${tool} blocked${event.reason ? `: ${firstLine(event.reason)}` : ''}`, 'warn');
	if (event.success === false || event.error) {
		const why = event.error ?? event.stderr ?? '';
		const code = typeof event.exit_code === 'number' ? ` exit ${event.exit_code}` : '';
		return line(`hook ${event.hook_event_type}${tool} failed${code}${why ? `: ${firstLine(why)}` : ''}`, 'error');
	}

	return line(`hook ${event.hook_event_type}${tool} ok${command}`, 'muted');
}

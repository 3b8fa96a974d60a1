import {actionKindName, contentText, eventKindName, isUnfamiliarAction, observationIsError, observationText} from '../wire/event-fields.js';
import {unknownObservationKind} from '../wire/schemas/unknown-kinds.js';
import type {EventOf, WireEvent} from '../wire/schemas/events.js';
import {readClassification} from '../wire/error-classification.js';
import {classificationWords} from './error-cause.js';
import {type DetailDocument, DetailDocumentBuilder} from './event-detail-document.js';
import {kindLabel} from './event-kind-label.js';
import {describeAction, eventSummary, invalidCallArguments, terminalExitCode} from './event-summary.js';
import {lineCounts, patchFileWords, readPatch} from './apply-patch.js';
import {readGoal} from '../wire/goal.js';
import {goalNeedsLook} from './goal.js';
import type {Action} from '../wire/schemas/actions.js';
import type {Observation} from '../wire/schemas/observations.js';
import {countLines, plural, statsCost} from './event-values.js';
import {formatCost, formatCount} from './numbers.js';
import {prettyJson, prettyJsonString} from './json.js';

/**
 * What the details view shows for one event, as a document of sanitized lines (see
 * event-detail-document.ts for why it is never materialised whole). Lookups across the log (the
 * observation that answered an action, what a condensation forgot) are done by the caller with
 * the state layer's selectors and passed in, so this stays a pure function of its inputs.
 */

export type ActionOutcome = EventOf<'ObservationEvent'> | EventOf<'UserRejectObservation'> | EventOf<'AgentErrorEvent'>;

export type DetailContext = {
	/** For an ActionEvent: the observation, rejection or agent error that answered it, if any. */
	outcome?: ActionOutcome | null;
	/** For an observation, rejection or agent error: the action it answers, if known. */
	action?: EventOf<'ActionEvent'> | null;
	/** For a Condensation: the forgotten events still in the log (forgottenEvents()). */
	forgotten?: readonly WireEvent[] | null;
	/** For a Condensation: list the forgotten events (toggled in the view). */
	showForgotten?: boolean;
	/** The zone of naive event times (`UTC+1`); null or absent: not known yet. */
	zone?: string | null;
};

export function eventDetails(event: WireEvent, width: number, context: DetailContext = {}): DetailDocument {
	const doc = new DetailDocumentBuilder(width);
	header(doc, event, context.zone ?? null);
	switch (event.kind) {
		case 'ActionEvent': {
			toolCallDetails(doc, event, context.outcome ?? null, context.zone ?? null);
			break;
		}

		case 'ObservationEvent':
		case 'UserRejectObservation':
		case 'AgentErrorEvent': {
			outcomeDetails(doc, event);
			// Undefined: the caller did not look it up; null: it looked and the action is not loaded.
			if (context.action !== undefined) answeredAction(doc, context.action, context.zone ?? null);
			break;
		}

		case 'MessageEvent': {
			messageDetails(doc, event);
			break;
		}

		case 'Condensation': {
			condensationDetails(doc, event, context.forgotten ?? null, context.showForgotten ?? false);
			break;
		}

		case 'CondensationSummaryEvent': {
			doc.field('summary', event.summary);
			break;
		}

		case 'ConversationErrorEvent': {
			doc.field('code', event.code, 'error');
			doc.field('detail', event.detail, 'error');
			classification(doc, event.classification);
			break;
		}

		case 'ConversationStateUpdateEvent': {
			stateUpdateDetails(doc, event);
			break;
		}

		case 'HookExecutionEvent': {
			hookDetails(doc, event);
			break;
		}

		case 'SystemPromptEvent': {
			const names = (event.tools ?? []).map((tool) => toolName(tool)).filter(Boolean);
			doc.field('tools', names.length > 0 ? names.join(', ') : plural(event.tools?.length ?? 0, 'tool'));
			doc.line('system prompt', 'label').text(event.system_prompt.text);
			if (event.dynamic_context) doc.line('dynamic context', 'label').text(event.dynamic_context.text);
			break;
		}

		case 'LLMCompletionLogEvent': {
			doc.field('model', event.model_name).field('usage id', event.usage_id).field('file', event.filename);
			doc.line('log', 'label').text(prettyJsonString(event.log_data), 'code');
			break;
		}

		case 'TokenEvent': {
			doc.field('prompt tokens', event.prompt_token_ids?.length ?? 0);
			doc.field('response tokens', event.response_token_ids?.length ?? 0);
			break;
		}

		case 'ACPToolCallEvent': {
			doc.field('title', event.title).field('tool kind', event.tool_kind).field('status', event.status);
			doc.field('tool call id', event.tool_call_id);
			if (event.is_error) doc.line('error          yes', 'error');
			if (event.raw_input !== undefined) doc.line('input', 'label').text(prettyJson(event.raw_input), 'code');
			if (event.raw_output !== undefined) doc.line('output', 'label').text(prettyJson(event.raw_output), 'code');
			if (event.content?.length) doc.line('content', 'label').text(prettyJson(event.content), 'code');
			break;
		}

		case 'PauseEvent':
		case 'InterruptEvent':
		case 'CondensationRequest': {
			doc.line(eventSummary(event).text);
			break;
		}

		case 'StreamingDeltaEvent': {
			if (event.content) doc.line('content', 'label').text(event.content);
			if (event.reasoning_content) doc.line('reasoning', 'label').text(event.reasoning_content, 'muted');
			break;
		}

		case 'ServerErrorEvent': {
			doc.field('code', event.code, 'error').field('detail', event.detail, 'error');
			break;
		}

		case 'UnknownEvent': {
			doc.field('kind', eventKindName(event), 'warn');
			doc.field('problem', event.problem, 'warn');
			doc.line('raw event', 'label').text(prettyJson(event.raw), 'code');
			break;
		}
	}

	return doc.build();
}

function header(doc: DetailDocumentBuilder, event: WireEvent, zone: string | null): void {
	const summary = eventSummary(event);
	doc.heading(`${summary.kind} · ${summary.source} · ${event.timestamp}${timeZoneNote(event.timestamp, zone)}`);
	doc.line(summary.text, summary.tone === 'normal' ? 'normal' : summary.tone);
	doc.field('id', event.id, 'muted');
	doc.blank();
}

/** A tool call: what was asked (tool, arguments, thought, reasoning, risk) and what came back. */
/**
 * The zone an event time is in, said beside it: agent servers write naive local times, whose zone
 * is found by comparing with the app server's UTC (state/data-clock.ts); a time with its own zone
 * says it already.
 */
export function timeZoneNote(timestamp: string, zone: string | null): string {
	if (/(?:Z|[+-]\d{2}:?\d{2})$/i.test(timestamp.trim())) return '';
	return zone ? ` ${zone}` : ' (server local time, zone not known yet)';
}

export function toolCallDetails(doc: DetailDocumentBuilder, event: EventOf<'ActionEvent'>, outcome: ActionOutcome | null, zone: string | null = null): void {
	doc.field('tool', `${event.tool_name} (${event.action ? actionKindName(event.action) : 'invalid call'})`);
	if (event.action) {
		const {action} = event;
		const described = describeAction(action);
		if (described) doc.field('action', described);
		if (isUnfamiliarAction(action)) {
			// A kind this client does not know yet is still a valid call: its own fields say what it does.
			if (action.originalKind.startsWith('ClientAction_')) doc.field('client tool', 'declared by the client that started the conversation, which runs it', 'muted');
			ownFieldDetails(doc, action.raw);
		} else if (action.kind === 'UnknownAction') doc.field('problem', action.problem, 'warn');
		actionExtras(doc, action);
	} else {
		doc.field('invalid call', `the arguments did not make a valid ${event.tool_name} call, so nothing ran; the agent error that answered it is below`, 'error');
	}

	doc.field('security risk', event.security_risk, riskTone(event.security_risk));
	doc.field('summary', event.summary);
	if (event.critic_result) {
		const {score, message} = event.critic_result;
		doc.field('critic', `${score.toFixed(2)}${message ? ` · ${message}` : ''}`);
	}

	doc.field('tool call id', event.tool_call_id, 'muted');
	doc.field('response id', event.llm_response_id, 'muted');
	const thought = contentText(event.thought);
	if (thought.trim()) doc.blank().line('thought', 'label').text(thought);
	reasoning(doc, event);
	if (event.action?.kind === 'ApplyPatchAction') {
		// The patch is the argument: shown as the text it is, not as an escaped JSON string.
		doc.blank().line(`patch (${plural(countLines(event.action.patch), 'line')})`, 'label').text(event.action.patch, 'code');
	} else {
		doc.blank().line('arguments', 'label');
		if (event.tool_call) doc.text(prettyJsonString(event.tool_call.arguments), 'code');
		else if (event.action) doc.text(prettyJson(event.action.kind === 'UnknownAction' ? event.action.raw : event.action), 'code');
		else doc.line('  (none)', 'muted');
	}

	doc.blank();
	if (!outcome) {
		doc.line('result         none yet: no observation, rejection or error has answered this call', 'warn');
		return;
	}

	// The other event's time is in the same zone as the heading's, and says so as it does.
	doc.heading(`result · ${outcome.kind} · ${outcome.timestamp}${timeZoneNote(outcome.timestamp, zone)}`);
	outcomeDetails(doc, outcome);
}

/** What the one-line action leaves out, for the kinds that carry more: the files of a patch, a sub-agent's prompt. */
function actionExtras(doc: DetailDocumentBuilder, action: Action): void {
	switch (action.kind) {
		case 'ApplyPatchAction': {
			const summary = readPatch(action.patch);
			doc.field('changes', `${plural(summary.files.length + summary.moreFiles, 'file')} ${lineCounts(summary.added, summary.removed)}`);
			for (const file of summary.files) doc.line(`  ${file.operation.padEnd(7)} ${patchFileWords(file)}`);
			if (summary.moreFiles > 0) doc.line(`  … and ${plural(summary.moreFiles, 'more file')}`, 'muted');
			return;
		}

		case 'TaskAction': {
			doc.field('sub-agent', action.subagent_type ?? 'general-purpose').field('description', action.description).field('resumes', action.resume);
			doc.line('prompt', 'label').text(action.prompt);
			return;
		}

		case 'DelegateAction': {
			doc.field('command', action.command);
			(action.ids ?? []).forEach((id, index) => doc.line(`  ${id}${action.agent_types?.[index] ? ` (${action.agent_types[index]})` : ''}`));
			for (const [id, task] of Object.entries(action.tasks ?? {})) doc.field(`  ${id}`, task);
			return;
		}

		case 'SwitchLLMAction': {
			doc.field('profile', action.profile_name).field('reason', action.reason);
			return;
		}

		case 'VisionInspectAction': {
			doc.field('image', `#${action.image_index}`).field('profile', action.profile_name).field('question', action.question);
			return;
		}

		default:
	}
}

/** Fields an observation has beyond its output, for the kinds that carry them; any scalar field of a kind this client does not know. */
function observationExtras(doc: DetailDocumentBuilder, observation: Observation): void {
	switch (observation.kind) {
		case 'ApplyPatchObservation': {
			doc.field('message', observation.message).field('fuzz', observation.fuzz || null);
			for (const [path, change] of Object.entries(observation.commit?.changes ?? {})) doc.line(`  ${(change.type ?? '').padEnd(7)} ${path}${change.move_path ? ` → ${change.move_path}` : ''}`);
			return;
		}

		case 'TaskObservation': {
			doc.field('task id', observation.task_id).field('sub-agent', observation.subagent).field('status', observation.status);
			return;
		}

		case 'InvokeSkillObservation': {
			doc.field('skill', observation.skill_name);
			return;
		}

		case 'SwitchLLMObservation': {
			doc.field('profile', observation.profile_name).field('model', observation.active_model).field('reason', observation.reason);
			return;
		}

		case 'VisionInspectObservation': {
			doc.field('model', observation.model).field('question', observation.question).field('answer', observation.answer);
			return;
		}

		case 'UnknownObservation': {
			for (const key of Object.keys(observation.raw)) {
				const value = observation.raw[key];
				if (['kind', 'content', 'is_error', 'output', 'command', 'path', 'file_path', 'dir_path', 'pattern', 'metadata', 'exit_code', 'timeout'].includes(key)) continue;
				if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') doc.field(key.replaceAll('_', ' '), value);
			}
			return;
		}

		default:
	}
}

/** Every field but `kind`, one per line (long or structured values below their name). */
function ownFieldDetails(doc: DetailDocumentBuilder, raw: Record<string, unknown>): void {
	for (const key of Object.keys(raw)) {
		const value = raw[key];
		if (key === 'kind' || value === undefined) continue;
		if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') doc.field(key, value);
		else doc.line(key, 'label').text(prettyJson(value), 'code');
	}
}

/** An observation, a rejection (by the user or a hook) or an agent error. */
export function outcomeDetails(doc: DetailDocumentBuilder, event: ActionOutcome): void {
	switch (event.kind) {
		case 'ObservationEvent': {
			const {observation} = event;
			const record = (observation.kind === 'UnknownObservation' ? observation.raw : observation) as Record<string, unknown>;
			if (observation.kind !== 'UnknownObservation') doc.field('observation', observation.kind);
			else if (observation.problem === unknownObservationKind) doc.field('observation', observation.originalKind);
			else doc.field('observation', `${observation.originalKind} (invalid: ${observation.problem})`, 'warn');
			const isError = observationIsError(observation);
			const exitCode = terminalExitCode(record as Parameters<typeof terminalExitCode>[0]);
			// is_error first: -1 with an error is a command that failed or was refused, not one still running.
			if (exitCode === -1 && isError) doc.field('exit code', 'none: the command failed or was refused before it exited', 'error');
			else if (exitCode !== null) doc.field('exit code', exitCode === -1 ? '-1 (still running)' : exitCode, exitCode === 0 ? 'normal' : 'error');
			if (record.timeout === true) doc.line('timed out      yes', 'error');
			for (const key of ['command', 'path', 'file_path', 'dir_path', 'pattern']) {
				const value = record[key];
				if (typeof value === 'string') doc.field(key.replace('_', ' '), value);
			}

			observationExtras(doc, observation);
			const workingDir = (record.metadata as Record<string, unknown> | undefined)?.working_dir;
			if (typeof workingDir === 'string') doc.field('working dir', workingDir, 'muted');
			doc.field('is error', isError ? 'yes' : 'no', isError ? 'error' : 'muted');
			const output = observationText(observation);
			doc.line(`output (${plural(countLines(output), 'line')})`, 'label');
			if (output) doc.text(output, isError ? 'error' : 'code');
			else doc.line('  (empty)', 'muted');
			// What the service appended after the result (path-scoped rules and the like): the model read it too.
			const extended = contentText(event.extended_content);
			if (extended) doc.blank().line('added by agent context', 'label').text(extended, 'warn');
			return;
		}

		case 'UserRejectObservation': {
			doc.field('rejected by', event.rejection_source === 'hook' ? 'a hook (pre-tool-use)' : event.rejection_source, 'warn');
			doc.field('reason', event.rejection_reason, 'warn');
			doc.field('tool', event.tool_name);
			return;
		}

		case 'AgentErrorEvent': {
			doc.field('agent error', event.tool_name, 'error');
			doc.field('error', event.error, 'error');
			classification(doc, event.classification);
		}
	}
}

function answeredAction(doc: DetailDocumentBuilder, action: EventOf<'ActionEvent'> | null, zone: string | null): void {
	doc.blank();
	if (!action) {
		doc.line('answers        an action that is not in the loaded log', 'muted');
		return;
	}

	doc.heading(`answers · ActionEvent · ${action.timestamp}${timeZoneNote(action.timestamp, zone)}`);
	const described = action.action ? describeAction(action.action) : `invalid call · ${invalidCallArguments(action)}`;
	doc.field('tool', action.tool_name).field('action', described ?? action.summary ?? actionKindName(action.action));
	doc.field('id', action.id, 'muted');
}

/** A message: who said it, the text, skills it activated, reasoning and any tool calls it carried. */
export function messageDetails(doc: DetailDocumentBuilder, event: EventOf<'MessageEvent'>): void {
	const message = event.llm_message;
	doc.field('role', message.role).field('sender', event.sender);
	if (event.activated_skills.length > 0) doc.field('skills', event.activated_skills.join(', '));
	if (event.critic_result) doc.field('critic', `${event.critic_result.score.toFixed(2)}${event.critic_result.message ? ` · ${event.critic_result.message}` : ''}`);
	doc.blank().line('text', 'label');
	const text = contentText(message.content);
	if (text) doc.text(text);
	else doc.line('  (no text)', 'muted');
	const extended = contentText(event.extended_content);
	if (extended) doc.blank().line('extended content', 'label').text(extended, 'muted');
	reasoning(doc, message);
	for (const call of message.tool_calls ?? []) {
		doc.blank().line(`tool call ${call.name} (${call.id})`, 'label').text(prettyJsonString(call.arguments), 'code');
	}
}

/**
 * A condensation: how much the agent forgot, its summary, and where the summary sits in the
 * agent's new view. The forgotten events themselves are listed on request (they can be many).
 */
export function condensationDetails(
	doc: DetailDocumentBuilder,
	event: EventOf<'Condensation'>,
	forgotten: readonly WireEvent[] | null,
	showForgotten: boolean,
): void {
	const ids = event.forgotten_event_ids;
	const known = forgotten?.length ?? 0;
	doc.field('forgotten', `${plural(ids.length, 'event')}${forgotten ? ` (${formatCount(known)} in the loaded log)` : ''}`, 'warn');
	doc.field(
		'summary offset',
		event.summary_offset == null
			? 'none: the summary is not inserted into the agent\'s view'
			: `${event.summary_offset}: the summary is inserted at position ${event.summary_offset} of the condensed view`,
	);
	doc.field('response id', event.llm_response_id, 'muted');
	doc.blank().line('summary', 'label');
	if (event.summary) doc.text(event.summary);
	else doc.line('  (no summary)', 'muted');
	doc.blank();
	if (ids.length === 0) return;
	if (!showForgotten) {
		doc.line(`forgotten events: ${plural(ids.length, 'event')} (enter shows them)`, 'muted');
		return;
	}

	doc.line('forgotten events (enter hides them)', 'label');
	const seen = new Set<string>();
	for (const item of forgotten ?? []) {
		seen.add(item.id);
		const summary = eventSummary(item);
		doc.line(`  ${summary.time} ${kindLabel(summary.kind).padEnd(12)} ${summary.text}`, summary.tone === 'normal' ? 'normal' : summary.tone);
	}

	const missing = ids.filter((id) => !seen.has(id));
	if (missing.length > 0) {
		doc.line(`  not in the loaded log (${formatCount(missing.length)}):`, 'muted');
		doc.text(missing.join('\n'), 'muted', {indent: '    '});
	}
}

type Reasoning = {
	reasoning_content?: string | null | undefined;
	thinking_blocks?: ReadonlyArray<{type: string; thinking?: unknown}> | null | undefined;
	responses_reasoning_item?: {summary?: string[] | null | undefined} | null | undefined;
};

/**
 * The model's reasoning in the three forms providers send: plain text, Anthropic thinking blocks
 * (redacted ones only counted), and the Responses API summary. Never `encrypted_content`.
 */
function reasoning(doc: DetailDocumentBuilder, source: Reasoning): void {
	if (source.reasoning_content?.trim()) doc.blank().line('reasoning', 'label').text(source.reasoning_content, 'muted');
	const blocks = source.thinking_blocks ?? [];
	const thinking = blocks.map((block) => (block.type === 'thinking' && typeof block.thinking === 'string' ? block.thinking : '')).filter(Boolean);
	if (thinking.length > 0) doc.blank().line('thinking', 'label').text(thinking.join('\n\n'), 'muted');
	const redacted = blocks.filter((block) => block.type === 'redacted_thinking').length;
	if (redacted > 0) doc.line(`  (${plural(redacted, 'redacted thinking block')})`, 'muted');
	const summary = source.responses_reasoning_item?.summary ?? [];
	if (summary.length > 0) doc.blank().line('reasoning summary', 'label').text(summary.map((item) => `• ${item}`).join('\n'), 'muted');
}

function stateUpdateDetails(doc: DetailDocumentBuilder, event: EventOf<'ConversationStateUpdateEvent'>): void {
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

function hookDetails(doc: DetailDocumentBuilder, event: EventOf<'HookExecutionEvent'>): void {
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

/** The SDK's classification of an error: what kind of failure, whether to retry, what a person can do. */
function classification(doc: DetailDocumentBuilder, value: unknown): void {
	const read = readClassification(value);
	if (!read) return;
	doc.field('cause', classificationWords(read), 'error');
	doc.field('retryable', read.retryable === null ? null : read.retryable ? 'yes' : 'no');
	doc.field('user action', read.userAction === 'none' ? null : read.userAction);
	doc.field('error id', read.errorId, 'muted');
}

function riskTone(risk: string): 'normal' | 'warn' | 'error' | 'muted' {
	if (risk === 'HIGH') return 'error';
	if (risk === 'MEDIUM') return 'warn';
	return risk === 'UNKNOWN' ? 'muted' : 'normal';
}

function toolName(tool: unknown): string {
	if (tool === null || typeof tool !== 'object') return '';
	const record = tool as Record<string, unknown>;
	const name = record.name ?? record.title ?? record.kind;
	return typeof name === 'string' ? name : '';
}

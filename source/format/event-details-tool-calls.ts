import {actionKindName, contentText, isUnfamiliarAction, observationIsError, observationText} from '../wire/event-fields.js';
import type {Action} from '../wire/schemas/actions.js';
import type {EventOf} from '../wire/schemas/events.js';
import type {Observation} from '../wire/schemas/observations.js';
import {unknownObservationKind} from '../wire/schemas/unknown-kinds.js';
import {lineCounts, patchFileWords, readPatch} from './apply-patch.js';
import type {DetailDocumentBuilder} from './event-detail-document.js';
import {errorDetails, reasoning, timeZoneNote} from './event-details-parts.js';
import {describeAction, invalidCallArguments} from './event-summary-actions.js';
import {terminalExitCode} from './event-summary-observations.js';
import {countLines, plural} from './event-values.js';
import {prettyJson, prettyJsonString} from './json.js';

/**
 * The details of a tool call (event-details.ts): what was asked (tool, arguments, thought,
 * reasoning, risk) and what answered it (an observation, a rejection or an agent error), and for
 * an answer the action it answers.
 */

export type ActionOutcome = EventOf<'ObservationEvent'> | EventOf<'UserRejectObservation'> | EventOf<'AgentErrorEvent'>;

/** A tool call: what was asked (tool, arguments, thought, reasoning, risk) and what came back. */
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
			errorDetails(doc, [['agent error', event.tool_name], ['error', event.error]], event.classification);
		}
	}
}

export function answeredAction(doc: DetailDocumentBuilder, action: EventOf<'ActionEvent'> | null, zone: string | null): void {
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

function riskTone(risk: string): 'normal' | 'warn' | 'error' | 'muted' {
	if (risk === 'HIGH') return 'error';
	if (risk === 'MEDIUM') return 'warn';
	return risk === 'UNKNOWN' ? 'muted' : 'normal';
}

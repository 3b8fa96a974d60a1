import {contentText, eventKindName, isUnfamiliarAction, observationIsError, observationText} from '../wire/event-fields.js';
import type {Action} from '../wire/schemas/actions.js';
import type {EventOf, WireEvent} from '../wire/schemas/events.js';
import type {Observation} from '../wire/schemas/observations.js';
import {readClassification} from '../wire/error-classification.js';
import {patchRow, readPatch} from './apply-patch.js';
import {readGoal} from '../wire/goal.js';
import {goalNeedsLook, goalObjective, goalWords} from './goal.js';
import {classificationWords} from './error-cause.js';
import {compactJson, countLines, firstLine, plural, statsCost, stringAt} from './event-values.js';
import {formatCost, formatCount} from './numbers.js';
import {sanitizeLine} from './sanitize.js';
import {formatClock} from './time.js';

/**
 * One line per event for the timeline: what happened, in the words a person scanning a run looks
 * for (`$ pytest -q`, `edit src/app.py (str_replace)`, `exit 1 · 3 lines`). Pure and cheap: it
 * reads a bounded prefix of any text, so a 5 MB observation costs one newline count. Every string
 * it returns is sanitized.
 */

export type SummaryTone = 'normal' | 'error' | 'warn' | 'muted';

export type EventSummary = {
	kind: string;
	source: string;
	time: string;
	text: string;
	tone: SummaryTone;
};

type Line = {text: string; tone: SummaryTone};

const line = (text: string, tone: SummaryTone = 'normal'): Line => ({text, tone});

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

function describeActionEvent(event: EventOf<'ActionEvent'>): Line {
	if (!event.action) return line(`${event.tool_name} invalid call · ${invalidCallArguments(event)}`, 'error');
	const described = describeAction(event.action);
	if (described !== null) return line(described);
	const {action} = event;
	if (isUnfamiliarAction(action)) {
		// A kind this client does not know yet (new tools keep coming): the tool and what it was given.
		const client = action.originalKind.startsWith('ClientAction_') ? 'client tool ' : '';
		const fields = ownFieldsLine(action.raw);
		return line(`${client}${event.tool_name} · ${fields || event.summary || 'no arguments'}`);
	}
	return line(`${event.tool_name}: ${event.summary ?? action.originalKind} (invalid ${action.originalKind}: ${action.problem})`, 'warn');
}

/**
 * An action's own fields (all but `kind`) on one line, for a kind this client has no words for:
 * `reason="Check what the user meant", use_user_message=true`. Bounded however big the values.
 */
export function ownFieldsLine(raw: Record<string, unknown>, max = 160): string {
	const parts: string[] = [];
	let length = 0;
	for (const key of Object.keys(raw)) {
		if (key === 'kind' || raw[key] === undefined) continue;
		const value = raw[key];
		const text = `${key}=${typeof value === 'string' ? JSON.stringify(firstLine(value, 60)) : compactJson(value, 60)}`;
		parts.push(text);
		length += text.length + 2;
		if (length >= max) break;
	}
	const joined = parts.join(', ');
	return joined.length > max ? `${joined.slice(0, max - 1)}…` : joined;
}

/**
 * What the model sent in a call the SDK could not turn into an action (an ActionEvent without
 * `action`): its arguments, compact. Arguments that were not JSON at all the SDK replaces with
 * `{"_openhands_malformed_tool_call": true, "error": …}` (agent.py `_emit_tool_error`).
 */
export function invalidCallArguments(event: EventOf<'ActionEvent'>, max = 120): string {
	const text = event.tool_call?.arguments;
	if (text === undefined) return event.summary ?? 'no arguments';
	if (text.length > 100_000) return firstLine(text, max);
	try {
		const parsed = JSON.parse(text) as unknown;
		if (parsed !== null && typeof parsed === 'object' && (parsed as Record<string, unknown>)._openhands_malformed_tool_call === true) return 'arguments were not JSON';
		return compactJson(parsed, max);
	} catch {
		return firstLine(text, max) || 'empty arguments';
	}
}

/** The action in a few words, or null for an unknown action kind. */
export function describeAction(action: Action): string | null {
	switch (action.kind) {
		case 'TerminalAction':
		case 'ExecuteBashAction': {
			const command = firstLine(action.command, 160);
			const more = action.command.trim().includes('\n') ? ' …' : '';
			return action.is_input ? `input: ${command}${more}` : `$ ${command}${more}`;
		}

		case 'FileEditorAction':
		case 'PlanningFileEditorAction': {
			if (action.command === 'view') return `view ${action.path}`;
			if (action.command === 'create') return `create ${action.path}`;
			return `edit ${action.path} (${action.command})`;
		}

		case 'TaskTrackerAction': {
			if (!action.task_list || action.command === 'view') return `tasks: ${action.command}`;
			const done = action.task_list.filter((task) => task.status === 'done').length;
			const doing = action.task_list.filter((task) => task.status === 'in_progress').length;
			return `tasks: ${action.command} ${plural(action.task_list.length, 'task')} (${done} done, ${doing} in progress)`;
		}

		case 'ReadFileAction': {
			return `read ${action.file_path}`;
		}

		case 'WriteFileAction': {
			return `write ${action.file_path}`;
		}

		case 'EditAction': {
			return `edit ${action.file_path}`;
		}

		case 'ListDirectoryAction': {
			return `ls ${action.dir_path ?? '.'}${action.recursive ? ' (recursive)' : ''}`;
		}

		case 'GlobAction': {
			return `glob ${action.pattern}${action.path ? ` in ${action.path}` : ''}`;
		}

		case 'GrepAction': {
			return `grep ${action.pattern}${action.path ? ` in ${action.path}` : ''}${action.include ? ` (${action.include})` : ''}`;
		}

		case 'MCPToolAction': {
			return `mcp ${compactJson(action.data ?? {}, 100)}`;
		}

		case 'FinishAction': {
			return `finish: ${firstLine(action.message)}`;
		}

		case 'ThinkAction': {
			return `think: ${firstLine(action.thought)}`;
		}

		case 'BrowserNavigateAction': {
			return `browse ${action.url}${action.new_tab ? ' (new tab)' : ''}`;
		}

		case 'BrowserClickAction': {
			return `browser click #${action.index}`;
		}

		case 'BrowserTypeAction': {
			return `browser type #${action.index} ${JSON.stringify(firstLine(action.text, 60))}`;
		}

		case 'BrowserScrollAction': {
			return `browser scroll ${action.direction ?? 'down'}`;
		}

		case 'BrowserGetContentAction': {
			return 'browser get content';
		}

		case 'BrowserGetStateAction': {
			return `browser get state${action.include_screenshot ? ' (screenshot)' : ''}`;
		}

		case 'BrowserSwitchTabAction':
		case 'BrowserCloseTabAction': {
			return `browser ${action.kind === 'BrowserSwitchTabAction' ? 'switch to' : 'close'} tab ${action.tab_id}`;
		}

		case 'BrowserAction':
		case 'BrowserGoBackAction':
		case 'BrowserListTabsAction':
		case 'BrowserGetStorageAction':
		case 'BrowserSetStorageAction':
		case 'BrowserStartRecordingAction':
		case 'BrowserStopRecordingAction': {
			// BrowserGoBackAction -> "browser go back"
			return action.kind
				.replace(/Action$/, '')
				.replaceAll(/([a-z])([A-Z])/g, '$1 $2')
				.toLowerCase();
		}

		case 'ApplyPatchAction': {
			return patchRow(readPatch(action.patch));
		}

		case 'TaskAction': {
			const what = action.description ?? firstLine(action.prompt, 100);
			return `sub-agent ${action.subagent_type ?? 'general-purpose'}: ${what}${action.resume ? ` (resumes ${action.resume})` : ''}`;
		}

		case 'DelegateAction': {
			if (action.tasks && Object.keys(action.tasks).length > 0) {
				const tasks = Object.entries(action.tasks).map(([id, task]) => `${id}: ${firstLine(task, 60)}`);
				return `delegate ${plural(tasks.length, 'task')} · ${tasks.join('; ')}`;
			}
			const ids = action.ids ?? [];
			const types = ids.map((id, index) => (action.agent_types?.[index] ? `${id} (${action.agent_types[index]})` : id));
			return `delegate ${action.command}${types.length > 0 ? ` ${types.join(', ')}` : ''}`;
		}

		case 'InvokeSkillAction': {
			return `skill ${action.name}`;
		}

		case 'SwitchLLMAction': {
			return `switch LLM to ${action.profile_name}${action.reason ? `: ${firstLine(action.reason, 120)}` : ''}`;
		}

		case 'VisionInspectAction': {
			return `vision: image #${action.image_index}${action.profile_name ? ` via ${action.profile_name}` : ''}: ${firstLine(action.question, 120)}`;
		}

		case 'UnknownAction': {
			return null;
		}
	}
}

/** `exit 1 · 3 lines · first line`, or the first line of output, by observation kind. */
/**
 * Text the service appended after a tool result (ObservationEvent.extended_content: "content added
 * by agent context, e.g. path-scoped rules triggered by the touched file", SDK event/llm_convertible/
 * observation.py). The model read it, so the row says so.
 */
function withExtendedContent(described: Line, extended: Parameters<typeof contentText>[0]): Line {
	const added = firstLine(contentText(extended));
	return added ? {...described, text: `${described.text} · +context: ${added}`} : described;
}

function describeObservation(observation: Observation, toolName: string): Line {
	const text = observationText(observation);
	const isError = observationIsError(observation);
	const first = firstLine(text);
	const lines = countLines(text);
	const size = lines > 1 ? ` · ${plural(lines, 'line')}` : '';
	const tail = first ? ` · ${first}` : '';
	switch (observation.kind) {
		case 'TerminalObservation':
		case 'ExecuteBashObservation': {
			const code = terminalExitCode(observation);
			// is_error decides first: a refused or failed command has no exit code of its own and
			// metadata.exit_code -1 (CmdOutputMetadata's default, SDK openhands-tools/openhands/
			// tools/terminal/metadata.py), which alone would read as "still running".
			if (isError) {
				const exit = code !== null && code !== -1 ? ` exit ${code}` : '';
				return line(`error${exit}${observation.timeout ? ' (timed out)' : ''}${size}${tail}`, 'error');
			}
			if (code === -1) return line(`still running${size}${tail}`, 'warn');
			if (observation.timeout) return line(`timed out${size}${tail}`, 'error');
			const status = code === null ? 'done' : `exit ${code}`;
			return line(`${status}${size}${tail}`, code !== null && code !== 0 ? 'error' : 'normal');
		}

		case 'FileEditorObservation':
		case 'PlanningFileEditorObservation': {
			const target = [observation.command, observation.path].filter(Boolean).join(' ');
			if (isError) return line(`${target || toolName} failed: ${first}`, 'error');
			return line(`${target || toolName}${observation.command === 'view' ? size : ' ok'}`);
		}

		case 'TaskTrackerObservation': {
			return line(`tasks: ${plural(observation.task_list?.length ?? 0, 'task')}${tail}`, isError ? 'error' : 'normal');
		}

		case 'ApplyPatchObservation': {
			if (isError) return line(`patch failed${tail}`, 'error');
			const fuzz = observation.fuzz ? ` (fuzz ${observation.fuzz})` : '';
			const message = observation.message ? firstLine(observation.message) : first;
			return line(`patched${fuzz}${message ? ` · ${message}` : ''}`);
		}

		case 'TaskObservation': {
			const who = [observation.subagent, observation.status].filter(Boolean).join(' ');
			return line(`sub-agent${who ? ` ${who}` : ''}${tail}`, isError ? 'error' : 'normal');
		}

		case 'InvokeSkillObservation': {
			return line(`skill ${observation.skill_name ?? toolName}${size}${tail}`, isError ? 'error' : 'normal');
		}

		case 'SwitchLLMObservation': {
			if (isError) return line(`switch LLM failed${tail}`, 'error');
			return line(`now on ${observation.profile_name ?? 'another profile'}${observation.active_model ? ` (${observation.active_model})` : ''}`);
		}

		case 'VisionInspectObservation': {
			if (isError) return line(`vision failed${tail}`, 'error');
			return line(`vision answer: ${firstLine(observation.answer ?? text) || '(none)'}`);
		}

		default: {
			if (isError) return line(`error${tail || ` in ${toolName}`}`, 'error');
			const kind = observation.kind === 'UnknownObservation' ? `${observation.originalKind}: ` : '';
			return line(first ? `${kind}${first}${lines > 1 ? ` (+${plural(lines - 1, 'line')})` : ''}` : `${kind}${toolName} (no output)`);
		}
	}
}

/** ` (rate limit · retryable)` after an error's name, or nothing when the server did not classify it. */
function classified(value: unknown): string {
	const classification = readClassification(value);
	return classification ? ` (${classificationWords(classification)})` : '';
}

/** A terminal observation's exit code: its own, else its metadata's; null when neither is a number. */
export function terminalExitCode(observation: {exit_code?: number | null; metadata?: Record<string, unknown> | null}): number | null {
	if (typeof observation.exit_code === 'number') return observation.exit_code;
	const fromMetadata = observation.metadata?.exit_code;
	return typeof fromMetadata === 'number' && Number.isFinite(fromMetadata) ? fromMetadata : null;
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

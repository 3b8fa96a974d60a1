import {isUnfamiliarAction} from '../wire/event-fields.js';
import type {Action} from '../wire/schemas/actions.js';
import type {EventOf} from '../wire/schemas/events.js';
import {patchRow, readPatch} from './apply-patch.js';
import {line, type Line} from './event-summary-line.js';
import {compactJson, firstLine, plural} from './event-values.js';

/** The timeline's words for a tool call (event-summary.ts): the action in a few words, an invalid call's arguments, an unfamiliar kind's own fields. */

export function describeActionEvent(event: EventOf<'ActionEvent'>): Line {
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

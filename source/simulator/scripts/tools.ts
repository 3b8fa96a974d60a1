import {textContent, type EventDraft, type Risk} from '../event-factory.js';
import {withHostile} from '../corpus/hostile.js';
import {addPatch, type FileChange, updatePatch} from './patch-text.js';
import type {PendingAction, ScriptContext, Step} from './types.js';

/**
 * One helper per tool the scripted agents use. Each yields the ActionEvent as one step (the
 * model call) and its ObservationEvent as the next (the tool running), like a real agent's
 * timeline streams, and returns the action so later steps can refer to it.
 */

type Calls = Generator<Step, EventDraft, undefined>;

/** Agent-produced text, with an escape-sequence payload appended while the hostile fault is on. */
export function agentText(context: ScriptContext, text: string): string {
	return context.hostile() ? withHostile(text, context.rng.int(0, 1000)) : text;
}

export function observed(context: ScriptContext, action: EventDraft, observation: Record<string, unknown> & {kind: string}): Step {
	return {events: [context.ev.observation(action, observation)]};
}

export function llm(action: EventDraft): Step {
	return {events: [action], llm: {responseId: String(action.llm_response_id)}};
}

export type TerminalCall = {
	command: string;
	output: string;
	exitCode?: number;
	thought?: string;
	summary: string;
	risk?: Risk;
	reasoning?: string;
	timeout?: number;
};

export function terminalAction(context: ScriptContext, call: TerminalCall, responseId?: string): EventDraft {
	return context.ev.action({
		toolName: 'terminal',
		action: {kind: 'TerminalAction', command: call.command, is_input: false, timeout: call.timeout, reset: false},
		thought: call.thought ? agentText(context, call.thought) : undefined,
		summary: call.summary,
		risk: call.risk ?? 'LOW',
		reasoning: call.reasoning,
		responseId,
	});
}

export function terminalObservation(context: ScriptContext, action: EventDraft, call: TerminalCall): EventDraft {
	const exitCode = call.exitCode ?? 0;
	const stillRunning = exitCode === -1;
	return context.ev.observation(action, {
		kind: 'TerminalObservation',
		content: [textContent(agentText(context, call.output))],
		is_error: false,
		command: call.command,
		exit_code: exitCode,
		timeout: false,
		metadata: {
			exit_code: exitCode,
			pid: stillRunning ? context.rng.int(300, 9000) : -1,
			username: 'openhands',
			hostname: 'runtime-sim',
			working_dir: context.workdir,
			py_interpreter_path: '/openhands/micromamba/envs/openhands/bin/python',
			prefix: '',
			suffix: stillRunning
				? '\n[The command has no new output after 30 seconds. You may wait longer to see additional output by sending empty command \'\', send other commands to interact with the current process, send keys to interrupt/kill the command, or use the timeout parameter in execute_bash for future commands.]'
				: `\n[The command completed with exit code ${exitCode}.]`,
		},
	});
}

export function* terminal(context: ScriptContext, call: TerminalCall): Calls {
	const action = terminalAction(context, call);
	yield llm(action);
	yield {events: [terminalObservation(context, action, call)]};
	return action;
}

/** Several terminal calls from one model response: they share llm_response_id, results arrive one by one. */
export function* parallelTerminal(context: ScriptContext, calls: TerminalCall[]): Generator<Step, EventDraft[], undefined> {
	const responseId = context.ev.responseId();
	const actions = calls.map((call) => terminalAction(context, call, responseId));
	yield {events: actions, llm: {responseId}};
	for (const [index, action] of actions.entries()) yield {events: [terminalObservation(context, action, calls[index]!)]};
	return actions;
}

/** The same call waiting for confirmation: the observation is prepared but only sent on accept. */
export function pendingTerminal(context: ScriptContext, call: TerminalCall): {step: Step; pending: PendingAction} {
	const action = terminalAction(context, call);
	const pending = {action, observation: terminalObservation(context, action, call)};
	return {
		step: {events: [action], llm: {responseId: String(action.llm_response_id)}, pending: [pending], status: 'waiting_for_confirmation'},
		pending,
	};
}

function numbered(content: string, firstLine = 1): string {
	return content
		.split('\n')
		.map((line, index) => `${String(index + firstLine).padStart(6)}\t${line}`)
		.join('\n');
}

export function* viewFile(context: ScriptContext, path: string, content: string, summary: string, thought?: string): Calls {
	const full = `${context.workdir}/${path}`;
	const action = context.ev.action({
		toolName: 'file_editor',
		action: {kind: 'FileEditorAction', command: 'view', path: full},
		thought: thought ? agentText(context, thought) : undefined,
		summary,
		risk: 'LOW',
	});
	yield llm(action);
	yield observed(context, action, {
		kind: 'FileEditorObservation',
		content: [textContent(`Here's the result of running \`cat -n\` on ${full}:\n${numbered(content)}\n`)],
		is_error: false,
		command: 'view',
		path: full,
		prev_exist: true,
	});
	return action;
}

/**
 * GPT-5 models run with the SDK's GPT-5 tool preset (openhands-tools/openhands/tools/preset/
 * gpt5.py): terminal, apply_patch, task_tracker, browser. Every file edit is an apply_patch call.
 */
export function usesApplyPatch(context: ScriptContext): boolean {
	return context.model.includes('gpt-5');
}

/** An apply_patch call and its answer (`Done!`, fuzz, the commit of file changes; ApplyPatchExecutor). */
export function* applyPatch(context: ScriptContext, patch: string, changes: Record<string, FileChange>, summary: string, thought?: string, reasoning?: string): Calls {
	const action = context.ev.action({
		toolName: 'apply_patch',
		action: {kind: 'ApplyPatchAction', patch},
		thought: thought ? agentText(context, thought) : undefined,
		summary,
		risk: 'MEDIUM',
		reasoning,
	});
	yield llm(action);
	yield observed(context, action, {
		kind: 'ApplyPatchObservation',
		content: [textContent('Done!')],
		is_error: false,
		message: 'Done!',
		fuzz: 0,
		commit: {changes},
	});
	return action;
}

export function* createFile(context: ScriptContext, path: string, content: string, summary: string, thought?: string): Calls {
	if (usesApplyPatch(context)) return yield* applyPatch(context, addPatch(path, content), {[path]: {type: 'add', new_content: content}}, summary, thought);
	const full = `${context.workdir}/${path}`;
	const action = context.ev.action({
		toolName: 'file_editor',
		action: {kind: 'FileEditorAction', command: 'create', path: full, file_text: content},
		thought: thought ? agentText(context, thought) : undefined,
		summary,
		risk: 'MEDIUM',
	});
	yield llm(action);
	yield observed(context, action, {
		kind: 'FileEditorObservation',
		content: [textContent(`File created successfully at: ${full}`)],
		is_error: false,
		command: 'create',
		path: full,
		prev_exist: false,
		new_content: content,
	});
	return action;
}

export type Replacement = {path: string; before: string; oldStr: string; newStr: string};

export function* replaceInFile(context: ScriptContext, edit: Replacement, summary: string, thought?: string, reasoning?: string): Calls {
	if (usesApplyPatch(context)) {
		const after = edit.before.replace(edit.oldStr, edit.newStr);
		const patch = updatePatch(edit.path, edit.before, edit.oldStr, edit.newStr);
		return yield* applyPatch(context, patch, {[edit.path]: {type: 'update', old_content: edit.before, new_content: after}}, summary, thought, reasoning);
	}
	const full = `${context.workdir}/${edit.path}`;
	const action = context.ev.action({
		toolName: 'file_editor',
		action: {kind: 'FileEditorAction', command: 'str_replace', path: full, old_str: edit.oldStr, new_str: edit.newStr},
		thought: thought ? agentText(context, thought) : undefined,
		summary,
		risk: 'MEDIUM',
		reasoning,
	});
	yield llm(action);
	const after = edit.before.replace(edit.oldStr, edit.newStr);
	const firstLine = Math.max(1, edit.before.slice(0, edit.before.indexOf(edit.oldStr)).split('\n').length - 2);
	const snippet = after.split('\n').slice(firstLine - 1, firstLine + edit.newStr.split('\n').length + 3).join('\n');
	yield observed(context, action, {
		kind: 'FileEditorObservation',
		content: [
			textContent(
				`The file ${full} has been edited. Here's the result of running \`cat -n\` on a snippet of ${full}:\n${numbered(snippet, firstLine)}\nReview the changes and make sure they are as expected. Edit the file again if necessary.`,
			),
		],
		is_error: false,
		command: 'str_replace',
		path: full,
		prev_exist: true,
		old_content: edit.before,
		new_content: after,
	});
	return action;
}

export type Task = {title: string; notes?: string; status: 'todo' | 'in_progress' | 'done'};

export function* planTasks(context: ScriptContext, tasks: Task[], summary: string, thought?: string): Calls {
	const action = context.ev.action({
		toolName: 'task_tracker',
		action: {kind: 'TaskTrackerAction', command: 'plan', task_list: tasks},
		thought: thought ? agentText(context, thought) : undefined,
		summary,
		risk: 'LOW',
	});
	yield llm(action);
	const done = tasks.filter((task) => task.status === 'done').length;
	yield observed(context, action, {
		kind: 'TaskTrackerObservation',
		content: [textContent(`Task list has been updated with ${tasks.length} items (${done} done). Stored in session directory: sessions/TASKS.md`)],
		is_error: false,
		command: 'plan',
		task_list: tasks,
	});
	return action;
}

export function* think(context: ScriptContext, thought: string, reasoning?: string): Calls {
	const action = context.ev.action({
		toolName: 'think',
		action: {kind: 'ThinkAction', thought: agentText(context, thought)},
		summary: 'Reason about the root cause before editing',
		risk: 'LOW',
		reasoning,
	});
	yield llm(action);
	yield observed(context, action, {kind: 'ThinkObservation', content: [textContent('Your thought has been logged.')], is_error: false});
	return action;
}

export function* browse(context: ScriptContext, url: string, pageText: string, summary: string): Calls {
	const action = context.ev.action({
		toolName: 'browser_navigate',
		action: {kind: 'BrowserNavigateAction', url, new_tab: false},
		thought: agentText(context, `Open ${url} to check the result in a real browser.`),
		summary,
		risk: 'LOW',
	});
	yield llm(action);
	yield observed(context, action, {
		kind: 'BrowserObservation',
		content: [textContent(agentText(context, pageText))],
		is_error: false,
	});
	return action;
}

export function* click(context: ScriptContext, index: number, label: string, pageText: string): Calls {
	const action = context.ev.action({
		toolName: 'browser_click',
		action: {kind: 'BrowserClickAction', index, new_tab: false},
		thought: agentText(context, `Click "${label}" to make sure it is reachable and not covered.`),
		summary: `Click the ${label} button`,
		risk: 'LOW',
	});
	yield llm(action);
	yield observed(context, action, {kind: 'BrowserObservation', content: [textContent(pageText)], is_error: false});
	return action;
}

/** The closing message and FinishAction; the conversation is finished after the observation. */
export function* finish(context: ScriptContext, message: string): Generator<Step, void, undefined> {
	const responseId = context.ev.responseId();
	yield {events: [context.ev.assistantMessage(agentText(context, message), {responseId})], llm: {responseId}};
	const action = context.ev.action({
		toolName: 'finish',
		action: {kind: 'FinishAction', message: agentText(context, message)},
		summary: 'Report the result and finish',
		risk: 'LOW',
	});
	yield llm(action);
	yield {
		events: [context.ev.observation(action, {kind: 'FinishObservation', content: [textContent(message)], is_error: false})],
		status: 'finished',
	};
}

/** Assistant text with no tool call (a progress note or an answer). */
export function say(context: ScriptContext, text: string, activatedSkills: string[] = []): Step {
	const responseId = context.ev.responseId();
	return {events: [context.ev.assistantMessage(agentText(context, text), {responseId, activatedSkills})], llm: {responseId}};
}

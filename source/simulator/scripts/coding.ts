import {codingTasks, type CodingTask} from '../corpus/coding-tasks.js';
import {checkpoint, openScenario} from './opening.js';
import {agentText, browse, click, createFile, finish, parallelTerminal, planTasks, replaceInFile, terminal, think, viewFile} from './tools.js';
import type {Script, ScriptContext} from './types.js';

/** Explore, reproduce, fix, test, finish: the everyday run (ends `finished`). */
export function* codingScript(context: ScriptContext): Script {
	const task: CodingTask = yield* openScenario(context, codingTasks);
	const [first, second, third] = task.plan;
	yield* planTasks(
		context,
		[
			{title: first, status: 'in_progress'},
			{title: second, status: 'todo'},
			{title: third, status: 'todo', notes: 'run the full file, not only the failing test'},
		],
		'Plan the fix in three steps',
		'I will reproduce the failure first, then fix it and add a regression test.',
	);
	yield* parallelTerminal(
		context,
		task.explore.map((entry) => ({
			command: entry.command,
			output: entry.output,
			summary: `Explore the repository: ${entry.command.split(' ').slice(0, 3).join(' ')}`,
			thought: 'Look at recent history and the layout before touching anything.',
		})),
	);
	yield* viewFile(context, task.view.path, task.view.content, `Read ${task.view.path}`, `The code in question lives in ${task.view.path}.`);
	yield* terminal(context, {
		command: task.failing.command,
		output: task.failing.output,
		exitCode: task.failing.exitCode,
		summary: 'Reproduce the failure',
		thought: 'Run the failing check to see the exact error.',
	});
	yield checkpoint;
	yield* think(context, task.diagnosis, `The failure output points at ${task.edit.path}. ${task.diagnosis}`);
	const edit = yield* replaceInFile(context, task.edit, `Fix ${task.edit.path}`, 'Apply the minimal fix.');
	if (task.hook) {
		yield {
			events: [
				context.ev.hook({
					hookEventType: 'PostToolUse',
					command: task.hook.command,
					toolName: String(edit.tool_name),
					success: true,
					blocked: false,
					exitCode: 0,
					stdout: task.hook.stdout,
					actionId: edit.id,
					hookInput: {tool_name: String(edit.tool_name), tool_input: edit.tool_name === 'apply_patch' ? {patch: (edit.action as {patch?: string}).patch} : {command: 'str_replace', path: `${context.workdir}/${task.edit.path}`}},
				}),
			],
		};
	}
	yield* createFile(context, task.regression.path, task.regression.content, `Add ${task.regression.path}`, 'Add a regression test so this cannot come back.');
	yield* terminal(context, {command: task.passing.command, output: task.passing.output, summary: 'Run the tests again', thought: 'Verify the fix.'});
	if (task.web) {
		yield* browse(context, task.web.url, task.web.page, `Open ${task.web.url} in the browser`);
		yield* click(context, task.web.clickIndex, task.web.clickLabel, task.web.afterClick);
	}
	yield* planTasks(
		context,
		task.plan.map((title) => ({title, status: 'done' as const})),
		'Mark all tasks done',
	);
	yield* terminal(context, {
		command: 'git status --short && git diff --stat',
		output: ` M ${task.edit.path}\n?? ${task.regression.path}\n ${task.edit.path} | ${task.edit.newStr.split('\n').length + task.edit.oldStr.split('\n').length} ${'+'.repeat(task.edit.newStr.split('\n').length)}${'-'.repeat(task.edit.oldStr.split('\n').length)}\n 1 file changed, ${task.edit.newStr.split('\n').length} insertions(+), ${task.edit.oldStr.split('\n').length} deletions(-)`,
		summary: 'Review the final diff',
	});
	const responseId = context.ev.responseId();
	yield {
		events: [
			context.ev.completionLog(context.model, responseId, 24_000 + context.rng.int(0, 9000), 420, agentText(context, task.request)),
			context.ev.tokens(24, 12),
		],
	};
	yield* finish(context, task.summary);
}

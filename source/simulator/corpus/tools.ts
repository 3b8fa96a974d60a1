/**
 * The SystemPromptEvent's content: a trimmed version of the real agent prompt and ToolDefinition
 * entries for the tools the scripted agents call.
 */

export const systemPromptText = `You are OpenHands agent, a helpful AI assistant that can interact with a computer to solve tasks.

<ROLE>
Your primary role is to assist users by executing commands, modifying code, and solving technical problems effectively. You should be thorough, methodical, and prioritize quality over speed.
* If the user asks a question, like "why is X happening", don't try to fix the problem. Just give an answer to the question.
</ROLE>

<EFFICIENCY>
* Each action you take is somewhat expensive. Wherever possible, combine multiple actions into a single action, e.g. combine multiple bash commands into one, using sed and grep to edit/view multiple files at once.
* When exploring the codebase, use efficient tools like find, grep, and git commands with appropriate filters to minimize unnecessary operations.
</EFFICIENCY>

<FILE_SYSTEM_GUIDELINES>
* When a user provides a file path, do NOT assume it's relative to the current working directory. First explore the file system to locate the file before working on it.
* If asked to edit a file, edit the file directly, rather than creating a new file with a different filename.
</FILE_SYSTEM_GUIDELINES>

<VERSION_CONTROL>
* When committing changes, use \`git status\` to see all modified files, and stage all files necessary for the commit.
* Do NOT push to the remote repository or force-push unless explicitly asked to.
</VERSION_CONTROL>

<SECURITY_RISK_ASSESSMENT>
Rate every tool call LOW, MEDIUM or HIGH. HIGH: deleting data, force pushes, changing credentials or anything that cannot be undone.
</SECURITY_RISK_ASSESSMENT>`;

const riskAndSummary = {
	security_risk: {
		type: 'string',
		enum: ['LOW', 'MEDIUM', 'HIGH'],
		description: 'The LLM\'s assessment of the safety risk of this action.',
	},
	summary: {type: 'string', description: 'A concise summary (approximately 10 words) of what this action does.'},
};

function tool(
	kind: string,
	name: string,
	description: string,
	properties: Record<string, unknown>,
	required: string[],
	annotations: {readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean},
) {
	const stem = kind.replace(/Tool$|ToolSet$/, '');
	return {
		kind,
		name,
		title: name,
		description,
		action_type: `${stem}Action`,
		observation_type: `${stem}Observation`,
		parameters: {type: 'object', properties: {...properties, ...riskAndSummary}, required: [...required, 'security_risk']},
		annotations: {title: name, ...annotations},
	};
}

const terminalTool = tool(
	'TerminalTool',
	'terminal',
	'Execute a bash command in the terminal within a persistent shell session. Long running commands: run them in the background and redirect output to a file.',
	{
		command: {type: 'string', description: 'The bash command to execute. Can be empty string to view additional logs when previous exit code is `-1`.'},
		is_input: {type: 'boolean', description: 'If True, the command is an input to the running process.'},
		timeout: {type: 'number', description: 'Optional. Sets a maximum time limit (in seconds) for running the command.'},
		reset: {type: 'boolean', description: 'If True, reset the terminal by creating a new session.'},
	},
	['command'],
	{readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true},
);

const fileEditorTool = tool(
	'FileEditorTool',
	'file_editor',
	'Custom editing tool for viewing, creating and editing files in plain-text format. State is persistent across command calls.',
	{
		command: {type: 'string', enum: ['view', 'create', 'str_replace', 'insert', 'undo_edit']},
		path: {type: 'string', description: 'Absolute path to file or directory.'},
		file_text: {type: 'string'},
		old_str: {type: 'string'},
		new_str: {type: 'string'},
		insert_line: {type: 'integer'},
		view_range: {type: 'array', items: {type: 'integer'}},
	},
	['command', 'path'],
	{readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false},
);

const taskTrackerTool = tool(
	'TaskTrackerTool',
	'task_tracker',
	'Track and plan the steps of complex work. Use `plan` to replace the task list and `view` to read it.',
	{
		command: {type: 'string', enum: ['view', 'plan']},
		task_list: {
			type: 'array',
			items: {
				type: 'object',
				properties: {title: {type: 'string'}, notes: {type: 'string'}, status: {type: 'string', enum: ['todo', 'in_progress', 'done']}},
				required: ['title'],
			},
		},
	},
	['command'],
	{readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false},
);

const browserNavigateTool = tool(
	'BrowserNavigateTool',
	'browser_navigate',
	'Navigate the browser to a URL and return the page with its interactive elements.',
	{url: {type: 'string'}, new_tab: {type: 'boolean'}},
	['url'],
	{readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true},
);

const browserClickTool = tool(
	'BrowserClickTool',
	'browser_click',
	'Click the interactive element with the given index from the last browser state.',
	{index: {type: 'integer', minimum: 0}, new_tab: {type: 'boolean'}},
	['index'],
	{readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true},
);

const thinkTool = tool(
	'ThinkTool',
	'think',
	'Use the tool to think about something. It will not obtain new information or make any changes, but just log the thought.',
	{thought: {type: 'string'}},
	['thought'],
	{readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false},
);

const finishTool = tool(
	'FinishTool',
	'finish',
	'Signals the completion of the current task or conversation. Include a summary of what was done.',
	{message: {type: 'string'}},
	['message'],
	{readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false},
);

export const currentTools = [terminalTool, fileEditorTool, taskTrackerTool, browserNavigateTool, browserClickTool, thinkTool, finishTool];

/** What a pre-1.5 SDK advertised: the terminal tool was still called execute_bash. */
export const legacyTools = [
	{...terminalTool, kind: 'ExecuteBashTool', name: 'execute_bash', title: 'execute_bash', action_type: 'ExecuteBashAction', observation_type: 'ExecuteBashObservation'},
	fileEditorTool,
	thinkTool,
	finishTool,
];

export function repositoryContext(repository: string | null, branch: string | null, workdir: string): string {
	return `<REPOSITORY_INFO>
At the user's request, repository ${repository ?? '(none)'} has been cloned to ${workdir} in the current working directory.
Current branch: ${branch ?? 'main'}
</REPOSITORY_INFO>

<RUNTIME_INFORMATION>
The user has access to the following hosts for accessing a web application:
* http://localhost:3000 (port 3000)
</RUNTIME_INFORMATION>`;
}

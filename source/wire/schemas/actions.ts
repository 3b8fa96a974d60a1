import {z} from 'zod';
import {unknownActionKind} from './unknown-kinds.js';
import {optionalString} from './common.js';
import {builtOnce} from './built-once.js';

/**
 * Action kinds (the `action` of an ActionEvent). Fields per docs/service-behaviour.md §4; the seed lists
 * the browser ones. An unknown kind, or a known kind with an unexpected shape, becomes
 * `UnknownAction` with its raw JSON: shown, never dropped.
 */

/** Built on the first parse, not at load (built-once.ts says why). */
const actionSchemas = builtOnce(() => {
	const base = <K extends string>(kind: K) => z.looseObject({kind: z.literal(kind)});

	const fileEditorFields = {
		command: z.string(),
		path: z.string(),
		file_text: optionalString,
		old_str: optionalString,
		new_str: optionalString,
		insert_line: z.number().nullish(),
		view_range: z.array(z.number()).nullish(),
	};

	const terminalFields = {
		command: z.string(),
		is_input: z.boolean().optional(),
		timeout: z.number().nullish(),
		reset: z.boolean().optional(),
	};

	return {
		TerminalAction: base('TerminalAction').extend(terminalFields),
		// Servers before SDK 1.5 use the old name with the same fields.
		ExecuteBashAction: base('ExecuteBashAction').extend(terminalFields),
		FileEditorAction: base('FileEditorAction').extend(fileEditorFields),
		PlanningFileEditorAction: base('PlanningFileEditorAction').extend(fileEditorFields),
		TaskTrackerAction: base('TaskTrackerAction').extend({
			command: z.string(),
			task_list: z
				.array(z.looseObject({title: z.string(), notes: optionalString, status: z.string().optional()}))
				.nullish(),
		}),
		ReadFileAction: base('ReadFileAction').extend({
			file_path: z.string(),
			offset: z.number().nullish(),
			limit: z.number().nullish(),
		}),
		WriteFileAction: base('WriteFileAction').extend({file_path: z.string(), content: z.string()}),
		EditAction: base('EditAction').extend({
			file_path: z.string(),
			old_string: z.string(),
			new_string: z.string(),
			expected_replacements: z.number().optional(),
		}),
		ListDirectoryAction: base('ListDirectoryAction').extend({
			dir_path: z.string().optional(),
			recursive: z.boolean().optional(),
		}),
		GlobAction: base('GlobAction').extend({pattern: z.string(), path: optionalString}),
		GrepAction: base('GrepAction').extend({pattern: z.string(), path: optionalString, include: optionalString}),
		MCPToolAction: base('MCPToolAction').extend({data: z.record(z.string(), z.unknown()).optional()}),
		FinishAction: base('FinishAction').extend({message: z.string()}),
		ThinkAction: base('ThinkAction').extend({thought: z.string()}),
		BrowserAction: base('BrowserAction'),
		BrowserNavigateAction: base('BrowserNavigateAction').extend({url: z.string(), new_tab: z.boolean().optional()}),
		BrowserClickAction: base('BrowserClickAction').extend({
			index: z.number().int().min(0),
			new_tab: z.boolean().optional(),
		}),
		BrowserTypeAction: base('BrowserTypeAction').extend({index: z.number().int().min(0), text: z.string()}),
		BrowserGetStateAction: base('BrowserGetStateAction').extend({include_screenshot: z.boolean().optional()}),
		BrowserGetContentAction: base('BrowserGetContentAction').extend({
			extract_links: z.boolean().optional(),
			start_from_char: z.number().int().min(0).optional(),
		}),
		BrowserScrollAction: base('BrowserScrollAction').extend({direction: z.string().optional()}),
		BrowserGoBackAction: base('BrowserGoBackAction'),
		BrowserListTabsAction: base('BrowserListTabsAction'),
		BrowserSwitchTabAction: base('BrowserSwitchTabAction').extend({tab_id: z.string()}),
		BrowserCloseTabAction: base('BrowserCloseTabAction').extend({tab_id: z.string()}),
		BrowserGetStorageAction: base('BrowserGetStorageAction'),
		BrowserSetStorageAction: base('BrowserSetStorageAction').extend({
			storage_state: z.record(z.string(), z.unknown()),
		}),
		BrowserStartRecordingAction: base('BrowserStartRecordingAction'),
		BrowserStopRecordingAction: base('BrowserStopRecordingAction'),
		// Tools of 2026 agents. Fields from the SDK's models: ApplyPatchAction (openhands-tools/
		// openhands/tools/apply_patch/definition.py, every file edit under the GPT-5 preset),
		// TaskAction (tools/task/definition.py), DelegateAction (tools/delegate/definition.py),
		// InvokeSkillAction, SwitchLLMAction, VisionInspectAction (openhands-sdk/openhands/sdk/tool/
		// builtins/). Client tools (`ClientAction_<name>`, sdk/tool/client_tool.py) have the fields
		// their client declared: they are read as any kind this client does not know (parseAction).
		ApplyPatchAction: base('ApplyPatchAction').extend({patch: z.string()}),
		TaskAction: base('TaskAction').extend({
			description: optionalString,
			prompt: z.string(),
			subagent_type: optionalString,
			resume: optionalString,
			max_turns: z.number().nullish(),
		}),
		DelegateAction: base('DelegateAction').extend({
			command: z.string(),
			ids: z.array(z.string()).nullish(),
			agent_types: z.array(z.string()).nullish(),
			tasks: z.record(z.string(), z.string()).nullish(),
		}),
		InvokeSkillAction: base('InvokeSkillAction').extend({name: z.string()}),
		SwitchLLMAction: base('SwitchLLMAction').extend({profile_name: z.string(), reason: optionalString}),
		VisionInspectAction: base('VisionInspectAction').extend({
			image_index: z.number().int().min(0),
			question: z.string(),
			profile_name: optionalString,
		}),
	} as const;
});

type ActionSchemas = ReturnType<typeof actionSchemas>;
export type KnownActionKind = keyof ActionSchemas;
export type KnownAction = {[K in KnownActionKind]: z.infer<ActionSchemas[K]>}[KnownActionKind];

export type UnknownAction = {
	kind: 'UnknownAction';
	/** The kind the server sent (may be a known kind whose fields did not validate). */
	originalKind: string;
	/** `unknown action kind` for a kind this client does not know (a valid action: shown by its own fields), else what is wrong. */
	problem: string;
	raw: Record<string, unknown>;
};


export type Action = KnownAction | UnknownAction;

export function parseAction(raw: unknown): Action {
	const record = (raw !== null && typeof raw === 'object' ? raw : {value: raw}) as Record<string, unknown>;
	const kind = typeof record.kind === 'string' ? record.kind : '';
	const schema = Object.hasOwn(actionSchemas(), kind) ? actionSchemas()[kind as KnownActionKind] : undefined;
	if (!schema) return {kind: 'UnknownAction', originalKind: kind || '(no kind)', problem: kind ? unknownActionKind : 'the action has no kind', raw: record};
	const result = schema.safeParse(record);
	if (result.success) return result.data as KnownAction;
	return {kind: 'UnknownAction', originalKind: kind, problem: result.error.issues[0]?.message ?? 'invalid', raw: record};
}


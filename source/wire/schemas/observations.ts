import {z} from 'zod';
import {contentSchema} from './content.js';
import {unknownObservationKind} from './unknown-kinds.js';
import {optionalString} from './common.js';
import {builtOnce} from './built-once.js';

/**
 * Observation kinds (the `observation` of an ObservationEvent). Since 2025-11-05 every
 * observation has `content[]` and `is_error`; older servers sent `output: string` instead, so
 * both are accepted and `observationText()` reads either.
 */

/** Built on the first parse, not at load (built-once.ts says why). */
const observationSchemas = builtOnce(() => {
	const common = {
		content: z.array(contentSchema).nullish(),
		is_error: z.boolean().optional(),
		output: optionalString,
	};

	const base = <K extends string>(kind: K) => z.looseObject({kind: z.literal(kind), ...common});

	const terminalFields = {
		command: optionalString,
		exit_code: z.number().nullish(),
		timeout: z.boolean().nullish(),
		metadata: z.record(z.string(), z.unknown()).nullish(),
		full_output_save_dir: optionalString,
	};

	const fileEditorFields = {
		command: optionalString,
		path: optionalString,
		prev_exist: z.boolean().optional(),
		old_content: optionalString,
		new_content: optionalString,
	};

	return {
		TerminalObservation: base('TerminalObservation').extend(terminalFields),
		ExecuteBashObservation: base('ExecuteBashObservation').extend(terminalFields),
		FileEditorObservation: base('FileEditorObservation').extend(fileEditorFields),
		PlanningFileEditorObservation: base('PlanningFileEditorObservation').extend(fileEditorFields),
		TaskTrackerObservation: base('TaskTrackerObservation').extend({
			command: optionalString,
			task_list: z.array(z.looseObject({title: z.string(), status: z.string().optional()})).nullish(),
		}),
		ReadFileObservation: base('ReadFileObservation').extend({
			file_path: optionalString,
			file_content: optionalString,
			is_truncated: z.boolean().optional(),
			lines_shown: z.array(z.number()).nullish(),
			total_lines: z.number().nullish(),
		}),
		WriteFileObservation: base('WriteFileObservation').extend({
			file_path: optionalString,
			is_new_file: z.boolean().optional(),
		}),
		EditObservation: base('EditObservation').extend({
			file_path: optionalString,
			is_new_file: z.boolean().optional(),
			replacements_made: z.number().optional(),
		}),
		ListDirectoryObservation: base('ListDirectoryObservation').extend({
			dir_path: optionalString,
			total_count: z.number().optional(),
			is_truncated: z.boolean().optional(),
		}),
		GlobObservation: base('GlobObservation').extend({
			files: z.array(z.string()).nullish(),
			pattern: optionalString,
			truncated: z.boolean().optional(),
		}),
		GrepObservation: base('GrepObservation').extend({
			matches: z.array(z.string()).nullish(),
			pattern: optionalString,
			truncated: z.boolean().optional(),
		}),
		MCPToolObservation: base('MCPToolObservation').extend({tool_name: optionalString}),
		FinishObservation: base('FinishObservation'),
		ThinkObservation: base('ThinkObservation'),
		BrowserObservation: base('BrowserObservation').extend({
			screenshot_data: optionalString,
			full_output_save_dir: optionalString,
		}),
		// The answers to the 2026 tools (see actions.ts for where each is defined upstream).
		ApplyPatchObservation: base('ApplyPatchObservation').extend({
			message: optionalString,
			fuzz: z.number().nullish(),
			commit: z.looseObject({changes: z.record(z.string(), z.looseObject({type: z.string().nullish(), move_path: optionalString})).nullish()}).nullish(),
		}),
		TaskObservation: base('TaskObservation').extend({task_id: optionalString, subagent: optionalString, status: optionalString}),
		DelegateObservation: base('DelegateObservation').extend({command: optionalString}),
		InvokeSkillObservation: base('InvokeSkillObservation').extend({skill_name: optionalString}),
		SwitchLLMObservation: base('SwitchLLMObservation').extend({profile_name: optionalString, reason: optionalString, active_model: optionalString}),
		VisionInspectObservation: base('VisionInspectObservation').extend({
			image_index: z.number().nullish(),
			question: optionalString,
			profile_name: optionalString,
			model: optionalString,
			base_url: optionalString,
			answer: optionalString,
		}),
	} as const;
});

type ObservationSchemas = ReturnType<typeof observationSchemas>;
export type KnownObservationKind = keyof ObservationSchemas;
export type KnownObservation = {[K in KnownObservationKind]: z.infer<ObservationSchemas[K]>}[KnownObservationKind];

export type UnknownObservation = {
	kind: 'UnknownObservation';
	originalKind: string;
	/** `unknown observation kind` for a kind this client does not know (a valid one), else what is wrong. */
	problem: string;
	raw: Record<string, unknown>;
};


export type Observation = KnownObservation | UnknownObservation;

export function parseObservation(raw: unknown): Observation {
	const record = (raw !== null && typeof raw === 'object' ? raw : {value: raw}) as Record<string, unknown>;
	const kind = typeof record.kind === 'string' ? record.kind : '';
	const schema = Object.hasOwn(observationSchemas(), kind) ? observationSchemas()[kind as KnownObservationKind] : undefined;
	if (!schema) {
		return {kind: 'UnknownObservation', originalKind: kind || '(no kind)', problem: kind ? unknownObservationKind : 'the observation has no kind', raw: record};
	}
	const result = schema.safeParse(record);
	if (result.success) return result.data as KnownObservation;
	return {kind: 'UnknownObservation', originalKind: kind, problem: result.error.issues[0]?.message ?? 'invalid', raw: record};
}



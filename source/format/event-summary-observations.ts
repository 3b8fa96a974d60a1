import {contentText, observationIsError, observationText} from '../wire/event-fields.js';
import type {Observation} from '../wire/schemas/observations.js';
import {line, type Line} from './event-summary-line.js';
import {countLines, firstLine, plural} from './event-values.js';

/** The timeline's words for a tool's result (event-summary.ts): exit code, size and first line, by observation kind. */

/**
 * Text the service appended after a tool result (ObservationEvent.extended_content: "content added
 * by agent context, e.g. path-scoped rules triggered by the touched file", SDK event/llm_convertible/
 * observation.py). The model read it, so the row says so.
 */
export function withExtendedContent(described: Line, extended: Parameters<typeof contentText>[0]): Line {
	const added = firstLine(contentText(extended));
	return added ? {...described, text: `${described.text} · +context: ${added}`} : described;
}

/** `exit 1 · 3 lines · first line`, or the first line of output, by observation kind. */
export function describeObservation(observation: Observation, toolName: string): Line {
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

/** A terminal observation's exit code: its own, else its metadata's; null when neither is a number. */
export function terminalExitCode(observation: {exit_code?: number | null; metadata?: Record<string, unknown> | null}): number | null {
	if (typeof observation.exit_code === 'number') return observation.exit_code;
	const fromMetadata = observation.metadata?.exit_code;
	return typeof fromMetadata === 'number' && Number.isFinite(fromMetadata) ? fromMetadata : null;
}

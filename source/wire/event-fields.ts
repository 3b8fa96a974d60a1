import {shortEventKind} from './event-kinds.js';
import type {Action, UnknownAction} from './schemas/actions.js';
import type {Content} from './schemas/content.js';
import type {LoggedEvent} from './schemas/events.js';
import type {Observation} from './schemas/observations.js';
import {unknownActionKind} from './schemas/unknown-kinds.js';

/**
 * Plain reads of parsed events: the text of a content list or an observation, whether an
 * observation is an error, the kind name of an event or action (unknown ones by the name the
 * server sent). No zod here: format/ reads events through these and the schema types alone.
 */

export function contentText(content: readonly Content[] | null | undefined): string {
	if (!content) return '';
	return content
		.map((part) => {
			if ('text' in part && typeof part.text === 'string') return part.text;
			if (part.type === 'image') return '[image]';
			return `[${String(part.type)}]`;
		})
		.join('\n');
}

/** The observation's text, from `content[]` (new) or `output` (before 2025-11-05). */
export function observationText(observation: Observation): string {
	if (observation.kind === 'UnknownObservation') {
		const {content, output} = observation.raw;
		if (typeof output === 'string') return output;
		if (Array.isArray(content)) {
			return content.map((part) => (part && typeof part === 'object' && 'text' in part ? String(part.text) : '')).join('\n');
		}
		return '';
	}
	if (observation.content && observation.content.length > 0) {
		return observation.content
			.map((part) => ('text' in part && typeof part.text === 'string' ? part.text : `[${String(part.type)}]`))
			.join('\n');
	}
	return observation.output ?? '';
}

export function observationIsError(observation: Observation): boolean {
	if (observation.kind === 'UnknownObservation') return observation.raw.is_error === true;
	return observation.is_error === true;
}

export function actionKindName(action: Action | null | undefined): string {
	if (!action) return 'none';
	return action.kind === 'UnknownAction' ? action.originalKind : action.kind;
}

/** The kind to show and to filter on: the server's own name, also for unknown kinds. Never validates. */
export function eventKindName(event: LoggedEvent): string {
	if (event.kind === 'PendingEvent') return event.pendingKind;
	return event.kind === 'UnknownEvent' ? shortEventKind(event.originalKind) : event.kind;
}

/** An action of a kind this client has no schema for: valid, shown by its tool name and its own fields. */
export function isUnfamiliarAction(action: Action): action is UnknownAction & {problem: typeof unknownActionKind} {
	return action.kind === 'UnknownAction' && action.problem === unknownActionKind;
}

import {contentText, eventKindName, observationText} from '../wire/event-fields.js';
import type {WireEvent} from '../wire/schemas/events.js';

/**
 * The text a timeline search looks in, per event: the things a person remembers and types
 * (a command, a path, words of a message, an error). Lower-cased once and cached per event object
 * (events are immutable), so filtering 100,000 events again with another word is one `includes`
 * each. Every piece is capped: a 5 MB observation costs its first few KB, not a 5 MB copy.
 */

const pieceCap = 4096;

const cache = new WeakMap<WireEvent, string>();

export function eventSearchText(event: WireEvent): string {
	let text = cache.get(event);
	if (text === undefined) {
		text = collect(event)
			.filter((piece): piece is string => typeof piece === 'string' && piece.length > 0)
			.map((piece) => (piece.length > pieceCap ? piece.slice(0, pieceCap) : piece))
			.join('\n')
			.toLowerCase();
		cache.set(event, text);
	}

	return text;
}

function collect(event: WireEvent): Array<string | null | undefined> {
	switch (event.kind) {
		case 'ActionEvent': {
			const action = event.action;
			const fields: Array<string | null | undefined> = [event.tool_name, event.summary, contentText(event.thought)];
			if (action && action.kind !== 'UnknownAction') {
				const record = action as Record<string, unknown>;
				for (const key of ['command', 'path', 'file_path', 'dir_path', 'pattern', 'message', 'url', 'thought', 'text', 'patch', 'description', 'prompt', 'subagent_type', 'name', 'profile_name', 'reason', 'question']) {
					const value = record[key];
					if (typeof value === 'string') fields.push(value);
				}
			} else {
				// Unknown or missing action: the raw arguments are all there is to search.
				fields.push(event.tool_call?.arguments);
			}

			return fields;
		}

		case 'ObservationEvent': {
			const observation = event.observation as Record<string, unknown>;
			return [
				event.tool_name,
				typeof observation.command === 'string' ? observation.command : undefined,
				typeof observation.path === 'string' ? observation.path : undefined,
				typeof observation.file_path === 'string' ? observation.file_path : undefined,
				observationText(event.observation),
			];
		}

		case 'MessageEvent': {
			return [contentText(event.llm_message.content), event.sender, ...event.activated_skills];
		}

		case 'UserRejectObservation': {
			return [event.tool_name, event.rejection_reason];
		}

		case 'AgentErrorEvent': {
			return [event.tool_name, event.error];
		}

		case 'ConversationErrorEvent': {
			return [event.code, event.detail];
		}

		case 'Condensation': {
			return [event.summary];
		}

		case 'CondensationSummaryEvent': {
			return [event.summary];
		}

		case 'ConversationStateUpdateEvent': {
			return [event.key, typeof event.value === 'string' ? event.value : undefined];
		}

		case 'HookExecutionEvent': {
			return [event.hook_event_type, event.hook_command, event.tool_name, event.reason, event.error, event.stderr];
		}

		case 'ACPToolCallEvent': {
			return [event.title, event.status, event.tool_kind];
		}

		case 'StreamingDeltaEvent': {
			return [event.content, event.reasoning_content];
		}

		case 'ServerErrorEvent': {
			return [event.code, event.detail];
		}

		case 'LLMCompletionLogEvent': {
			return [event.model_name, event.filename];
		}

		case 'UnknownEvent': {
			return [eventKindName(event), event.problem];
		}

		default: {
			// System prompts, tokens, pause/interrupt: only their kind is worth matching.
			return [eventKindName(event)];
		}
	}
}

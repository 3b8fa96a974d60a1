import {eventKindName} from '../wire/event-fields.js';
import type {EventOf, WireEvent} from '../wire/schemas/events.js';
import {type DetailDocument, DetailDocumentBuilder} from './event-detail-document.js';
import {condensationDetails, messageDetails} from './event-details-messages.js';
import {errorDetails, timeZoneNote} from './event-details-parts.js';
import {hookDetails, stateUpdateDetails} from './event-details-state.js';
import {type ActionOutcome, answeredAction, outcomeDetails, toolCallDetails} from './event-details-tool-calls.js';
import {eventSummary} from './event-summary.js';
import {plural} from './event-values.js';
import {prettyJson, prettyJsonString} from './json.js';

export type {ActionOutcome} from './event-details-tool-calls.js';

/**
 * What the details view shows for one event, as a document of sanitized lines (see
 * event-detail-document.ts for why it is never materialised whole). Lookups across the log (the
 * observation that answered an action, what a condensation forgot) are done by the caller with
 * the state layer's selectors and passed in, so this stays a pure function of its inputs. The
 * families of kinds have their parts: tool calls and their answers (event-details-tool-calls.ts),
 * messages and condensations (event-details-messages.ts), state updates and hooks
 * (event-details-state.ts).
 */

export type DetailContext = {
	/** For an ActionEvent: the observation, rejection or agent error that answered it, if any. */
	outcome?: ActionOutcome | null;
	/** For an observation, rejection or agent error: the action it answers, if known. */
	action?: EventOf<'ActionEvent'> | null;
	/** For a Condensation: the forgotten events still in the log (forgottenEvents()). */
	forgotten?: readonly WireEvent[] | null;
	/** For a Condensation: list the forgotten events (toggled in the view). */
	showForgotten?: boolean;
	/** The zone of naive event times (`UTC+1`); null or absent: not known yet. */
	zone?: string | null;
};

export function eventDetails(event: WireEvent, width: number, context: DetailContext = {}): DetailDocument {
	const doc = new DetailDocumentBuilder(width);
	header(doc, event, context.zone ?? null);
	switch (event.kind) {
		case 'ActionEvent': {
			toolCallDetails(doc, event, context.outcome ?? null, context.zone ?? null);
			break;
		}

		case 'ObservationEvent':
		case 'UserRejectObservation':
		case 'AgentErrorEvent': {
			outcomeDetails(doc, event);
			// Undefined: the caller did not look it up; null: it looked and the action is not loaded.
			if (context.action !== undefined) answeredAction(doc, context.action, context.zone ?? null);
			break;
		}

		case 'MessageEvent': {
			messageDetails(doc, event);
			break;
		}

		case 'Condensation': {
			condensationDetails(doc, event, context.forgotten ?? null, context.showForgotten ?? false);
			break;
		}

		case 'CondensationSummaryEvent': {
			doc.field('summary', event.summary);
			break;
		}

		case 'ConversationErrorEvent': {
			errorDetails(doc, [['code', event.code], ['detail', event.detail]], event.classification);
			break;
		}

		case 'ConversationStateUpdateEvent': {
			stateUpdateDetails(doc, event);
			break;
		}

		case 'HookExecutionEvent': {
			hookDetails(doc, event);
			break;
		}

		case 'SystemPromptEvent': {
			const names = (event.tools ?? []).map((tool) => toolName(tool)).filter(Boolean);
			doc.field('tools', names.length > 0 ? names.join(', ') : plural(event.tools?.length ?? 0, 'tool'));
			doc.line('system prompt', 'label').text(event.system_prompt.text);
			if (event.dynamic_context) doc.line('dynamic context', 'label').text(event.dynamic_context.text);
			break;
		}

		case 'LLMCompletionLogEvent': {
			doc.field('model', event.model_name).field('usage id', event.usage_id).field('file', event.filename);
			doc.line('log', 'label').text(prettyJsonString(event.log_data), 'code');
			break;
		}

		case 'TokenEvent': {
			doc.field('prompt tokens', event.prompt_token_ids?.length ?? 0);
			doc.field('response tokens', event.response_token_ids?.length ?? 0);
			break;
		}

		case 'ACPToolCallEvent': {
			doc.field('title', event.title).field('tool kind', event.tool_kind).field('status', event.status);
			doc.field('tool call id', event.tool_call_id);
			if (event.is_error) doc.line('error          yes', 'error');
			if (event.raw_input !== undefined) doc.line('input', 'label').text(prettyJson(event.raw_input), 'code');
			if (event.raw_output !== undefined) doc.line('output', 'label').text(prettyJson(event.raw_output), 'code');
			if (event.content?.length) doc.line('content', 'label').text(prettyJson(event.content), 'code');
			break;
		}

		case 'PauseEvent':
		case 'InterruptEvent':
		case 'CondensationRequest': {
			doc.line(eventSummary(event).text);
			break;
		}

		case 'StreamingDeltaEvent': {
			if (event.content) doc.line('content', 'label').text(event.content);
			if (event.reasoning_content) doc.line('reasoning', 'label').text(event.reasoning_content, 'muted');
			break;
		}

		case 'ServerErrorEvent': {
			doc.field('code', event.code, 'error').field('detail', event.detail, 'error');
			break;
		}

		case 'UnknownEvent': {
			doc.field('kind', eventKindName(event), 'warn');
			doc.field('problem', event.problem, 'warn');
			doc.line('raw event', 'label').text(prettyJson(event.raw), 'code');
			break;
		}
	}

	return doc.build();
}

function header(doc: DetailDocumentBuilder, event: WireEvent, zone: string | null): void {
	const summary = eventSummary(event);
	doc.heading(`${summary.kind} · ${summary.source} · ${event.timestamp}${timeZoneNote(event.timestamp, zone)}`);
	doc.line(summary.text, summary.tone === 'normal' ? 'normal' : summary.tone);
	doc.field('id', event.id, 'muted');
	doc.blank();
}

function toolName(tool: unknown): string {
	if (tool === null || typeof tool !== 'object') return '';
	const record = tool as Record<string, unknown>;
	const name = record.name ?? record.title ?? record.kind;
	return typeof name === 'string' ? name : '';
}

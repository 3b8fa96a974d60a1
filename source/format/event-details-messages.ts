import {contentText} from '../wire/event-fields.js';
import type {EventOf, WireEvent} from '../wire/schemas/events.js';
import type {DetailDocumentBuilder} from './event-detail-document.js';
import {reasoning} from './event-details-parts.js';
import {kindLabel} from './event-kind-label.js';
import {eventSummary} from './event-summary.js';
import {plural} from './event-values.js';
import {prettyJsonString} from './json.js';
import {formatCount} from './numbers.js';

/** The details of what was said and what was forgotten (event-details.ts): a message, a condensation. */

/** A message: who said it, the text, skills it activated, reasoning and any tool calls it carried. */
export function messageDetails(doc: DetailDocumentBuilder, event: EventOf<'MessageEvent'>): void {
	const message = event.llm_message;
	doc.field('role', message.role).field('sender', event.sender);
	if (event.activated_skills.length > 0) doc.field('skills', event.activated_skills.join(', '));
	if (event.critic_result) doc.field('critic', `${event.critic_result.score.toFixed(2)}${event.critic_result.message ? ` · ${event.critic_result.message}` : ''}`);
	doc.blank().line('text', 'label');
	const text = contentText(message.content);
	if (text) doc.text(text);
	else doc.line('  (no text)', 'muted');
	const extended = contentText(event.extended_content);
	if (extended) doc.blank().line('extended content', 'label').text(extended, 'muted');
	reasoning(doc, message);
	for (const call of message.tool_calls ?? []) {
		doc.blank().line(`tool call ${call.name} (${call.id})`, 'label').text(prettyJsonString(call.arguments), 'code');
	}
}

/**
 * A condensation: how much the agent forgot, its summary, and where the summary sits in the
 * agent's new view. The forgotten events themselves are listed on request (they can be many).
 */
export function condensationDetails(
	doc: DetailDocumentBuilder,
	event: EventOf<'Condensation'>,
	forgotten: readonly WireEvent[] | null,
	showForgotten: boolean,
): void {
	const ids = event.forgotten_event_ids;
	const known = forgotten?.length ?? 0;
	doc.field('forgotten', `${plural(ids.length, 'event')}${forgotten ? ` (${formatCount(known)} in the loaded log)` : ''}`, 'warn');
	doc.field(
		'summary offset',
		event.summary_offset == null
			? 'none: the summary is not inserted into the agent\'s view'
			: `${event.summary_offset}: the summary is inserted at position ${event.summary_offset} of the condensed view`,
	);
	doc.field('response id', event.llm_response_id, 'muted');
	doc.blank().line('summary', 'label');
	if (event.summary) doc.text(event.summary);
	else doc.line('  (no summary)', 'muted');
	doc.blank();
	if (ids.length === 0) return;
	if (!showForgotten) {
		doc.line(`forgotten events: ${plural(ids.length, 'event')} (enter shows them)`, 'muted');
		return;
	}

	doc.line('forgotten events (enter hides them)', 'label');
	const seen = new Set<string>();
	for (const item of forgotten ?? []) {
		seen.add(item.id);
		const summary = eventSummary(item);
		doc.line(`  ${summary.time} ${kindLabel(summary.kind).padEnd(12)} ${summary.text}`, summary.tone === 'normal' ? 'normal' : summary.tone);
	}

	const missing = ids.filter((id) => !seen.has(id));
	if (missing.length > 0) {
		doc.line(`  not in the loaded log (${formatCount(missing.length)}):`, 'muted');
		doc.text(missing.join('\n'), 'muted', {indent: '    '});
	}
}

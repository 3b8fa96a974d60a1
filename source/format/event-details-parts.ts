import {readClassification} from '../wire/error-classification.js';
import {classificationWords} from './error-cause.js';
import type {DetailDocumentBuilder} from './event-detail-document.js';
import {plural} from './event-values.js';

/**
 * Pieces the details of several event kinds share (event-details.ts and its event-details-*.ts
 * parts): the zone beside an event time, the model's reasoning, an error with its classification.
 */

/**
 * The zone an event time is in, said beside it: agent servers write naive local times, whose zone
 * is found by comparing with the app server's UTC (state/data-clock.ts); a time with its own zone
 * says it already.
 */
export function timeZoneNote(timestamp: string, zone: string | null): string {
	if (/(?:Z|[+-]\d{2}:?\d{2})$/i.test(timestamp.trim())) return '';
	return zone ? ` ${zone}` : ' (server local time, zone not known yet)';
}

export type Reasoning = {
	reasoning_content?: string | null | undefined;
	thinking_blocks?: ReadonlyArray<{type: string; thinking?: unknown}> | null | undefined;
	responses_reasoning_item?: {summary?: string[] | null | undefined} | null | undefined;
};

/**
 * The model's reasoning in the three forms providers send: plain text, Anthropic thinking blocks
 * (redacted ones only counted), and the Responses API summary. Never `encrypted_content`.
 */
export function reasoning(doc: DetailDocumentBuilder, source: Reasoning): void {
	if (source.reasoning_content?.trim()) doc.blank().line('reasoning', 'label').text(source.reasoning_content, 'muted');
	const blocks = source.thinking_blocks ?? [];
	const thinking = blocks.map((block) => (block.type === 'thinking' && typeof block.thinking === 'string' ? block.thinking : '')).filter(Boolean);
	if (thinking.length > 0) doc.blank().line('thinking', 'label').text(thinking.join('\n\n'), 'muted');
	const redacted = blocks.filter((block) => block.type === 'redacted_thinking').length;
	if (redacted > 0) doc.line(`  (${plural(redacted, 'redacted thinking block')})`, 'muted');
	const summary = source.responses_reasoning_item?.summary ?? [];
	if (summary.length > 0) doc.blank().line('reasoning summary', 'label').text(summary.map((item) => `• ${item}`).join('\n'), 'muted');
}

/** An error's own words, in the error tone, and the SDK's classification of it. */
export function errorDetails(doc: DetailDocumentBuilder, fields: ReadonlyArray<readonly [string, string]>, value: unknown): void {
	for (const [label, words] of fields) doc.field(label, words, 'error');
	classification(doc, value);
}

/** The SDK's classification of an error: what kind of failure, whether to retry, what a person can do. */
function classification(doc: DetailDocumentBuilder, value: unknown): void {
	const read = readClassification(value);
	if (!read) return;
	doc.field('cause', classificationWords(read), 'error');
	doc.field('retryable', read.retryable === null ? null : read.retryable ? 'yes' : 'no');
	doc.field('user action', read.userAction === 'none' ? null : read.userAction);
	doc.field('error id', read.errorId, 'muted');
}

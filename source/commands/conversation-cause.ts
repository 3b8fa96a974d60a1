import type {AgeNow} from '../format/time.js';
import type {ErrorCause} from '../wire/error-classification.js';
import type {AppConversation} from '../wire/schemas/app.js';
import {computeAttention, parseTime} from '../state/attention.js';
import {causeJson, causeOf, type CauseJson} from '../state/causes.js';
import {conversationKey} from '../state/conversation-rows.js';
import type {ConversationRow} from '../state/dashboard-types.js';

/**
 * The cause the dashboard's queue would group a conversation by (state/causes.ts), from one
 * listing: waiting for approval, error (by the classification of its error, when the command read
 * it), stuck, a sandbox down with its status detail, quiet. What needs a history of polls
 * (spending without progress, paused mid-run) is the dashboard's and `watch`'s; repeating is the
 * caller's to read (commands/repeat-tails.ts) and pass in.
 * `conversations --json` adds it to each row as `cause` (null when nothing needs a person).
 */
export function conversationCause(conversation: AppConversation, now: AgeNow, errorCause?: ErrorCause | null, repeat?: {tool: string; count: number} | null): CauseJson | null {
	const status = conversation.execution_status ? String(conversation.execution_status) : null;
	const lastActivityAt = parseTime(conversation.updated_at);
	// Why its sandbox is down, as the listing read it (conversations.ts withSandboxReasons): the
	// dashboard's queue groups by it (`sandbox:ERROR:OOMKilled`).
	const detail = conversation.sandbox_status_detail;
	const sandboxDetail = typeof detail === 'string' && detail.trim() ? detail : null;
	const row: ConversationRow & {errorCause?: ErrorCause | null} = {
		key: conversationKey(conversation),
		conversation,
		agentStatus: status,
		agentStatusLastKnown: false,
		// Ages not known (commands/listing-clock.ts): no `quiet` from a clock's skew.
		attention: computeAttention({conversation, executionStatus: status, lastActivityAt, sandboxDetail, repeat: repeat ?? null, ...(now === 'unknown' ? {now: Date.now(), agesKnown: false} : {now})}),
		lastActivityAt,
		unseenEvents: 0,
		...(sandboxDetail === null ? {} : {sandboxDetail}),
		...(errorCause === undefined ? {} : {errorCause}),
	};
	return causeJson(causeOf(row));
}

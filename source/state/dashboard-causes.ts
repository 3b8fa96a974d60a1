import {normalizeId} from '../wire/ids.js';
import type {AppConversation} from '../wire/schemas/app.js';
import type {AgentClient} from '../wire/agent-client.js';
import {ErrorCauses, type ReadCause, readAgentErrorCause, readErrorCause} from './error-causes.js';
import {historySource, type StoredHistoryOptions} from './stored-history.js';
import type {RequestBudget} from './request-budget.js';
import type {ConversationRow} from './dashboard-types.js';

/**
 * Causes the rows carry beyond their own fields: why an errored conversation failed (read from
 * its events: error-causes.ts), and which rows need attention (the poller looks at those first).
 * The reasons themselves are built in conversation-rows.ts and attention.ts from the row's facts.
 */

export type DashboardCausesOptions = {
	appBaseUrl: string;
	budget: RequestBudget;
	storedEvents: StoredHistoryOptions['client'] | undefined;
	agentClient: (conversation: AppConversation, appBaseUrl: string) => AgentClient;
	onChange: (key: string) => void;
	now: () => number;
};

export function createErrorCauses(options: DashboardCausesOptions): ErrorCauses {
	return new ErrorCauses({reader: (conversation) => causeReader(options, conversation), onChange: options.onChange, now: options.now});
}

/**
 * How to read an errored conversation's cause: its agent server while the sandbox runs (that
 * server's own limits, not the app server's budget), else the stored copy, behind what a person
 * looks at in the app server's budget. Without either, it stays unknown.
 */
function causeReader(options: DashboardCausesOptions, conversation: AppConversation): ReadCause {
	const conversationId = String(conversation.id);
	if (historySource(conversation) === 'agent-server') {
		const client = options.agentClient(conversation, options.appBaseUrl);
		return (signal) => readAgentErrorCause(client, signal);
	}
	const stored = options.storedEvents;
	if (!stored) return () => Promise.resolve(null);
	return (signal) =>
		options.budget.schedule(`error-cause:${normalizeId(conversationId)}`, (budgetSignal) => readErrorCause(stored, conversationId, AbortSignal.any([signal, budgetSignal])), 'background');
}

/** The rows that need attention: the poller looks at them right after the visible ones. */
export function attentionKeys(rows: ReadonlyMap<string, ConversationRow>): string[] {
	const keys: string[] = [];
	for (const row of rows.values()) if (row.attention.length > 0) keys.push(row.key);
	return keys;
}

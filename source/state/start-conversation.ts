import {OutcomeUnknownError} from '../wire/errors.js';
import {normalizeId} from '../wire/ids.js';
import {type AppConversation, type StartTask, startTaskError} from '../wire/schemas/app.js';
import {describeIssues} from '../wire/schemas/common.js';
import {type CreateRequest, createRequestFor, createRequestSchema} from '../wire/schemas/create-request.js';
import type {DashboardController, StartProgress} from './dashboard-types.js';
import {publicMessage, redact} from './redact.js';
import {BudgetClosedError, type RequestBudget} from './request-budget.js';
import {shortId} from './sandbox-rows.js';

/**
 * Starting a conversation (the `s` form and `agent-tui start`): validate locally, POST `stream-start` through the
 * budget, record every start-task snapshot as it streams, and on READY fetch the new conversation
 * so it appears (and opens) at once. The messages say what a person needs to know next,
 * especially when the connection broke: the start may have gone through, so do not just retry.
 */

export type StartInput = Parameters<DashboardController['startConversation']>[0];

export type StartClient = {
	streamStart(request: CreateRequest, call?: {signal?: AbortSignal}): AsyncIterable<StartTask>;
	getConversations(ids: readonly string[], call?: {signal?: AbortSignal}): Promise<Array<AppConversation | null>>;
};

export type StartDeps = {
	client: StartClient;
	budget: RequestBudget;
	secrets: readonly string[];
	/** Aborted on reset or close: reading stops (the server carries on either way). */
	signal: AbortSignal;
	/** False once this start was reset or the store closed: nothing more is reported. */
	current(): boolean;
	progress(patch: Partial<StartProgress>, replace?: boolean): void;
	/** READY and fetched: add the row, follow it, open its timeline. */
	opened(conversation: AppConversation): void;
	notice(text: string, level: 'info' | 'warn' | 'error'): void;
	/** Something may exist that the list does not show yet: walk the search pages again. */
	refresh(): void;
	/** The phases so far (the store's current copy). */
	phases(): StartTask[];
};

const brokenText = ' The connection broke: the conversation may have been created anyway; check the list before starting again.';

export async function runStart(input: StartInput, deps: StartDeps): Promise<void> {
	const parsed = createRequestSchema.safeParse(createRequestFor(input));
	if (!parsed.success) {
		deps.progress({state: 'error', phases: [], error: `The request is not valid: ${describeIssues(parsed.error)}`, conversationKey: null}, true);
		return;
	}

	deps.progress({state: 'starting', phases: [], error: null, conversationKey: null}, true);
	const iterator = deps.client.streamStart(parsed.data, {signal: deps.signal})[Symbol.asyncIterator]();
	let last: StartTask | null = null;
	try {
		// The POST is sent on the first read: it goes through the budget like any request.
		let step = await deps.budget.schedule('conversations:start', () => iterator.next(), 'action');
		while (!step.done) {
			last = step.value;
			if (!deps.current()) return;
			deps.progress({phases: [...deps.phases(), step.value]});
			if (step.value.status === 'READY' || step.value.status === 'ERROR') break;
			step = await iterator.next();
		}
	} catch (error) {
		if (!deps.current() || error instanceof BudgetClosedError) return;
		// Once a phase arrived, the server had the request: a break now may leave a conversation behind.
		const mayExist = error instanceof OutcomeUnknownError || last !== null;
		deps.progress({state: 'error', error: `${publicMessage(error, deps.secrets)}${mayExist ? brokenText : ''}`});
		if (mayExist) deps.refresh();
		return;
	} finally {
		void Promise.resolve(iterator.return?.()).catch(() => undefined);
	}

	if (!deps.current()) return;
	if (!last || (last.status !== 'READY' && last.status !== 'ERROR')) {
		deps.progress({
			state: 'error',
			error: 'The start stream ended before the conversation was ready. It may still be starting: check the list after the next refresh.',
		});
		deps.refresh();
		return;
	}

	if (last.status === 'ERROR') {
		deps.progress({state: 'error', error: redact(startTaskError(last) ?? 'The server reported an error without details.', deps.secrets)});
		return;
	}

	const conversationId = last.app_conversation_id;
	if (!conversationId) {
		deps.progress({state: 'error', error: 'The server said READY but sent no conversation id; check the list after the next refresh.'});
		deps.refresh();
		return;
	}

	const key = normalizeId(conversationId);
	deps.progress({state: 'ready', conversationKey: key});
	try {
		const [conversation] = await deps.budget.schedule(
			'conversations:start-lookup',
			(signal) => deps.client.getConversations([conversationId], {signal}),
			'action',
		);
		if (!deps.current()) return;
		if (conversation) {
			deps.opened(conversation);
			// The form closes as the timeline opens: the notice line keeps the outcome in view.
			deps.notice(`Conversation ${shortId(key)} is READY; its timeline is open.`, 'info');
		} else {
			deps.notice(`Conversation ${shortId(key)} started, but the server does not list it yet; it will appear after the next refresh.`, 'warn');
			deps.refresh();
		}
	} catch (error) {
		if (!deps.current() || error instanceof BudgetClosedError) return;
		deps.notice(`Conversation ${shortId(key)} started, but fetching it failed: ${publicMessage(error, deps.secrets)}`, 'warn');
		deps.refresh();
	}
}

import {sanitizeLine} from '../../format/sanitize.js';
import {cannotResumeText, canResume} from '../../format/sandbox-advice.js';
import {sandboxKeyOf} from '../../state/sandbox-rows.js';
import type {DashboardController, DashboardSnapshot, RowServer} from '../../state/dashboard-types.js';
import {keyOf} from '../keymap.js';
import type {ConfirmRequest} from '../view-state.js';
import {executionStatusOf, shortTitle} from '../../state/triage-plan.js';

/**
 * What `i` (stop this conversation's agent) and `c` (let it continue) do: ask y/n naming the
 * conversation and saying what is not touched, or say why not. A conversation whose sandbox is
 * not RUNNING has no agent server to ask: the answer names the sandbox resume key, and nothing
 * is resumed on the user's behalf.
 */

export type AgentVerb = 'interrupt' | 'continueAgent';

export type AgentControlPlan = {kind: 'ask'; request: ConfirmRequest} | {kind: 'refuse'; text: string};

type Snapshot = Pick<DashboardSnapshot, 'conversations' | 'sandboxes' | 'timeline'> & Partial<Pick<DashboardSnapshot, 'connection'>>;

/** Execution statuses with no agent at work: there is nothing to stop. */
const notWorking = new Set(['paused', 'idle', 'finished']);

export function planAgentControl(snapshot: Snapshot, controller: Pick<DashboardController, AgentVerb>, verb: AgentVerb, key: string | null | undefined): AgentControlPlan {
	if (!key) return {kind: 'refuse', text: 'No conversation selected.'};
	const row = snapshot.conversations.get(key);
	if (!row) return {kind: 'refuse', text: 'That conversation is not in the list (ctrl-r refreshes it).'};
	if (typeof controller[verb] !== 'function') return {kind: 'refuse', text: 'This server connection cannot stop or continue an agent.'};
	const title = shortTitle(snapshot, key);
	const sandboxStatus = String(row.conversation.sandbox_status ?? 'MISSING');
	if (sandboxStatus !== 'RUNNING') {
		const what = verb === 'interrupt' ? 'nothing to stop' : 'its agent cannot continue until the sandbox runs';
		return {kind: 'refuse', text: `"${title}": its sandbox is ${sandboxStatus.toLowerCase()}, so ${what}. ${sandboxAdvice(sandboxStatus)}`};
	}
	const status = executionStatusOf(snapshot, key) ?? 'unknown';
	if (verb === 'interrupt' && notWorking.has(status)) {
		return {kind: 'refuse', text: `"${title}" is ${status}: its agent is not working, nothing to stop.${status === 'paused' ? ` Press ${keyOf('continueAgent')} to let it continue.` : ''}`};
	}
	if (verb === 'continueAgent' && status === 'running') return {kind: 'refuse', text: `"${title}" is already running.`};
	const others = otherConversations(snapshot, key);
	const sandbox = sanitizeLine(String(row.conversation.sandbox_id ?? '').slice(0, 12));
	const untouched = `sandbox ${sandbox}${others > 0 ? ` and its ${others} other conversation${others === 1 ? '' : 's'}` : ''} keep${others > 0 ? '' : 's'} running`;
	const down = serverDown(snapshot, row.server);
	if (verb === 'interrupt') {
		return {
			kind: 'ask',
			request: {action: 'interrupt', conversationKey: key, question: `Stop the agent of "${title}"?`, detail: `${down}only this one: ${untouched} · ${keyOf('continueAgent')} continues it`},
		};
	}
	return {kind: 'ask', request: {action: 'continueAgent', conversationKey: key, question: `Let the agent of "${title}" continue?`, detail: `${down}it is ${status}; it picks up where it stopped`}};
}

/**
 * The question's first words when the row's server did not answer its last look (the row's
 * server in the all-servers view, the one connection otherwise): the status shown is its last
 * known, and the request may fail. Empty when the server answers.
 */
function serverDown(snapshot: Snapshot, server: RowServer | undefined): string {
	if (server) return server.stale ? `${sanitizeLine(server.name)} is not answering (the status shown is its last known; this may fail) · ` : '';
	const health = snapshot.connection?.health;
	return health === 'offline' || health === 'stale' ? 'the server is not answering (the status shown is its last known; this may fail) · ' : '';
}

/** What the user can do about a stopped sandbox: only a paused one can be resumed (sandbox-advice.ts). */
export function sandboxAdvice(sandboxStatus: string): string {
	if (canResume(sandboxStatus)) return `Press ${keyOf('resume')} to resume the sandbox.`;
	const upper = sandboxStatus.toUpperCase();
	if (upper === 'ERROR' || upper === 'MISSING') return `${cannotResumeText(upper).replace(/^[a-z]+ \([A-Z]+\): i/, 'I')}.`;
	return 'Wait for the sandbox to run.';
}

/** Conversations sharing the sandbox of `key`, itself left out. */
export function otherConversations(snapshot: Pick<DashboardSnapshot, 'conversations' | 'sandboxes'>, key: string): number {
	const sandboxId = snapshot.conversations.get(key)?.conversation.sandbox_id;
	if (!sandboxId) return 0;
	const sandbox = snapshot.sandboxes.get(sandboxKeyOf(snapshot.sandboxes, sandboxId));
	return sandbox ? sandbox.conversationKeys.filter((other) => other !== key).length : 0;
}

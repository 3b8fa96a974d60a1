import {hasAgentServer} from '../wire/agent-base-url.js';
import {AgentClient} from '../wire/agent-client.js';
import {normalizeId} from '../wire/ids.js';
import type {AppConversation} from '../wire/schemas/app.js';
import type {LoggedEvent} from '../wire/schemas/events.js';
import {canResume, cannotResumeText} from '../format/sandbox-advice.js';
import {publicMessage} from './redact.js';
import {pendingActions, type PendingAction} from './timeline-query.js';

/**
 * Approve, reject, nudge, interrupt and continue: requests to one conversation's agent server (the app server has no
 * such endpoints). Each throws an Error whose message is already short and secret-free, so the
 * view can show it as is.
 */

export type ActionClient = Pick<AgentClient, 'respondToConfirmation' | 'sendMessage' | 'interrupt' | 'continueRun' | 'searchEvents' | 'askAgent'>;

/**
 * The conversation's sandbox is not RUNNING, so its agent server is unreachable: nothing to stop
 * or continue. Never resumed here: resuming a sandbox is the user's own, separate decision.
 */
export class SandboxNotRunningError extends Error {
	override name = 'SandboxNotRunningError';
	constructor(readonly sandboxStatus: string) {
		super(canResume(sandboxStatus) ? `its sandbox is ${sandboxStatus}, not RUNNING: resume the sandbox first` : `its sandbox is ${cannotResumeText(sandboxStatus)}`);
	}
}

export type ConversationActionsOptions = {
	appBaseUrl: string;
	/** Exact strings never to show (the API key). */
	secrets: readonly string[];
	/** The newest polled conversation: its agent server URL and session key change on resume. */
	conversation(key: string): AppConversation | undefined;
	/** After an accepted request: the status changes on the server, refresh it soon. */
	onAccepted(key: string): void;
	/** Tests may pass a stand-in. */
	client?: (conversation: AppConversation, appBaseUrl: string) => ActionClient;
};

export type ConversationActions = {
	approve(key: string): Promise<void>;
	reject(key: string, reason?: string): Promise<void>;
	nudge(key: string, text: string): Promise<void>;
	/** Stops one agent (`/interrupt`, or `/pause` on older servers); says which the server took. */
	interrupt(key: string): Promise<'interrupt' | 'pause'>;
	/** Lets a stopped agent go on (`/run`); `already-running` when the server says so (409). */
	continueAgent(key: string): Promise<'started' | 'already-running'>;
	pendingActions(key: string): Promise<readonly PendingAction[]>;
	/**
	 * A side question (`ask_agent`): the agent's answer, as it sent it (unsanitized). Nothing about
	 * the conversation changes, so nothing is refreshed; a sandbox that is not running is refused
	 * (never resumed). `signal` abandons the wait.
	 */
	askAgent(key: string, question: string, signal?: AbortSignal): Promise<string>;
};

/** The newest events read to find what waits for confirmation: pending actions are the newest ones. */
const pendingWindow = 100;

export function createConversationActions(options: ConversationActionsOptions): ConversationActions {
	const clientFor = options.client ?? ((conversation, appBaseUrl) => AgentClient.fromConversation(conversation, appBaseUrl, {maxRetries: 1}));
	const send = async <T>(key: string, request: (client: ActionClient) => Promise<T>, needsRunningSandbox = false): Promise<T> => {
		const normalized = normalizeId(key);
		const conversation = options.conversation(normalized);
		if (!conversation) throw new Error('that conversation is not in the list (yet)');
		const sandboxStatus = String(conversation.sandbox_status ?? 'MISSING');
		if (needsRunningSandbox && !hasAgentServer(conversation)) throw new SandboxNotRunningError(sandboxStatus);
		let result: T;
		try {
			// A failed POST is not retried blindly: a second approval could answer a newer question.
			result = await request(clientFor(conversation, options.appBaseUrl));
		} catch (error) {
			throw new Error(publicMessage(error, options.secrets));
		}
		options.onAccepted(normalized);
		return result;
	};
	const read = async (key: string): Promise<readonly PendingAction[]> => {
		const conversation = options.conversation(normalizeId(key));
		if (!conversation) throw new Error('that conversation is not in the list (yet)');
		try {
			const page = await clientFor(conversation, options.appBaseUrl).searchEvents({sortOrder: 'TIMESTAMP_DESC', limit: pendingWindow});
			const ascending: LoggedEvent[] = [...page.events].reverse();
			return pendingActions(ascending);
		} catch (error) {
			throw new Error(publicMessage(error, options.secrets));
		}
	};
	return {
		pendingActions: read,
		approve: (key) => send(key, (client) => client.respondToConfirmation(true)),
		reject: (key, reason) => send(key, (client) => client.respondToConfirmation(false, reason)),
		nudge: (key, text) => {
			if (text.trim().length === 0) return Promise.reject(new Error('an empty message is not sent'));
			return send(key, (client) => client.sendMessage(text, {run: true}));
		},
		interrupt: (key) => send(key, (client) => client.interrupt(), true),
		continueAgent: (key) => send(key, (client) => client.continueRun(), true),
		askAgent: async (key, question, signal) => {
			if (question.trim().length === 0) throw new Error('an empty question is not sent');
			const conversation = options.conversation(normalizeId(key));
			if (!conversation) throw new Error('that conversation is not in the list (yet)');
			if (!hasAgentServer(conversation)) throw new SandboxNotRunningError(String(conversation.sandbox_status ?? 'MISSING'));
			try {
				return await clientFor(conversation, options.appBaseUrl).askAgent(question, signal ? {signal} : {});
			} catch (error) {
				throw new Error(publicMessage(error, options.secrets));
			}
		},
	};
}

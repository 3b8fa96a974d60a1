import {AgentClient} from '../wire/agent-client.js';
import {normalizeId} from '../wire/ids.js';
import type {AppConversation} from '../wire/schemas/app.js';
import {publicMessage} from './redact.js';

/**
 * Approve, reject and nudge: requests to one conversation's agent server (the app server has no
 * such endpoints). Each throws an Error whose message is already short and secret-free, so the
 * view can show it as is.
 */

export type ActionClient = Pick<AgentClient, 'respondToConfirmation' | 'sendMessage'>;

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
};

export function createConversationActions(options: ConversationActionsOptions): ConversationActions {
	const clientFor = options.client ?? ((conversation, appBaseUrl) => AgentClient.fromConversation(conversation, appBaseUrl, {maxRetries: 1}));
	const send = async (key: string, request: (client: ActionClient) => Promise<void>): Promise<void> => {
		const normalized = normalizeId(key);
		const conversation = options.conversation(normalized);
		if (!conversation) throw new Error('that conversation is not in the list (yet)');
		try {
			// A failed POST is not retried blindly: a second approval could answer a newer question.
			await request(clientFor(conversation, options.appBaseUrl));
		} catch (error) {
			throw new Error(publicMessage(error, options.secrets));
		}
		options.onAccepted(normalized);
	};
	return {
		approve: (key) => send(key, (client) => client.respondToConfirmation(true)),
		reject: (key, reason) => send(key, (client) => client.respondToConfirmation(false, reason)),
		nudge: (key, text) => {
			if (text.trim().length === 0) return Promise.reject(new Error('an empty message is not sent'));
			return send(key, (client) => client.sendMessage(text, {run: true}));
		},
	};
}

import {isUuidLike, normalizeId} from '../wire/ids.js';
import {AgentClient} from '../wire/agent-client.js';
import type {AppConversation} from '../wire/schemas/app.js';
import {MissingError, UnavailableError, UsageError} from './exit-codes.js';
import {addSecret, type Io} from './io.js';
import type {Server} from './server.js';

/**
 * Finding a conversation by either id spelling (32 hex, or the agent server's dashed UUID), or by
 * the short form the table prints, and reaching its agent server. The app server has no `GET /app-conversations/{id}`; the batch
 * look-up answers null for an unknown id, which is "not found" here.
 */
export async function findConversation(server: Server, io: Io, id: string): Promise<AppConversation> {
	// Under the budget: a read that follows (a stored history, page after page) counts it.
	const conversation = isUuidLike(id) ? (await server.pace('conversation-lookup', 'action')((signal) => server.app.getConversations([id], {signal})))[0] : await findByPrefix(server, id);
	if (!conversation) throw new MissingError(`no conversation with id ${id}`);
	// Its session key may appear in what we print (an agent echoing it): scrub it like ours.
	addSecret(io, conversation.session_api_key);
	return conversation;
}

/**
 * The short id the table shows (`50cd0695`) is what people copy. The API cannot look up a prefix,
 * so it costs a walk through the list; it must match exactly one conversation.
 */
async function findByPrefix(server: Server, id: string): Promise<AppConversation | null> {
	const prefix = id.trim().toLowerCase().replaceAll('-', '');
	if (!/^[0-9a-f]{6,31}$/.test(prefix)) {
		throw new UsageError(`"${id}" is not a conversation id (expected 32 hex characters, a dashed UUID, or the first 6+ characters of one)`);
	}
	const matches: AppConversation[] = [];
	for await (const conversation of server.app.searchConversations()) {
		if (normalizeId(conversation.id).startsWith(prefix)) matches.push(conversation);
		if (matches.length > 1) throw new UsageError(`"${id}" matches more than one conversation; give more of the id`);
	}
	return matches[0] ?? null;
}

/** The agent server of a conversation whose sandbox runs; a clear error otherwise. */
export function agentFor(server: Server, conversation: AppConversation): AgentClient {
	if (!conversation.conversation_url) {
		throw new UnavailableError(
			`conversation ${conversation.id} has no reachable agent server: its sandbox is ${conversation.sandbox_status ?? 'MISSING'}` +
				(conversation.sandbox_status === 'PAUSED' && conversation.sandbox_id ? ` (resume it: agent-tui resume ${conversation.sandbox_id})` : ''),
		);
	}
	return AgentClient.fromConversation(conversation, server.baseUrl, server.transport ? {transport: server.transport} : {});
}

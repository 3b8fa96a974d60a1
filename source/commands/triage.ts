import {agentFor, findConversation} from './conversation-lookup.js';
import {label, requireRunningSandbox} from './agent-control.js';
import {UsageError} from './exit-codes.js';
import {printText, type Io} from './io.js';
import type {Server} from './server.js';

/**
 * `agent-tui approve|reject|message <conversation-id>`: what `a`, `x` and `m` do in the
 * dashboard, through the same agent-server calls. Approving or rejecting needs a conversation
 * that waits for confirmation; anything else is refused before a request is sent.
 */

export async function runApprove(server: Server, io: Io, id: string): Promise<number> {
	const conversation = await waiting(server, io, id, 'approve');
	await agentFor(server, conversation).respondToConfirmation(true);
	printText(io, `approved the pending actions of ${label(conversation)}; its agent goes on`);
	return 0;
}

export async function runReject(server: Server, io: Io, id: string, reason: string | undefined): Promise<number> {
	const conversation = await waiting(server, io, id, 'reject');
	await agentFor(server, conversation).respondToConfirmation(false, reason?.trim() ? reason : undefined);
	printText(io, `rejected the pending actions of ${label(conversation)}${reason?.trim() ? ' (the agent sees your reason)' : ''}`);
	return 0;
}

/** Without --run the message is only added (the server's own default); with it, the agent runs. */
export async function runMessage(server: Server, io: Io, id: string, text: string, run: boolean): Promise<number> {
	if (text.trim().length === 0) throw new UsageError('an empty message is not sent');
	const conversation = requireRunningSandbox(await findConversation(server, io, id), 'message');
	await agentFor(server, conversation).sendMessage(text, {run});
	printText(io, `message sent to ${label(conversation)}${run ? '; its agent runs' : ' (not run: add --run to start its agent)'}`);
	return 0;
}

async function waiting(server: Server, io: Io, id: string, verb: 'approve' | 'reject') {
	const conversation = requireRunningSandbox(await findConversation(server, io, id), verb);
	// The agent server's own status is the newest; the app server's copy may lag a poll behind.
	const status = String((await agentFor(server, conversation).getInfo()).execution_status ?? 'unknown');
	if (status !== 'waiting_for_confirmation') throw new UsageError(`${label(conversation)} is ${status}, not waiting for confirmation: nothing to ${verb}`);
	return conversation;
}

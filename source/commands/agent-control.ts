import {canResume, cannotResumeText} from '../format/sandbox-advice.js';
import {normalizeId} from '../wire/ids.js';
import type {AppConversation} from '../wire/schemas/app.js';
import {agentFor, findConversation} from './conversation-lookup.js';
import {UnavailableError} from './exit-codes.js';
import {printText, type Io} from './io.js';
import type {Server} from './server.js';

/**
 * `agent-tui interrupt <conversation-id>` and `agent-tui run <conversation-id>`: stop one agent,
 * or let it go on, through its conversation's agent server. The sandbox is never paused or
 * resumed here: its other conversations keep running, and a stopped sandbox stays stopped.
 */

export async function runInterrupt(server: Server, io: Io, id: string): Promise<number> {
	const conversation = await findConversation(server, io, id);
	const agent = agentFor(server, requireRunningSandbox(conversation, 'interrupt'));
	// The agent server's own status is the newest: an agent not at work has nothing to stop.
	const status = String((await agent.getInfo()).execution_status ?? 'unknown');
	if (status === 'paused' || status === 'idle' || status === 'finished') {
		printText(io, `${label(conversation)} is ${status}: its agent is not working, nothing to interrupt${status === 'paused' ? ` (continue it with: agent-tui run ${normalizeId(conversation.id)})` : ''}`);
		return 0;
	}
	const how = await agent.interrupt();
	// Not counting the sandbox's other conversations: that would cost a walk through every page.
	printText(
		io,
		`interrupted ${label(conversation)}: its agent is ${how === 'interrupt' ? 'paused' : 'pausing after its current step (this server has no /interrupt; used /pause)'}; ` +
			`sandbox ${short(conversation.sandbox_id)} and its other conversations keep running. Continue it with: agent-tui run ${normalizeId(conversation.id)}`,
	);
	return 0;
}

export async function runContinue(server: Server, io: Io, id: string): Promise<number> {
	const conversation = await findConversation(server, io, id);
	const agent = agentFor(server, requireRunningSandbox(conversation, 'run'));
	const answer = await agent.continueRun();
	printText(io, answer === 'already-running' ? `${label(conversation)} is already running; nothing to do` : `${label(conversation)} is running again`);
	return 0;
}

/**
 * A conversation whose sandbox is not RUNNING has no agent server to ask. Say so and how to
 * resume it; never resume it as a side effect (resuming may pause another sandbox).
 */
export function requireRunningSandbox(conversation: AppConversation, verb: string): AppConversation {
	const status = String(conversation.sandbox_status ?? 'MISSING');
	if (status === 'RUNNING' && conversation.conversation_url) return conversation;
	// Only a paused sandbox can be resumed; advising it for an ERROR or MISSING one leads to a 404.
	const resume = !conversation.sandbox_id ? '' : canResume(status) ? `; resume it first with: agent-tui resume ${conversation.sandbox_id}` : status === 'ERROR' || status === 'MISSING' ? `; ${cannotResumeText(status).replace(/^[a-z]+ \([A-Z]+\): /, '')}` : '';
	throw new UnavailableError(
		`cannot ${verb} ${label(conversation)}: its sandbox ${short(conversation.sandbox_id)} is ${status}, not RUNNING, so its agent is not running. Nothing was changed${resume}`,
	);
}

export function label(conversation: AppConversation): string {
	const title = conversation.title ? `"${conversation.title}"` : 'conversation';
	return `${title} (${normalizeId(conversation.id).slice(0, 8)})`;
}

function short(id: string | null | undefined): string {
	return id ? id.slice(0, 12) : '(none)';
}

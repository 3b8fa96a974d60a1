import {normalizeId} from '../wire/ids.js';
import {askEffect} from '../format/ask-effect.js';
import {label, requireRunningSandbox} from './agent-control.js';
import {agentFor, findConversation} from './conversation-lookup.js';
import {parseTimeout} from './deadline.js';
import {UsageError} from './exit-codes.js';
import type {CommandFlags} from './flags.js';
import {note, printLine, printText, type Io} from './io.js';
import {toJson} from './json-output.js';
import type {Server} from './server.js';

/**
 * `agent-tui ask <conversation-id> "what are you blocked on?"`: a side question to the
 * conversation's agent (`ask_agent`), answered on stdout. The agent is not disturbed: the server
 * records no event and leaves its execution status as it is. Only a running agent can answer; a
 * sandbox that is not RUNNING is said (exit 5) and never resumed. The answer can take as long as
 * a model call: it is waited for up to 600 s (what the service's proxy allows), or `--timeout`.
 * On a terminal the answer is sanitized (escape sequences shown, not run); `--json` prints
 * `{"conversation_id", "question", "response"}` with the text as the agent wrote it.
 */
export async function runAsk(server: Server, io: Io, id: string, question: string, flags: CommandFlags): Promise<number> {
	if (question.trim().length === 0) throw new UsageError('ask needs a question, e.g. agent-tui ask <conversation-id> "what are you blocked on?"');
	const conversation = requireRunningSandbox(await findConversation(server, io, id), 'ask');
	const agent = agentFor(server, conversation);
	note(io, `asking ${label(conversation)}; ${askEffect(conversation.execution_status)}`);
	const response = await agent.askAgent(question.trim(), flags.timeout === undefined ? {} : {timeoutMs: parseTimeout(flags.timeout)});
	if (flags.json) printLine(io, toJson({conversation_id: normalizeId(conversation.id), question: question.trim(), response}, io.secrets));
	else for (const line of (response.trim() || '(an empty answer)').split('\n')) printText(io, line);
	return 0;
}

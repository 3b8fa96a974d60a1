import {quote} from './opening.js';
import {finish, terminal} from './tools.js';
import type {Script, ScriptContext} from './types.js';

/**
 * What an agent whose own script is over does with a new user message (or a bare /run): look at
 * the repository, answer, finish. It keeps the demo and tests responsive after a conversation ended.
 */
export function* followUpScript(context: ScriptContext, message: string | null): Script {
	const asked = message ? `The user asked: "${quote(context, message)}".` : 'Asked to continue without a new message.';
	yield* terminal(context, {
		command: 'git status --short --branch && git log --oneline -3',
		output: `## ${context.branch ?? 'main'}...origin/${context.branch ?? 'main'}\n${context.rng.hex(7)} Address review comments\n${context.rng.hex(7)} Add regression test\n${context.rng.hex(7)} Fix the reported bug`,
		summary: 'Check the working tree before following up',
		thought: `${asked} Let me check the current state of the repository first.`,
	});
	yield* finish(
		context,
		message
			? `Done: ${quote(context, message, 60)}. The working tree on ${context.branch ?? 'main'} is clean and the last commits are in place; nothing else needed changing.`
			: `Picked up where I left off: the working tree on ${context.branch ?? 'main'} is clean and the task is complete.`,
	);
}

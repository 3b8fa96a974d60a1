import {withHostile} from './corpus/hostile.js';
import {isRecord, readJson, requireObjectBody, validationError} from './http-util.js';
import type {RouteContext, Router} from './router.js';
import type {SimEvent} from './event-factory.js';
import type {SimConversation} from './world-types.js';
import type {World} from './world.js';

/**
 * The agent server's side questions, as SDK openhands-agent-server/openhands/agent_server/
 * conversation_router.py serves them:
 * - `POST …/{id}/ask_agent` `{question}` → `{response}`: a model call over the conversation so
 *   far that "does not modify, persist, or become part of the conversation state": no event is
 *   recorded and the execution status is untouched (SDK LocalConversation.ask_agent). Here the
 *   answer is made from the conversation's state after `world.askDelayMs` (a model takes a while).
 * - `GET …/{id}/agent_final_response` → `{response}`: the text of the last FinishAction or agent
 *   message, `""` when there is none yet.
 * Unknown conversations answer 404. With the hostile-text fault on, answers carry escape sequences.
 */

export function registerAskRoutes(router: Router, api: string, conversationOf: (context: RouteContext) => SimConversation): void {
	router.add('POST', `${api}/:id/ask_agent`, 'session', async (context) => {
		const conversation = conversationOf(context);
		const body = requireObjectBody(await readJson(context.request));
		if (typeof body.question !== 'string') {
			throw validationError([{type: body.question === undefined ? 'missing' : 'string_type', loc: ['body', 'question'], msg: body.question === undefined ? 'Field required' : 'Input should be a valid string', input: body.question ?? null}]);
		}
		const {world} = context;
		world.askCount++;
		await new Promise<void>((resolve) => {
			if (!world.timers.after(world.askDelayMs, resolve)) resolve();
		});
		const answer = answerFor(world, conversation, body.question);
		return {response: world.hostile ? withHostile(answer, conversation.id.charCodeAt(1)) : answer};
	});

	router.add('GET', `${api}/:id/agent_final_response`, 'session', (context) => {
		const conversation = conversationOf(context);
		const text = finalResponse(context.world.events(conversation));
		return {response: context.world.hostile && text ? withHostile(text, conversation.id.charCodeAt(2)) : text};
	});
}

/** What the agent would say about where it is: made from its status and its last steps, nothing recorded. */
function answerFor(world: World, conversation: SimConversation, question: string): string {
	const events = world.events(conversation);
	const status = conversation.executionStatus;
	const last = lastAction(events);
	const doing = last ? `My last step was ${last}.` : 'I have not taken a step yet.';
	const asked = question.trim() ? `You asked: "${question.trim().slice(0, 200)}". ` : '';
	switch (status) {
		case 'waiting_for_confirmation':
			return `${asked}I am blocked on your approval: I want to run ${last ?? 'an action'} and wait for you to approve or reject it. Nothing else is in my way.`;
		case 'error':
		case 'stuck':
			return `${asked}I am ${status === 'stuck' ? 'stuck' : 'stopped by an error'}. ${doing} I need a different approach or your help to go on.`;
		case 'finished':
			return `${asked}I have finished: ${finalResponse(events) || 'the task is done'}`;
		case 'paused':
		case 'idle':
			return `${asked}I am ${status}, waiting to be told to go on. ${doing}`;
		default:
			return `${asked}I am working on "${conversation.title}" and nothing blocks me. ${doing}`;
	}
}

function lastAction(events: readonly SimEvent[]): string | null {
	for (let index = events.length - 1; index >= 0; index--) {
		const event = events[index]!;
		if (event.kind !== 'ActionEvent' || !isRecord(event.action)) continue;
		const command = typeof event.action.command === 'string' ? event.action.command : null;
		const tool = typeof event.tool_name === 'string' ? event.tool_name : String(event.action.kind);
		return command ? `\`${command.split('\n')[0]!.slice(0, 120)}\`` : `a ${tool} call`;
	}
	return null;
}

/** The last FinishAction's message or agent message's text (SDK conversation/response_utils.py), else "". */
export function finalResponse(events: readonly SimEvent[]): string {
	for (let index = events.length - 1; index >= 0; index--) {
		const event = events[index]!;
		if (event.kind === 'ActionEvent' && isRecord(event.action) && event.action.kind === 'FinishAction' && typeof event.action.message === 'string') return event.action.message;
		if (event.kind === 'MessageEvent' && event.source === 'agent' && isRecord(event.llm_message)) {
			const content = event.llm_message.content;
			if (Array.isArray(content)) {
				const text = content.flatMap((part) => (isRecord(part) && part.type === 'text' && typeof part.text === 'string' ? [part.text] : [])).join('\n');
				if (text) return text;
			}
		}
	}
	return '';
}

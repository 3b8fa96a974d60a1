import type {AppConversation} from '../wire/schemas/app.js';

/**
 * Numbers derived from a conversation's metrics, shared by the list's sort and its cells.
 * Context use is the last turn's tokens over the model's window: how close the agent is to
 * condensing (or failing) on its next call.
 */

export function contextFraction(conversation: AppConversation): number | null {
	const usage = conversation.metrics?.accumulated_token_usage;
	const window = usage?.context_window;
	const turn = usage?.per_turn_token;
	if (typeof window !== 'number' || typeof turn !== 'number' || !(window > 0) || !(turn >= 0)) return null;
	return Math.min(1, turn / window);
}

export function totalTokens(conversation: AppConversation): number | null {
	const usage = conversation.metrics?.accumulated_token_usage;
	if (!usage) return null;
	const total = (usage.prompt_tokens ?? 0) + (usage.completion_tokens ?? 0);
	return total > 0 ? total : null;
}

import {newMetrics, recordLlmCall} from './metrics.js';
import type {SimConversation, Usage} from './world-types.js';
import type {WorldAccess} from './world-access.js';

/**
 * A conversation's LLM usage before the simulator started: the model calls its pre-history
 * makes, replayed on the metrics alone (cheap arithmetic, no events). How many calls a
 * pre-history makes is measured once per kind of history by building one and counting.
 */

const priorCallsMemo = new WeakMap<WorldAccess, Map<string, number>>();

export function computeUsage(world: WorldAccess, conversation: SimConversation, countPriorCalls: (probe: SimConversation) => number): Usage {
	const rng = world.rng.fork(`usage:${conversation.id}`);
	const metrics = newMetrics(conversation.llmModel, conversation.trigger === 'resolver' ? 10 : null);
	const calls = priorCallsOf(world, conversation, countPriorCalls);
	const span = Math.max(conversation.updatedAt - conversation.createdAt, 1);
	for (let call = 1; call <= calls; call++) {
		recordLlmCall(metrics, rng, call, `chatcmpl-${rng.uuid()}`, conversation.createdAt + (span * call) / calls);
	}
	// The quota case ended because it spent its $2 budget (a long run before the calls its history
	// shows); the spender has one it is working through.
	if (conversation.scenario === 'quota') {
		for (let call = calls + 1; metrics.cost < 2 && call < calls + 400; call++) recordLlmCall(metrics, rng, call, `chatcmpl-${rng.uuid()}`, conversation.updatedAt);
		metrics.maxBudget = 2;
	}
	if (conversation.scenario === 'spender') metrics.maxBudget = 5;
	return {metrics, rng};
}

function priorCallsOf(world: WorldAccess, conversation: SimConversation, countPriorCalls: (probe: SimConversation) => number): number {
	const plan = conversation.plan;
	if (!plan) return 0;
	if (conversation.agent) return conversation.agent.priorCalls;
	let memo = priorCallsMemo.get(world);
	if (!memo) {
		memo = new Map();
		priorCallsMemo.set(world, memo);
	}
	const key = [conversation.scenario, conversation.template, plan.until, plan.thenPause ?? false, plan.thenReject ?? ''].join('|');
	let calls = memo.get(key);
	if (calls === undefined) {
		// A throwaway copy: building it touches nothing in the world.
		calls = countPriorCalls({...conversation, agent: null, usage: null});
		memo.set(key, calls);
	}
	return calls;
}

import type {Rng} from './rng.js';

/**
 * LLM usage of one conversation. It grows with every model call the scripted agent makes, so a
 * dashboard that shows cost sees it move while an agent works.
 */

type Price = {input: number; output: number; cacheRead: number; cacheWrite: number; context: number};

/** USD per million tokens, roughly the public list prices. */
const prices: Array<[pattern: RegExp, price: Price]> = [
	[/gpt-5/, {input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0, context: 272_000}],
	[/opus/, {input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75, context: 200_000}],
	[/qwen/, {input: 0.4, output: 1.6, cacheRead: 0.04, cacheWrite: 0, context: 262_144}],
	[/.*/, {input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75, context: 200_000}],
];

function priceOf(model: string): Price {
	return prices.find(([pattern]) => pattern.test(model))![1];
}

type TokenUsage = {
	model: string;
	prompt_tokens: number;
	completion_tokens: number;
	cache_read_tokens: number;
	cache_write_tokens: number;
	reasoning_tokens: number;
	context_window: number;
	per_turn_token: number;
	response_id: string;
};

export type MetricsState = {
	model: string;
	maxBudget: number | null;
	cost: number;
	usage: TokenUsage;
	costs: Array<{model: string; cost: number; timestamp: number}>;
	latencies: Array<{model: string; latency: number; response_id: string}>;
	tokenUsages: TokenUsage[];
};

/** Enough history for a realistic full `stats` without a long-runner growing without bound. */
const historyCap = 50;

export function newMetrics(model: string, maxBudget: number | null): MetricsState {
	return {
		model,
		maxBudget,
		cost: 0,
		usage: {
			model,
			prompt_tokens: 0,
			completion_tokens: 0,
			cache_read_tokens: 0,
			cache_write_tokens: 0,
			reasoning_tokens: 0,
			context_window: priceOf(model).context,
			per_turn_token: 0,
			response_id: '',
		},
		costs: [],
		latencies: [],
		tokenUsages: [],
	};
}

function keepLast<T>(list: T[], item: T): void {
	list.push(item);
	if (list.length > historyCap) list.splice(0, list.length - historyCap);
}

/** One model call; the prompt grows with the conversation like a real context does. */
export function recordLlmCall(metrics: MetricsState, rng: Rng, callNumber: number, responseId: string, atMs: number): void {
	const price = priceOf(metrics.model);
	const prompt = Math.min(price.context - 8000, 7800 + callNumber * rng.int(650, 1400));
	const completion = rng.int(60, 720);
	const cacheRead = Math.floor(prompt * rng.float(0.55, 0.9));
	const cacheWrite = price.cacheWrite > 0 ? rng.int(300, 1800) : 0;
	const reasoning = metrics.model.includes('gpt-5') ? rng.int(64, 512) : 0;
	const cost =
		((prompt - cacheRead) * price.input +
			cacheRead * price.cacheRead +
			cacheWrite * price.cacheWrite +
			(completion + reasoning) * price.output) /
		1_000_000;
	const call: TokenUsage = {
		model: metrics.model,
		prompt_tokens: prompt,
		completion_tokens: completion,
		cache_read_tokens: cacheRead,
		cache_write_tokens: cacheWrite,
		reasoning_tokens: reasoning,
		context_window: price.context,
		per_turn_token: prompt + completion,
		response_id: responseId,
	};
	metrics.cost = Number((metrics.cost + cost).toFixed(6));
	const usage = metrics.usage;
	usage.prompt_tokens += prompt;
	usage.completion_tokens += completion;
	usage.cache_read_tokens += cacheRead;
	usage.cache_write_tokens += cacheWrite;
	usage.reasoning_tokens += reasoning;
	usage.per_turn_token = call.per_turn_token;
	usage.response_id = responseId;
	keepLast(metrics.costs, {model: metrics.model, cost: Number(cost.toFixed(6)), timestamp: atMs / 1000});
	keepLast(metrics.latencies, {model: metrics.model, latency: Number(rng.float(1.1, 16).toFixed(3)), response_id: responseId});
	keepLast(metrics.tokenUsages, call);
}

/** MetricsSnapshot: what AppConversation.metrics and the `stats` state updates carry. */
export function metricsSnapshot(metrics: MetricsState): Record<string, unknown> {
	return {
		model_name: metrics.model,
		accumulated_cost: metrics.cost,
		max_budget_per_task: metrics.maxBudget,
		accumulated_token_usage: {...metrics.usage},
	};
}

/** The full Metrics the agent server's REST answers carry (snapshot plus per-call lists). */
export function fullMetrics(metrics: MetricsState): Record<string, unknown> {
	return {
		...metricsSnapshot(metrics),
		costs: metrics.costs.map((entry) => ({...entry})),
		response_latencies: metrics.latencies.map((entry) => ({...entry})),
		token_usages: metrics.tokenUsages.map((entry) => ({...entry})),
	};
}

/**
 * The snapshot as it was `fraction` of the way through, for the `stats` updates inside a seeded
 * history (built after the fact, so they rise smoothly to the conversation's current usage).
 */
export function scaledSnapshot(metrics: MetricsState, fraction: number): Record<string, unknown> {
	const share = Math.min(1, Math.max(0, fraction));
	const usage = metrics.usage;
	const scale = (value: number) => Math.round(value * share);
	return {
		model_name: metrics.model,
		accumulated_cost: Number((metrics.cost * share).toFixed(6)),
		max_budget_per_task: metrics.maxBudget,
		accumulated_token_usage: {
			...usage,
			prompt_tokens: scale(usage.prompt_tokens),
			completion_tokens: scale(usage.completion_tokens),
			cache_read_tokens: scale(usage.cache_read_tokens),
			cache_write_tokens: scale(usage.cache_write_tokens),
			reasoning_tokens: scale(usage.reasoning_tokens),
		},
	};
}

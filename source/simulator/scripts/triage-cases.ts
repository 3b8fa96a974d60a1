import {checkpoint, type ScenarioTemplate, openScenario} from './opening.js';
import {agentText, terminal, viewFile} from './tools.js';
import type {Script, ScriptContext} from './types.js';
import {runErrorStep} from './run-error.js';

/**
 * The cases a fleet's triage groups by cause (the SDK's error classification,
 * sdk/event/error_classification.py, and cost without progress):
 * - `rate-limit`: the model provider answered 429 too long; the run ends with a
 *   ConversationErrorEvent classified `rate_limit`, retryable. POST …/run starts it again.
 * - `quota`: the conversation spent its `max_budget_per_task` (MaxBudgetReached is `quota`, not
 *   retryable: the person raises the budget).
 * - `auth`: the LLM key was refused (`auth`, not retryable: the person fixes the key).
 * - `spender`: the agent keeps calling the model and never acts: cost rises, stats and musings
 *   arrive, no action, no observation.
 */

export const rateLimitTemplates: readonly ScenarioTemplate[] = [
	{
		title: 'Backfill the search index for archived orders',
		repository: 'acme/order-search',
		branch: 'main',
		request: 'Archived orders are missing from search. Write and run a backfill for the orders index, batched, and verify the counts.',
	},
	{
		title: 'Translate the onboarding emails to German',
		repository: 'northwind/mailers',
		branch: 'main',
		request: 'Add German versions of the five onboarding emails under templates/de/, keeping the placeholders intact.',
	},
];

export const quotaTemplates: readonly ScenarioTemplate[] = [
	{
		title: 'Document every public function in the SDK',
		repository: 'octo-labs/payments-sdk',
		branch: 'main',
		request: 'Add docstrings to every public function in payments_sdk/ and make sure the docs build has no warnings.',
	},
];

export const authTemplates: readonly ScenarioTemplate[] = [
	{
		title: 'Upgrade the Terraform AWS provider to v6',
		repository: 'acme/infra-live',
		branch: 'main',
		request: 'Bump hashicorp/aws to ~> 6.0 in every module, fix the deprecations and show me the plan diff.',
	},
];

export const spenderTemplates: readonly ScenarioTemplate[] = [
	{
		title: 'Design a caching layer for the pricing service',
		repository: 'octo-labs/pricing',
		branch: 'main',
		request: 'Pricing lookups are slow under load. Propose and implement a caching layer with sensible invalidation.',
	},
];

/** A little real work, then the provider's 429s end the run. */
export function* rateLimitScript(context: ScriptContext): Script {
	yield* openScenario(context, rateLimitTemplates);
	yield* terminal(context, {command: 'ls scripts/ && wc -l scripts/*.py', output: 'reindex.py\nseed.py\n  88 scripts/reindex.py\n  41 scripts/seed.py\n 129 total', summary: 'Look at the existing scripts'});
	yield checkpoint;
	yield runErrorStep(
		context,
		'LLMRateLimitError',
		'litellm.RateLimitError: AnthropicException - {"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}} (429 after 5 retries over 62s)',
		{kind: 'rate_limit', retryable: true, user_action: 'retry'},
	);
}

export function* quotaScript(context: ScriptContext): Script {
	yield* openScenario(context, quotaTemplates);
	yield* viewFile(context, 'payments_sdk/__init__.py', 'from .client import Client\nfrom .charges import create_charge, refund\n', 'Read the package entry point');
	yield* terminal(context, {command: 'grep -c "^def " payments_sdk/*.py', output: 'payments_sdk/charges.py:14\npayments_sdk/client.py:22\npayments_sdk/webhooks.py:9', summary: 'Count the public functions'});
	yield checkpoint;
	yield runErrorStep(
		context,
		'MaxBudgetReached',
		'Max budget per task reached: the conversation has spent its max_budget_per_task; raise it in the settings to continue.',
		{kind: 'quota', retryable: false, user_action: 'settings'},
	);
}

export function* authScript(context: ScriptContext): Script {
	yield* openScenario(context, authTemplates);
	yield checkpoint;
	yield runErrorStep(
		context,
		'LLMAuthenticationError',
		'litellm.AuthenticationError: OpenAIException - Incorrect API key provided: sk-proj-****ab12. You can find your API key at https://platform.openai.com/account/api-keys.',
		{kind: 'auth', retryable: false, user_action: 'settings'},
	);
}

const musings = [
	'Before writing code, let me reconsider the invalidation strategy once more.',
	'Thinking about this again: a write-through cache may be simpler than TTLs here.',
	'On reflection the read-through design has a thundering-herd problem. Let me weigh the options again.',
	'Let me compare the two designs one more time before deciding.',
];

/** Reads two files, then only thinks aloud: model calls (cost) forever, no action, no observation. */
export function* spenderScript(context: ScriptContext): Script {
	yield* openScenario(context, spenderTemplates);
	yield* viewFile(context, 'pricing/lookup.py', 'def price_for(sku: str, region: str) -> Decimal:\n    return db.fetch_price(sku, region)\n', 'Read the lookup');
	yield* terminal(context, {command: 'rg -n "price_for" --type py | head', output: 'pricing/api.py:12:    return price_for(sku, region)\npricing/batch.py:40:        totals += price_for(sku, region)', summary: 'Find the callers'});
	yield checkpoint;
	for (let call = 0; ; call++) {
		const responseId = context.ev.responseId();
		// Every fourth call says something; the others are silent calls that only cost.
		const events = call % 4 === 3 ? [context.ev.assistantMessage(agentText(context, musings[(call >> 2) % musings.length]!), {responseId})] : [];
		yield {events, llm: {responseId}};
	}
}

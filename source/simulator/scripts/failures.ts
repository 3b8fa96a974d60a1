import {checkpoint, type ScenarioTemplate, openScenario} from './opening.js';
import {invalidCall, multipleCommandsRefusal, refusedTerminal} from './newer-tools.js';
import {finish, replaceInFile, terminal, usesApplyPatch, viewFile} from './tools.js';
import type {Script, ScriptContext} from './types.js';
import {runErrorStep} from './run-error.js';

/** Scenarios that go wrong: a recoverable tool error, a crash, and an agent stuck in a loop. */

const workerPy = `import json
import time

from billing.queue import consume


def handle(message: dict) -> None:
    started = time.monotonic()
    invoice_id = message["invoice_id"]
    print(f"processing invoice {invoice_id}")
    charge(invoice_id)
    print(f"done {invoice_id} in {time.monotonic() - started:.2f}s")


def main() -> None:
    for raw in consume("billing.invoices"):
        handle(json.loads(raw))
`;

export const agentErrorTemplates: readonly ScenarioTemplate[] = [
	{
		title: 'Add structured logging to the billing worker',
		repository: 'acme/billing-worker',
		branch: 'main',
		request: 'The billing worker prints free text. Switch billing/worker.py to structlog with invoice_id and duration_ms fields, and keep the tests green.',
	},
];

/**
 * A tool call the SDK cannot validate: the ActionEvent without `action` and the AgentErrorEvent
 * answering it. The agent retries with the full call, then sends two commands in one terminal
 * call, which the terminal refuses (is_error, no exit code), and chains them instead.
 */
export function* agentErrorScript(context: ScriptContext): Script {
	yield* openScenario(context, agentErrorTemplates);
	yield* viewFile(context, 'billing/worker.py', workerPy, 'Read the worker', 'Find the print calls in the worker.');
	yield invalidCall(context, missingPathCall(context));
	yield checkpoint;
	yield* replaceInFile(
		context,
		{
			path: 'billing/worker.py',
			before: workerPy,
			oldStr: '    print(f"processing invoice {invoice_id}")',
			newStr: '    log = structlog.get_logger().bind(invoice_id=invoice_id)\n    log.info("processing invoice")',
		},
		'Log the start of each invoice with structlog',
		'The previous call lacked the path. Retry with the full path.',
	);
	const steps = ['cd billing', 'pytest -q tests/test_worker.py'];
	yield* refusedTerminal(context, {command: steps.join('\n'), summary: 'Run the worker tests', thought: 'Run the tests from the package directory.'}, multipleCommandsRefusal(steps));
	yield* terminal(context, {command: steps.join(' && '), output: '......                                                                   [100%]\n6 passed in 0.22s', summary: 'Run the worker tests', thought: 'One command at a time, or chained.'});
	yield* finish(context, 'billing/worker.py now logs through structlog with invoice_id bound to every line; the worker tests pass (6).');
}

/**
 * The edit call a model gets wrong most often: the edit without the file it applies to. Under
 * the GPT-5 preset the edit tool is apply_patch and the missing argument is `patch`.
 */
function missingPathCall(context: ScriptContext): {toolName: string; arguments: string; error: string; thought: string} {
	const thought = 'Replace the print call with a structured log line.';
	if (usesApplyPatch(context)) {
		const args = {input: '*** Update File: billing/worker.py\n-    print(f"processing invoice {invoice_id}")\n+    log.info("processing invoice", invoice_id=invoice_id)'};
		return {
			toolName: 'apply_patch',
			arguments: JSON.stringify(args),
			error: `Error validating args ${JSON.stringify(args)} for tool 'apply_patch': 1 validation error for ApplyPatchAction\npatch\n  Field required [type=missing, input_value={'input': '*** Update File: ...'}, input_type=dict]`,
			thought,
		};
	}
	const args = {command: 'str_replace', old_str: '    print(f"processing invoice {invoice_id}")', new_str: '    log.info("processing invoice", invoice_id=invoice_id)'};
	return {
		toolName: 'file_editor',
		arguments: JSON.stringify(args),
		error: `Error validating args ${JSON.stringify(args)} for tool 'file_editor': 1 validation error for FileEditorAction\npath\n  Field required [type=missing, input_value={'command': 'str_replace', ...}, input_type=dict]`,
		thought,
	};
}

export const crashTemplates: readonly ScenarioTemplate[] = [
	{
		title: 'Migrate CI from Travis to GitHub Actions',
		repository: 'northwind/legacy-reports',
		branch: 'master',
		request: 'Port .travis.yml to a GitHub Actions workflow (test matrix for Python 3.10 to 3.12, cache pip) and delete the Travis config.',
		skills: ['github'],
	},
];

const crashes = [
	{
		code: 'LLMContextWindowExceedError',
		detail:
			'Conversation history is longer than the model context window (212,948 > 200,000 tokens) and the condenser could not reduce it: the last 24 events are a single tool output.',
		classification: {kind: 'config', retryable: false, user_action: 'settings'} as const,
	},
	{
		code: 'LLMAuthenticationError',
		detail: 'litellm.AuthenticationError: AnthropicException - {"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}',
		classification: {kind: 'auth', retryable: false, user_action: 'settings'} as const,
	},
	{
		code: 'RuntimeDisconnectedError',
		detail: 'Lost connection to the runtime after 3 retries: Server disconnected without sending a response.',
		classification: {kind: 'transient', retryable: true, user_action: 'retry'} as const,
	},
	// As the SDK classifies them (openhands-sdk/openhands/sdk/event/error_classification.py).
	{
		code: 'LLMRateLimitError',
		detail: 'litellm.RateLimitError: AnthropicException - {"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed the rate limit for your organization of 400,000 input tokens per minute."}}',
		classification: {kind: 'rate_limit', retryable: true, user_action: 'retry'} as const,
	},
	{
		code: 'MaxBudgetReached',
		detail: 'Current total cost ($10.04) exceeds the maximum budget per task ($10.00).',
		classification: {kind: 'quota', retryable: false, user_action: 'settings'} as const,
	},
	{
		code: 'KeyError',
		detail: "'tool_call_id'",
		classification: {kind: 'internal', retryable: false, user_action: 'none'} as const,
	},
];

/** An unexpected exception ends the run loop: ConversationErrorEvent, status error. */
export function* crashScript(context: ScriptContext): Script {
	yield* openScenario(context, crashTemplates);
	yield* terminal(context, {
		command: 'cat .travis.yml && ls .github/workflows 2>/dev/null || echo "no workflows yet"',
		output: `language: python
python:
  - "3.10"
  - "3.11"
  - "3.12"
cache: pip
install: pip install -r requirements-dev.txt
script: pytest --cov=reports
no workflows yet`,
		summary: 'Read the Travis config',
	});
	yield* terminal(context, {
		command: 'find . -name "*.csv" -size +10M | head',
		output: './fixtures/exports/2019_full_ledger.csv\n./fixtures/exports/2020_full_ledger.csv\n./fixtures/exports/2021_full_ledger.csv',
		summary: 'Look for large fixtures the CI cache must skip',
	});
	const crash = context.rng.pick(crashes);
	yield runErrorStep(context, crash.code, crash.detail, crash.classification);
}

export const stuckTemplates: readonly ScenarioTemplate[] = [
	{
		title: 'Make the flaky cart total test deterministic',
		repository: 'octo-labs/storefront-web',
		branch: 'main',
		request: 'src/cart/total.test.ts fails about one run in five on CI. Make it deterministic without skipping it.',
		skills: ['npm'],
	},
];

/**
 * The same call with the same arguments, again and again. The flaky test is run three times, then
 * the model tries to edit the test with a call that leaves out the file, four times over: the
 * SDK's stuck detector ends a run once one call has failed the same way past its threshold (3 by
 * default; openhands-sdk/openhands/sdk/conversation/stuck_detector.py).
 */
export function* stuckScript(context: ScriptContext): Script {
	yield* openScenario(context, stuckTemplates);
	const loop = {
		command: 'npm test -- --run src/cart/total.test.ts',
		exitCode: 1,
		output: ` ❯ src/cart/total.test.ts (3 tests | 1 failed) 41ms
   × cart total > applies the weekend discount 12ms
     → expected 89.91 to be 99.9 // Object.is equality

 Test Files  1 failed (1)
      Tests  1 failed | 2 passed (3)`,
		summary: 'Run the flaky cart total test again',
		thought: 'Run the test again to see whether the failure is consistent.',
	};
	for (let attempt = 1; attempt <= 3; attempt++) yield* terminal(context, loop);
	const tool = usesApplyPatch(context) ? 'apply_patch' : 'file_editor';
	const args = tool === 'apply_patch' ? {input: '-  expect(total(cart)).toBe(99.9)\n+  expect(total(cart)).toBeCloseTo(99.9)'} : {command: 'str_replace', old_str: 'expect(total(cart)).toBe(99.9)', new_str: 'expect(total(cart)).toBeCloseTo(99.9)'};
	const missing = tool === 'apply_patch' ? 'patch' : 'path';
	const kind = tool === 'apply_patch' ? 'ApplyPatchAction' : 'FileEditorAction';
	for (let attempt = 1; attempt <= 4; attempt++) {
		yield invalidCall(context, {
			toolName: tool,
			arguments: JSON.stringify(args),
			error: `Error validating args ${JSON.stringify(args)} for tool '${tool}': 1 validation error for ${kind}\n${missing}\n  Field required [type=missing, input_value={...}, input_type=dict]`,
			thought: attempt === 1 ? 'Compare with a tolerance instead of exact equality.' : undefined,
		});
		if (attempt === 3) yield checkpoint;
	}
	yield {events: [], status: 'stuck'};
}

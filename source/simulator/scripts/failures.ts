import {openingStep, checkpoint, pickTemplate, type ScenarioTemplate} from './opening.js';
import {finish, replaceInFile, terminal, viewFile} from './tools.js';
import type {Script, ScriptContext} from './types.js';

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

/** A tool call the SDK cannot validate becomes an AgentErrorEvent; the agent retries and finishes. */
export function* agentErrorScript(context: ScriptContext): Script {
	const template = pickTemplate(agentErrorTemplates, context.template);
	yield openingStep(context, template.request);
	yield* viewFile(context, 'billing/worker.py', workerPy, 'Read the worker', 'Find the print calls in the worker.');
	const responseId = context.ev.responseId();
	yield {
		events: [
			context.ev.agentError(
				'file_editor',
				context.ev.toolCallId(),
				`Error validating args {"command": "str_replace", "old_str": "    print(f\\"processing invoice {invoice_id}\\")", "new_str": "    log.info(\\"processing invoice\\", invoice_id=invoice_id)"} for tool 'file_editor': 1 validation error for FileEditorAction\npath\n  Field required [type=missing, input_value={'command': 'str_replace', ...}, input_type=dict]`,
				{kind: 'agent_action', retryable: true, user_action: 'none'},
			),
		],
		llm: {responseId},
	};
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
	yield* terminal(context, {command: 'pytest -q tests/test_worker.py', output: '......                                                                   [100%]\n6 passed in 0.22s', summary: 'Run the worker tests'});
	yield* finish(context, 'billing/worker.py now logs through structlog with invoice_id bound to every line; the worker tests pass (6).');
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
];

/** An unexpected exception ends the run loop: ConversationErrorEvent, status error. */
export function* crashScript(context: ScriptContext): Script {
	const template = pickTemplate(crashTemplates, context.template);
	yield openingStep(context, template.request, template.skills);
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
	yield {
		events: [context.ev.conversationError(crash.code, crash.detail, {...crash.classification, error_id: `err_${context.rng.hex(12)}`})],
		status: 'error',
	};
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

/** The same call with the same arguments, again and again: the stuck detector ends the run. */
export function* stuckScript(context: ScriptContext): Script {
	const template = pickTemplate(stuckTemplates, context.template);
	yield openingStep(context, template.request, template.skills);
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
	for (let attempt = 1; attempt <= 5; attempt++) {
		yield* terminal(context, loop);
		if (attempt === 4) yield checkpoint;
	}
	yield {events: [], status: 'stuck'};
}

import {checkpoint, type ScenarioTemplate, openScenario} from './opening.js';
import {finish, replaceInFile, terminal, terminalAction, viewFile} from './tools.js';
import type {Script, ScriptContext} from './types.js';

export const hookBlockedTemplates: readonly ScenarioTemplate[] = [
	{
		title: 'Ship the rate-limit burst change',
		repository: 'acme/api-gateway',
		branch: 'main',
		request: 'Raise the burst limit for the /v2/search route from 20 to 50 in config/ratelimits.yaml, commit it and push.',
		skills: ['github'],
	},
];

const limitsYaml = `routes:
  /v2/search:
    rate: 10/s
    burst: 20
  /v2/orders:
    rate: 5/s
    burst: 10
`;

const hookCommand = '.openhands/hooks/block-main-push.sh';
const hookMessage = 'Direct pushes to main are blocked by repository policy. Push a branch and open a pull request instead.';

/** A PreToolUse hook blocks the push (HookExecutionEvent, rejection from `hook`); the agent adapts. */
export function* hookBlockedScript(context: ScriptContext): Script {
	yield* openScenario(context, hookBlockedTemplates);
	yield* viewFile(context, 'config/ratelimits.yaml', limitsYaml, 'Read the rate-limit config');
	yield* replaceInFile(
		context,
		{path: 'config/ratelimits.yaml', before: limitsYaml, oldStr: '    rate: 10/s\n    burst: 20', newStr: '    rate: 10/s\n    burst: 50'},
		'Raise the /v2/search burst to 50',
	);
	yield* terminal(context, {
		command: 'git add config/ratelimits.yaml && git commit -m "Raise /v2/search burst limit to 50"',
		output: '[main 5d0e7a1] Raise /v2/search burst limit to 50\n 1 file changed, 1 insertion(+), 1 deletion(-)',
		summary: 'Commit the config change',
		risk: 'MEDIUM',
	});
	const push = terminalAction(context, {
		command: 'git push origin main',
		output: '',
		summary: 'Push the commit to main',
		thought: 'Push the change as asked.',
		risk: 'MEDIUM',
	});
	yield {events: [push], llm: {responseId: String(push.llm_response_id)}};
	yield {
		events: [
			context.ev.hook({
				hookEventType: 'PreToolUse',
				command: hookCommand,
				toolName: 'terminal',
				success: true,
				blocked: true,
				exitCode: 2,
				stderr: hookMessage,
				reason: hookMessage,
				actionId: push.id,
				hookInput: {tool_name: 'terminal', tool_input: {command: 'git push origin main'}},
			}),
			context.ev.reject(push, `Blocked by PreToolUse hook ${hookCommand}: ${hookMessage}`, 'hook'),
		],
	};
	yield checkpoint;
	yield* terminal(context, {
		command: 'git switch -c chore/search-burst-50 && git push -u origin chore/search-burst-50',
		output: `Switched to a new branch 'chore/search-burst-50'
remote: Create a pull request for 'chore/search-burst-50' on GitHub by visiting:
remote:      https://github.com/acme/api-gateway/pull/new/chore/search-burst-50
To github.com:acme/api-gateway.git
 * [new branch]      chore/search-burst-50 -> chore/search-burst-50`,
		summary: 'Push the change on a branch instead',
		thought: 'The hook forbids pushing to main. Use a branch and a pull request.',
		risk: 'MEDIUM',
	});
	yield* terminal(context, {
		command: 'gh pr create --fill --base main',
		output: 'https://github.com/acme/api-gateway/pull/88',
		summary: 'Open a pull request',
		risk: 'MEDIUM',
	});
	yield* finish(
		context,
		'Raised the /v2/search burst limit to 50. Pushing to main is blocked by the repository hook, so the commit is on chore/search-burst-50 with pull request https://github.com/acme/api-gateway/pull/88.',
	);
}

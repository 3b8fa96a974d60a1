import {legacyTools} from '../corpus/tools.js';
import {openingStep, pickTemplate, type ScenarioTemplate} from './opening.js';
import {agentText, finish} from './tools.js';
import type {Script, ScriptContext, Step} from './types.js';

export const legacyTemplates: readonly ScenarioTemplate[] = [
	{
		title: 'Upgrade Django to 4.2 LTS',
		repository: 'acme/legacy-admin',
		branch: 'master',
		request: 'Upgrade Django from 3.2 to 4.2 LTS, fix the deprecation warnings and make sure manage.py test passes.',
	},
];

/**
 * A conversation recorded by an agent server older than SDK 1.5 (docs/service-behaviour.md §4):
 * ExecuteBashAction / ExecuteBashObservation, and observations with a plain `output` string
 * instead of `content[]`.
 */
function* bash(context: ScriptContext, command: string, output: string, exitCode: number, summary: string): Generator<Step, void, undefined> {
	const action = context.ev.action({
		toolName: 'execute_bash',
		action: {kind: 'ExecuteBashAction', command, is_input: false, reset: false},
		thought: agentText(context, `Next: ${summary.toLowerCase()}.`),
		summary,
		risk: 'LOW',
	});
	yield {events: [action], llm: {responseId: String(action.llm_response_id)}};
	yield {
		events: [
			context.ev.observation(action, {
				kind: 'ExecuteBashObservation',
				output: agentText(context, output),
				command,
				exit_code: exitCode,
				error: exitCode !== 0,
				metadata: {exit_code: exitCode, pid: -1, username: 'openhands', hostname: 'runtime-legacy', working_dir: context.workdir, prefix: '', suffix: `\n[The command completed with exit code ${exitCode}.]`},
			}),
		],
	};
}

export function* legacyScript(context: ScriptContext): Script {
	const template = pickTemplate(legacyTemplates, context.template);
	yield openingStep(context, template.request, [], legacyTools);
	yield* bash(context, 'pip install -U "django>=4.2,<4.3" && pip freeze | grep -i django', 'Successfully installed Django-4.2.16 asgiref-3.8.1 sqlparse-0.5.1\nDjango==4.2.16', 0, 'Install Django 4.2');
	yield* bash(
		context,
		'python -Wd manage.py check 2>&1 | tail -4',
		`admin/models.py:41: RemovedInDjango50Warning: The USE_L10N setting is deprecated.
admin/urls.py:3: RemovedInDjango40Warning: django.conf.urls.url() is deprecated in favor of django.urls.re_path().
System check identified no issues (0 silenced).`,
		0,
		'Look for deprecation warnings',
	);
	yield* bash(context, "sed -i 's/from django.conf.urls import url/from django.urls import re_path as url/' admin/urls.py && sed -i '/USE_L10N/d' settings.py", '', 0, 'Fix the deprecated imports and settings');
	yield* bash(context, 'python manage.py test --parallel 4', 'Found 212 test(s).\nSystem check identified no issues (0 silenced).\n....................................................................................................\n----------------------------------------------------------------------\nRan 212 tests in 18.402s\n\nOK', 0, 'Run the test suite');
	yield* finish(context, 'Upgraded to Django 4.2.16, replaced django.conf.urls.url with re_path and removed the USE_L10N setting. All 212 tests pass.');
}

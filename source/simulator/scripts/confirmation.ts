import {type ScenarioTemplate, openScenario} from './opening.js';
import {finish, pendingTerminal, terminal} from './tools.js';
import type {Script, ScriptContext} from './types.js';

export const confirmationTemplates: readonly ScenarioTemplate[] = [
	{
		title: 'Rebuild release artifacts and force-push the rebased branch',
		repository: 'acme/payments-api',
		branch: 'release/2.4',
		request:
			'Rebase release/2.4 onto main, rebuild the artifacts from a clean build directory and push the branch so CI picks up the rebased history.',
		skills: ['github'],
	},
];

/**
 * Stops at a HIGH-risk action under a ConfirmRisky policy: waiting_for_confirmation until
 * someone answers respond_to_confirmation. Accepting runs it and the script goes on from here.
 */
export function* confirmationScript(context: ScriptContext): Script {
	yield* openScenario(context, confirmationTemplates);
	yield* terminal(context, {
		command: 'git fetch origin && git rebase origin/main',
		output: `From github.com:${context.repository ?? 'acme/payments-api'}
   7c41e02..a9d3f15  main       -> origin/main
Successfully rebased and updated refs/heads/${context.branch ?? 'release/2.4'}.`,
		summary: 'Rebase the release branch onto the latest main',
		thought: 'Bring the release branch up to date with main first.',
		risk: 'MEDIUM',
	});
	yield* terminal(context, {
		command: 'make dist',
		output: `python -m build --wheel --outdir build/dist
* Creating isolated environment: venv+pip...
* Building wheel...
Successfully built payments_api-2.4.3-py3-none-any.whl
sha256sum build/dist/*.whl > build/dist/SHA256SUMS`,
		summary: 'Build the release wheel',
		thought: 'Check that the rebased branch still builds.',
	});
	const {step} = pendingTerminal(context, {
		command: `rm -rf build/ && git push --force origin ${context.branch ?? 'release/2.4'}`,
		output: `To github.com:${context.repository ?? 'acme/payments-api'}.git
 + 4c1d2e9...a81f3b2 ${context.branch ?? 'release/2.4'} -> ${context.branch ?? 'release/2.4'} (forced update)`,
		summary: 'Delete the build directory and force-push the rebased branch',
		thought:
			'The rebase rewrote history, so the push has to be forced, and the stale build directory must go so CI rebuilds from scratch. Both cannot be undone, so this needs confirmation.',
		risk: 'HIGH',
	});
	yield step;
	yield* terminal(context, {
		command: 'make dist && git status --short --branch',
		output: `Successfully built payments_api-2.4.3-py3-none-any.whl\n## ${context.branch ?? 'release/2.4'}...origin/${context.branch ?? 'release/2.4'}`,
		summary: 'Rebuild from the clean directory and check the branch',
	});
	yield* finish(
		context,
		`Rebased ${context.branch ?? 'release/2.4'} onto main, force-pushed it (4c1d2e9...a81f3b2) and rebuilt the wheel from a clean build directory. CI will run on the rebased history.`,
	);
}

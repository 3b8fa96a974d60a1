import {planBulk} from '../state/bulk-plan.js';
import type {DashboardController, DashboardSnapshot} from '../state/dashboard-types.js';
import {sandboxKeyOf} from '../state/sandbox-rows.js';
import {planSandboxAction} from './sandbox-question.js';
import type {ViewCommands} from './view-commands.js';

/**
 * The dashboard's sandbox keys (use-dashboard-keys.ts): p and r behind a y/n question, P and R
 * over the filtered list. What they do to the server goes through the controller.
 */
export function sandboxKeyActions(args: {snapshot: DashboardSnapshot; controller: DashboardController; commands: ViewCommands; conversationKeys: readonly string[]}) {
	const {snapshot, controller, commands, conversationKeys} = args;
	const {say, openOverlay} = commands;

	const askSandbox = (action: 'pause' | 'resume', sandboxKey: string | null | undefined, fromConversation?: string | null) => {
		const plan = planSandboxAction(snapshot, action, sandboxKey, fromConversation);
		if (plan.kind === 'refuse') return say(plan.text);
		if (action !== 'resume' || !controller.freshSandboxes) return openOverlay({kind: 'confirm', request: plan.request});
		// The cap question names what the server would pause now: the list is read again first (state/fresh-plan.ts).
		say('Reading the sandbox list again for the cap question…');
		controller.freshSandboxes().then(
			(sandboxes) => {
				const fresh = planSandboxAction({...snapshot, sandboxes}, action, sandboxKey, fromConversation);
				if (fresh.kind === 'refuse') say(fresh.text);
				else openOverlay({kind: 'confirm', request: fresh.request});
			},
			(error: unknown) => say(`Could not read the sandbox list again, so the cap question is not asked on an old one: ${error instanceof Error ? error.message : String(error)}`),
		);
	};

	const sandboxOfConversation = (key: string | null | undefined) => {
		const sandboxId = key ? snapshot.conversations.get(key)?.conversation.sandbox_id : null;
		return sandboxId ? sandboxKeyOf(snapshot.sandboxes, sandboxId) : null;
	};

	return {
		/** p / r on a row of `pane`: a sandbox's own row, or the sandbox of a conversation. */
		askOn: (action: 'pause' | 'resume', pane: 'sandboxes' | 'conversations' | 'timeline', key: string | null | undefined) => {
			if (pane === 'sandboxes') askSandbox(action, key);
			// The pause question counts the other conversations the sandbox stops.
			else askSandbox(action, sandboxOfConversation(key), action === 'pause' ? key : undefined);
		},
		// P / R plan over the sandbox list; opened before it has arrived, the panel says so and plans
		// once it is there, rather than calling every sandbox "not running".
		openBulk: (action: 'pause' | 'resume') => {
			const plan = planBulk(snapshot, action, conversationKeys);
			openOverlay({kind: 'bulk', action, ...plan, ...(snapshot.sandboxesListed ? {} : {awaitingList: conversationKeys})});
		},
	};
}

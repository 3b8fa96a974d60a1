import {canResume} from '../../format/sandbox-advice.js';
import {causeGroups} from '../../state/causes.js';
import type {DashboardController, DashboardSnapshot} from '../../state/dashboard-types.js';
import {planTriage, type TriageVerb} from '../../state/triage-plan.js';
import {keyOf} from '../keymap.js';
import type {ViewCommands} from '../view-commands.js';
import {planAgentControl, type AgentVerb} from './agent-control-plan.js';

/**
 * The dashboard's keys on one conversation's agent (use-dashboard-keys.ts): a and x show the
 * pending actions and ask y/n first (x then asks for a reason), m asks for its message, i and c
 * ask y/n naming the conversation, A opens a side question, C runs the retryable errors again.
 */
export function triageKeyActions(args: {snapshot: DashboardSnapshot; controller: DashboardController; commands: ViewCommands}) {
	const {snapshot, controller} = args;
	const {say, openOverlay} = args.commands;
	return {
		triage: (verb: TriageVerb, key: string | null | undefined) => {
			const plan = planTriage(snapshot, controller, verb, key);
			if (plan.kind === 'refuse') say(plan.text);
			else if (verb === 'nudge') openOverlay({kind: 'prompt', purpose: verb, conversationKey: plan.conversationKey});
			else openOverlay({kind: 'triage-confirm', verb, conversationKey: plan.conversationKey});
		},
		askAgent: (verb: AgentVerb, key: string | null | undefined) => {
			const plan = planAgentControl(snapshot, controller, verb, key);
			if (plan.kind === 'refuse') say(plan.text);
			else openOverlay({kind: 'confirm', request: plan.request});
		},
		// A: a side question. Only a running agent can answer; its sandbox is never resumed for it.
		openAsk: (key: string | null | undefined) => {
			if (!controller.askAgent) return say('Asking an agent is not available here.');
			if (!key) return say('Select a conversation first.');
			const conversation = snapshot.conversations.get(key)?.conversation;
			if (!conversation) return say('That conversation is not in the list (yet).');
			const sandbox = String(conversation.sandbox_status ?? 'MISSING');
			if (sandbox !== 'RUNNING' || !conversation.conversation_url) {
				const resume = canResume(sandbox) ? ` ${keyOf('resume')} resumes it (asks first); asking never does.` : '';
				return say(`Its sandbox is ${sandbox.toLowerCase()}: only a running agent can answer.${resume}`);
			}
			openOverlay({kind: 'ask', conversationKey: key});
		},
		// C: every retryable error of the fleet, whatever group it is in, behind one question.
		runRetryable: () => {
			const keys = causeGroups(snapshot).flatMap((group) => (group.remedy === 'run' ? group.keys : []));
			if (keys.length === 0) say('No conversation has a retryable error: nothing to run again.');
			else openOverlay({kind: 'remedy', remedy: 'run', title: 'every retryable error', conversationKeys: keys});
		},
	};
}

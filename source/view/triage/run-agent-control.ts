import {SandboxNotRunningError} from '../../state/conversation-actions.js';
import type {DashboardController} from '../../state/dashboard-types.js';
import {sanitizeLine} from '../../format/sanitize.js';
import {truncateToWidth} from '../../format/width.js';
import {keyOf} from '../keymap.js';
import {sandboxAdvice, type AgentVerb} from './agent-control-plan.js';

/**
 * Runs a confirmed `i` or `c` and reports it on the notice line: pending, then what the server
 * did. An older server's `/pause` fallback and a 409 "already running" are answers, said plainly.
 */
export async function runAgentControl(
	controller: Pick<DashboardController, AgentVerb>,
	verb: AgentVerb,
	target: {conversationKey: string; title: string},
	notice: (text: string) => void,
): Promise<boolean> {
	const name = `"${target.title}"`;
	notice(verb === 'interrupt' ? `Stopping the agent of ${name}…` : `Letting the agent of ${name} continue…`);
	try {
		if (verb === 'interrupt') {
			const how = await controller.interrupt?.(target.conversationKey);
			if (how === undefined) throw new Error('not supported by this connection');
			notice(how === 'interrupt' ? `Stopped the agent of ${name}; it is paused (${keyOf('continueAgent')} continues it).` : `Pausing the agent of ${name} after its current step (this server has no interrupt).`);
		} else {
			const answer = await controller.continueAgent?.(target.conversationKey);
			if (answer === undefined) throw new Error('not supported by this connection');
			notice(answer === 'already-running' ? `${name} is already running.` : `The agent of ${name} is running again.`);
		}
		return true;
	} catch (error) {
		if (error instanceof SandboxNotRunningError) {
			notice(`${name}: its sandbox is ${sanitizeLine(error.sandboxStatus)}, not RUNNING. ${sandboxAdvice(error.sandboxStatus)}`);
			return false;
		}
		const reason = error instanceof Error ? error.message : String(error);
		notice(`${verb === 'interrupt' ? 'Stopping' : 'Continuing'} ${name} failed: ${truncateToWidth(sanitizeLine(reason), 120)}`);
		return false;
	}
}

import type {DashboardController} from '../../state/dashboard-types.js';
import {sanitizeLine} from '../../format/sanitize.js';
import {truncateToWidth} from '../../format/width.js';
import type {TriageVerb} from '../../state/triage-plan.js';

const words: Record<TriageVerb, {doing: string; done: string; name: string}> = {
	approve: {doing: 'Approving', done: 'Approved', name: 'Approve'},
	reject: {doing: 'Rejecting', done: 'Rejected', name: 'Reject'},
	nudge: {doing: 'Sending a message to', done: 'Message sent to', name: 'Message'},
};

/**
 * Run one triage action and report it in three steps on the notice line: pending when asked,
 * then sent or failed (with the server's short reason), so a key press never goes unanswered.
 */
export async function runTriage(
	controller: Pick<DashboardController, TriageVerb>,
	verb: TriageVerb,
	target: {conversationKey: string; title: string},
	notice: (text: string) => void,
	text?: string,
): Promise<boolean> {
	const word = words[verb];
	notice(`${word.doing} ${target.title}…`);
	try {
		// Called as methods (not detached) so a class-based controller keeps its `this`.
		const sent =
			verb === 'approve'
				? controller.approve?.(target.conversationKey)
				: verb === 'reject'
					? controller.reject?.(target.conversationKey, text ? text : undefined)
					: controller.nudge?.(target.conversationKey, text ?? '');
		if (sent === undefined) throw new Error('not supported by this connection');
		await sent;
		notice(`${word.done} ${target.title}.`);
		return true;
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		notice(`${word.name} failed for ${target.title}: ${truncateToWidth(sanitizeLine(reason), 120)}`);
		return false;
	}
}


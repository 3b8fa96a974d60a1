import type {PendingAction} from '../../state/timeline-query.js';
import type {TriageVerb} from '../../state/triage-plan.js';

/**
 * The words of the question behind `a` and `x`: how many actions, and their risks, most serious
 * first (`2 actions: 1 HIGH risk, 1 LOW`), plus a warning line when any is rated HIGH. Pure, so
 * the wording is tested without Ink.
 */

const riskOrder = ['HIGH', 'MEDIUM', 'LOW', 'UNKNOWN'];

export function riskCounts(actions: readonly PendingAction[]): Array<{risk: string; count: number}> {
	const counts = new Map<string, number>();
	for (const action of actions) {
		const risk = String(action.security_risk || 'UNKNOWN').toUpperCase();
		counts.set(risk, (counts.get(risk) ?? 0) + 1);
	}
	const rank = (risk: string) => (riskOrder.includes(risk) ? riskOrder.indexOf(risk) : riskOrder.length);
	return [...counts].map(([risk, count]) => ({risk, count})).sort((a, b) => rank(a.risk) - rank(b.risk) || a.risk.localeCompare(b.risk));
}

export function actionQuestion(verb: Extract<TriageVerb, 'approve' | 'reject'>, title: string, actions: readonly PendingAction[]): string {
	const count = actions.length;
	const what = count === 1 ? 'the pending action' : `all ${count} pending actions`;
	return `${verb === 'approve' ? 'Approve' : 'Reject'} ${what} of ${title}?`;
}

export function riskSummary(actions: readonly PendingAction[]): string {
	const parts = riskCounts(actions).map(({risk, count}) => `${count} ${risk}`);
	return `${actions.length} action${actions.length === 1 ? '' : 's'} · risk: ${parts.join(', ')}`;
}

/** The warning line for HIGH-risk actions, or null when none is rated HIGH. */
export function highRiskWarning(verb: 'approve' | 'reject', actions: readonly PendingAction[]): string | null {
	const high = actions.filter((action) => String(action.security_risk).toUpperCase() === 'HIGH').length;
	if (high === 0 || verb !== 'approve') return null;
	const which = high === actions.length ? (high === 1 ? 'this action is' : `all ${high} are`) : `${high} of ${actions.length} actions ${high === 1 ? 'is' : 'are'}`;
	return `⚠ HIGH RISK: ${which} rated high risk; read ${high === 1 ? 'it' : 'them'} before approving`;
}

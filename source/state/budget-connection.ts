import type {ConnectionState} from './dashboard-types.js';
import type {RequestBudget} from './request-budget.js';

/**
 * What the header says of the request budget, from the budget: the limit in force (learned from
 * the server's 429s when lower than the configured one) and how many clients share it.
 */
export function budgetSharing(budget: RequestBudget): Pick<ConnectionState, 'budgetPerMinute' | 'budgetClients' | 'budgetLearned'> {
	const view = budget.sharedView();
	const learned = view?.learned && view.perMinute < budget.perMinute ? (view.learned.named ? 'named' : 'inferred') : undefined;
	return {
		budgetPerMinute: budget.effectivePerMinute(),
		...(view?.shared && view.clients > 1 ? {budgetClients: view.clients} : {}),
		...(learned ? {budgetLearned: learned} : {}),
	};
}

/** Whether the published connection still says what the budget would say now. */
export function sameBudgetSharing(previous: ConnectionState, budget: RequestBudget): boolean {
	const next = budgetSharing(budget);
	return previous.budgetPerMinute === next.budgetPerMinute && previous.budgetClients === next.budgetClients && previous.budgetLearned === next.budgetLearned;
}

import type {GoalState} from '../wire/goal.js';
import {firstLine} from './event-values.js';
import {sanitizeLine} from './sanitize.js';

/**
 * Words for a goal loop (wire/goal.ts): `goal 3/10` in the list, `goal 3/10 running` in the
 * timeline's header and rows, with the objective and the judge's last verdict in details.
 * Sanitized: the objective is the user's text and a server could send anything.
 */

/** `3/10`, or `3` when the server gave no maximum. */
export function goalProgress(goal: GoalState): string {
	return goal.maxIterations === null ? String(goal.iteration) : `${goal.iteration}/${goal.maxIterations}`;
}

/** `goal 3/10` (running), `goal ✓ 4/10` (complete), `goal capped 10/10`, `goal interrupted 3/10`. */
export function goalShort(goal: GoalState): string {
	const progress = goalProgress(goal);
	if (goal.status === 'running') return `goal ${progress}`;
	if (goal.status === 'complete') return `goal ✓ ${progress}`;
	return `goal ${sanitizeLine(firstLine(goal.status, 20))} ${progress}`;
}

/** `goal 3/10 running`, for the header and the state row. */
export function goalWords(goal: GoalState): string {
	return `goal ${goalProgress(goal)} ${sanitizeLine(firstLine(goal.status, 20))}`;
}

/** The objective on one line, cut to `max`. */
export function goalObjective(goal: GoalState, max = 100): string {
	return sanitizeLine(firstLine(goal.objective, max));
}

/** A goal that ended without being met, or one stopped by a person, is worth a look. */
export function goalNeedsLook(goal: GoalState): boolean {
	return goal.status === 'capped' || goal.status === 'interrupted';
}

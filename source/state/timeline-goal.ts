import type {LoggedEvent} from '../wire/schemas/events.js';
import {goalOf, type GoalState, isGoalUpdate} from '../wire/goal.js';
import {settleEvent} from '../wire/schemas/events.js';

/**
 * The newest `goal` state update of `events` (ordered), walking back from the end: a log with a
 * goal loop finds it within its last audit round; one without costs one cheap check per event
 * (a pending event is told by its key, unvalidated). Null when there is none, or it was cleared.
 */
export function latestGoal(events: readonly LoggedEvent[]): GoalState | null {
	for (let index = events.length - 1; index >= 0; index--) {
		const event = events[index]!;
		if (isGoalUpdate(event)) return goalOf(settleEvent(event)) ?? null;
	}
	return null;
}

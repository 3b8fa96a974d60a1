import type {LoggedEvent, WireEvent} from './schemas/events.js';

/**
 * The goal loop's progress, as the agent server publishes it: the `goal` key of a
 * ConversationStateUpdateEvent, value `GoalStatus {active, status, iteration, max_iterations,
 * objective, verdict}` (SDK openhands-sdk/openhands/sdk/conversation/goal/controller.py;
 * agent_server event_service.py `_emit_status`), verdict `{score, complete, missing}`
 * (goal/judge.py). A status this client does not know is kept as sent. Pure reads, no zod.
 */

export const goalStatuses = ['running', 'complete', 'capped', 'interrupted'] as const;

export type GoalState = {
	active: boolean;
	/** running, complete, capped, interrupted, or what a newer server sends. */
	status: string;
	/** Audit rounds done. */
	iteration: number;
	maxIterations: number | null;
	objective: string;
	verdict: {score: number | null; complete: boolean | null; missing: string | null} | null;
};

const number = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** A `goal` value (any shape) as the client reads it; null when it says nothing (the goal was cleared). */
export function readGoal(value: unknown): GoalState | null {
	if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
	const record = value as Record<string, unknown>;
	const verdict = record.verdict !== null && typeof record.verdict === 'object' && !Array.isArray(record.verdict) ? (record.verdict as Record<string, unknown>) : null;
	const status = text(record.status);
	return {
		active: record.active === true,
		status: status ?? (record.active === true ? 'running' : 'unknown'),
		iteration: Math.max(0, Math.floor(number(record.iteration) ?? 0)),
		maxIterations: number(record.max_iterations),
		objective: text(record.objective) ?? '',
		verdict: verdict ? {score: number(verdict.score), complete: typeof verdict.complete === 'boolean' ? verdict.complete : null, missing: text(verdict.missing)} : null,
	};
}

/** Whether a logged event is a `goal` state update (a pending one is told by its key, without validating it). */
export function isGoalUpdate(event: LoggedEvent): boolean {
	if (event.kind === 'PendingEvent') return event.pendingKind === 'ConversationStateUpdateEvent' && event.stateKey === 'goal';
	return event.kind === 'ConversationStateUpdateEvent' && event.key === 'goal';
}

/** The goal a validated state update sets (null when it cleared it), or undefined when it is no goal update. */
export function goalOf(event: WireEvent): GoalState | null | undefined {
	if (event.kind !== 'ConversationStateUpdateEvent' || event.key !== 'goal') return undefined;
	return readGoal(event.value);
}

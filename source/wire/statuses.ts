/**
 * Status vocabularies, seed plus what the real servers send (docs/service-behaviour.md §1.1, §5).
 * Values outside these lists are kept as strings and shown as unknown; they never fail a parse.
 *
 * `UNKNOWN` is the hosted service's word for "the provider is unavailable, the sandbox's own
 * status cannot be read" (OpenHands app_server/sandbox/sandbox_models.py `SandboxStatus`): it
 * says nothing about whether the sandbox runs, so it is never read as running or as stopped.
 */
export const sandboxStatuses = ['STARTING', 'RUNNING', 'PAUSED', 'ERROR', 'MISSING', 'UNKNOWN'] as const;
export type SandboxStatus = (typeof sandboxStatuses)[number];

export const executionStatuses = [
	'idle',
	'running',
	'paused',
	'waiting_for_confirmation',
	'finished',
	'error',
	'stuck',
	'deleting',
] as const;
export type ExecutionStatus = (typeof executionStatuses)[number];

/** Real order of start-task phases; the seed lacks the setup-script, git-hooks and starting phases. */
export const startTaskStatuses = [
	'WORKING',
	'WAITING_FOR_SANDBOX',
	'PREPARING_REPOSITORY',
	'RUNNING_SETUP_SCRIPT',
	'SETTING_UP_GIT_HOOKS',
	'SETTING_UP_SKILLS',
	'STARTING_CONVERSATION',
	'READY',
	'ERROR',
] as const;
export type StartTaskStatus = (typeof startTaskStatuses)[number];

/** Execution statuses where a polling loop stops (the seed's rules). */
export const terminalExecutionStatuses: readonly string[] = ['finished', 'error', 'stuck'];
export const blockingExecutionStatuses: readonly string[] = ['waiting_for_confirmation'];
export const terminalSandboxStatuses: readonly string[] = ['ERROR', 'MISSING'];

export function isKnown<T extends string>(values: readonly T[], value: string | null | undefined): value is T {
	return value != null && (values as readonly string[]).includes(value);
}

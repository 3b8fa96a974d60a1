import type {AppConversation} from '../wire/schemas/app.js';
import {executionStatuses, sandboxStatuses} from '../wire/statuses.js';
import {UsageError} from './exit-codes.js';

/**
 * `conversations --status S[,S...]`: each S is an execution status or a sandbox status, in any
 * case. Three words are both (running, paused, error); for them the spelling the server uses
 * decides: `running` is the execution status, `RUNNING` the sandbox status, and any other case
 * (`Running`) matches either. A conversation is kept when it matches any of the values.
 */
export type StatusFilter = {execution: Set<string>; sandbox: Set<string>};

const execution = new Set<string>(executionStatuses);
const sandbox = new Set<string>(sandboxStatuses);

export function parseStatusFilter(values: readonly string[]): StatusFilter | null {
	const words = values.flatMap((value) => value.split(',')).map((word) => word.trim()).filter(Boolean);
	if (words.length === 0) return null;
	const filter: StatusFilter = {execution: new Set(), sandbox: new Set()};
	for (const word of words) {
		const lower = word.toLowerCase();
		const upper = word.toUpperCase();
		const isExecution = execution.has(lower);
		const isSandbox = sandbox.has(upper);
		if (!isExecution && !isSandbox) {
			throw new UsageError(
				`unknown status "${word}"; execution statuses: ${executionStatuses.join(', ')}; sandbox statuses: ${sandboxStatuses.join(', ')}`,
			);
		}
		const both = isExecution && isSandbox;
		if (isExecution && (!both || word !== upper)) filter.execution.add(lower);
		if (isSandbox && (!both || word !== lower)) filter.sandbox.add(upper);
	}
	return filter;
}

export function conversationMatchesStatus(conversation: AppConversation, filter: StatusFilter): boolean {
	const exec = conversation.execution_status?.toLowerCase();
	const box = conversation.sandbox_status?.toUpperCase();
	return (exec !== undefined && filter.execution.has(exec)) || (box !== undefined && filter.sandbox.has(box));
}

import type {SandboxRow} from './dashboard-types.js';
import {publicMessage} from './redact.js';
import {BudgetClosedError, type RequestBudget} from './request-budget.js';
import {type CapWatch, capWatchFor, shortId} from './sandbox-rows.js';

/**
 * Pause and resume: requests to the app server about one sandbox, queued in the shared request
 * budget. The action is marked pending on the sandbox's row at once; the row's status changes
 * only when the server's list says so (the store's sandbox look-ups watch it). A resume also
 * remembers which sandboxes were running and which the question said it pauses, because the
 * service may pause some of them to make room (the store checks the question against it).
 */

export type SandboxActionClient = {
	pauseSandbox(id: string, call?: {signal?: AbortSignal}): Promise<unknown>;
	resumeSandbox(id: string, call?: {signal?: AbortSignal}): Promise<unknown>;
};

export type SandboxActionsOptions = {
	client: SandboxActionClient;
	budget: Pick<RequestBudget, 'schedule'>;
	/** Exact strings never to show (the API key). */
	secrets: readonly string[];
	now(): number;
	/** How long a resume's cap watch lasts. */
	actionTimeoutMs: number;
	/** The store's current rows, read fresh at each step. */
	rows(): ReadonlyMap<string, SandboxRow>;
	setPending(key: string, pending: SandboxRow['pending']): void;
	setCapWatch(watch: CapWatch): void;
	/** The service's cap on running sandboxes as the question used it (null: unknown). */
	runningCap(): number | null;
	/** Tells the poller which sandboxes to look up quickly now. */
	updateWatch(): void;
	/** The whole sandbox list, now: a resume may already have made the service pause another. */
	refreshSandboxes?(): void;
	notice(text: string, level: 'info' | 'warn' | 'error'): void;
	closed(): boolean;
};

export type SandboxActions = {
	pauseSandbox(key: string): Promise<void>;
	resumeSandbox(key: string): Promise<void>;
};

export function createSandboxActions(options: SandboxActionsOptions): SandboxActions {
	const run = async (key: string, kind: 'pausing' | 'resuming'): Promise<void> => {
		const row = options.rows().get(key);
		if (!row) {
			options.notice(`No sandbox ${shortId(key)} is known; refresh and try again.`, 'warn');
			return;
		}

		const verb = kind === 'pausing' ? 'pause' : 'resume';
		const pending = {kind, startedAt: options.now()} as const;
		options.setPending(key, pending);
		if (kind === 'resuming') {
			// What the question predicted, to check against what the service then does.
			options.setCapWatch(capWatchFor(options.rows(), key, `Resuming sandbox ${shortId(key)}`, options.runningCap(), options.now(), options.actionTimeoutMs));
		}

		options.updateWatch();
		const id = String(row.sandbox.id);
		try {
			const result = await options.budget.schedule(
				`sandbox-action:${key}`,
				(signal) => (kind === 'pausing' ? options.client.pauseSandbox(id, {signal}) : options.client.resumeSandbox(id, {signal})),
				'action',
			);
			if (options.closed()) return;
			if (result && typeof result === 'object' && (result as {success?: unknown}).success === false) {
				throw new Error('the server did not accept the request (success: false)');
			}

			options.notice(`Asked the server to ${verb} sandbox ${shortId(key)}; waiting for its status to change.`, 'info');
			// The service pauses the oldest other sandbox before it resumes this one: show it now.
			if (kind === 'resuming') options.refreshSandboxes?.();
		} catch (error) {
			if (options.closed() || error instanceof BudgetClosedError) return;
			const reason = publicMessage(error, options.secrets);
			// Still ours to report only if no newer action replaced it meanwhile.
			if (options.rows().get(key)?.pending === pending) options.setPending(key, {...pending, error: reason});
			options.notice(`Could not ${verb} sandbox ${shortId(key)}: ${reason}`, 'error');
			options.updateWatch();
		}
	};

	return {pauseSandbox: (key) => run(key, 'pausing'), resumeSandbox: (key) => run(key, 'resuming')};
}

import type {ResumeStepReport, SandboxRow} from './dashboard-types.js';

export type {ResumeStepReport} from './dashboard-types.js';
import {publicMessage} from './redact.js';
import {capEffect, capGraceMs, sameKeys, shortId} from './sandbox-rows.js';

/**
 * Resuming several sandboxes against the running-sandbox cap, on fresh data, one step at a time.
 * A plan made from a list up to a minute old named a sandbox the server had already paused, and
 * two resumes sent 13 ms apart left 4 running against a cap of 3: the service counts only RUNNING
 * sandboxes (pause_old_sandboxes), so a resume sent while the previous one is still STARTING, or
 * before the service's own pause has landed, is counted against a smaller number than will run.
 *
 * So each step: read the sandbox list again (one request), plan this resume on it (capEffect),
 * say when that differs from what the question said (and stop, to be asked again, when it would
 * pause a sandbox the question did not name), send it, then wait until the server shows
 * the sandbox RUNNING and the ones the cap makes it pause PAUSED, and read the list once more to
 * say what the server then did (which it paused, how many run). Only then the next step. With a
 * known cap, a step whose pauses do not land stops the plan: going on could leave more running
 * than the cap.
 */

export type ResumeStepsOptions = {
	/** Reads the sandbox list now (one request) and returns the rows as the server just said. */
	fresh(): Promise<ReadonlyMap<string, SandboxRow>>;
	/** The store's rows as last seen (updated by its quick look-ups while an action waits). */
	rows(): ReadonlyMap<string, SandboxRow>;
	/** Calls back whenever the rows may have changed; returns the unsubscribe. */
	subscribe(listener: () => void): () => void;
	/** Sends one resume (the store's own action: pending on the row, its cap watch). */
	resume(key: string): Promise<void>;
	cap(): number | null;
	now(): number;
	/** How long a resume may take to show RUNNING. */
	actionTimeoutMs: number;
	report(report: ResumeStepReport): void;
	/**
	 * The conversations read again now: their rows carry their sandbox's status, which the header
	 * counts; after a step they must say what the sandbox list just said, not what a poll said before.
	 */
	refreshConversations?(): void;
	/** True once the user stopped it: nothing more is sent. */
	stopped(): boolean;
};

const statusOf = (rows: ReadonlyMap<string, SandboxRow>, key: string): string => String(rows.get(key)?.sandbox.status ?? 'MISSING').toUpperCase();

/** Runs the steps in order; `planned` is what the question said each step pauses (by sandbox key). */
export async function resumeInSteps(keys: readonly string[], planned: ReadonlyMap<string, readonly string[]> | null, options: ResumeStepsOptions): Promise<void> {
	const agreed = new Set([...(planned?.values() ?? [])].flat());
	for (const key of keys) {
		if (options.stopped()) return;
		let rows: ReadonlyMap<string, SandboxRow>;
		try {
			rows = await options.fresh();
		} catch (error) {
			options.report({key, state: 'stopped', why: `could not read the sandbox list again (${error instanceof Error ? error.message : String(error)}): nothing more is sent`});
			return;
		}

		if (options.stopped()) return;
		const status = statusOf(rows, key);
		const row = rows.get(key);
		if (status !== 'PAUSED' || !row) {
			options.report({key, state: 'skipped', why: `the server now says ${status.toLowerCase()}`});
			continue;
		}

		if (row.pending && !row.pending.error) {
			options.report({key, state: 'skipped', why: `already ${row.pending.kind}`});
			continue;
		}

		const cap = options.cap();
		const effect = capEffect(rows, key, cap);
		const pauses = effect?.victimKeys ?? [];
		const said = planned?.get(key);
		// The user's y covered the pauses the question named: one it did not name is asked again, not sent.
		const unnamed = planned === null ? [] : pauses.filter((victim) => !agreed.has(victim));
		if (unnamed.length > 0) {
			options.report({key, state: 'stopped', why: `the list read again shows this resume would make the server pause ${unnamed.map((victim) => shortId(victim)).join(', ')}, which the question did not name: nothing more is sent; ask again`});
			return;
		}
		options.report({key, state: 'sent', pauses, planned: said === undefined || sameKeys(said, pauses) ? null : said});
		const sentAt = options.now();
		await options.resume(key);
		const up = await waitFor(options, (current) => {
			const now = current.get(key);
			if (now?.pending?.error) return true;
			return statusOf(current, key) === 'RUNNING' && !now?.pending;
		}, options.actionTimeoutMs);
		const resumed = options.rows().get(key);
		if (!up || resumed?.pending?.error) {
			options.report({key, state: 'failed', reason: resumed?.pending?.error ?? `not running after ${Math.round(options.actionTimeoutMs / 1000)} s`});
			options.report({key, state: 'stopped', why: 'nothing more is sent until this one is settled'});
			return;
		}

		// The service asks for its pause before it resumes, but the paused runtime stops later.
		const landed = pauses.length === 0 || (await waitFor(options, (current) => pauses.every((victim) => statusOf(current, victim) !== 'RUNNING'), capGraceMs(options.now() - sentAt)));
		let after: ReadonlyMap<string, SandboxRow>;
		try {
			after = await options.fresh();
		} catch {
			after = options.rows();
		}
		options.refreshConversations?.();

		const paused = [...rows.values()].filter((other) => other.key !== key && statusOf(rows, other.key) === 'RUNNING' && statusOf(after, other.key) === 'PAUSED').map((other) => other.key);
		const server = row.server?.name;
		const running = [...after.values()].filter((other) => (server === undefined || other.server?.name === server) && statusOf(after, other.key) === 'RUNNING').length;
		options.report({key, state: 'done', paused, running, cap: options.cap()});
		if (!landed && effect?.certain) {
			options.report({key, state: 'stopped', why: 'the server has not paused what the cap makes it pause: resuming more could leave more running than the cap'});
			return;
		}
	}
}

/** Resolves true once `done` holds for the rows, false after `timeoutMs`. */
function waitFor(options: Pick<ResumeStepsOptions, 'rows' | 'subscribe' | 'stopped'>, done: (rows: ReadonlyMap<string, SandboxRow>) => boolean, timeoutMs: number): Promise<boolean> {
	if (done(options.rows())) return Promise.resolve(true);
	return new Promise((resolve) => {
		const finish = (value: boolean) => {
			clearTimeout(timer);
			unsubscribe();
			resolve(value);
		};
		const timer = setTimeout(() => finish(false), timeoutMs);
		const unsubscribe = options.subscribe(() => {
			if (options.stopped()) finish(false);
			else if (done(options.rows())) finish(true);
		});
	});
}

export type FreshPlans = {
	/** The sandbox list read now (one request, at action priority), applied, and returned. */
	freshSandboxes(): Promise<ReadonlyMap<string, SandboxRow>>;
	/** resumeInSteps on this store. */
	resumeInSteps(keys: readonly string[], planned: ReadonlyMap<string, readonly string[]> | null, report: (report: ResumeStepReport) => void, stopped: () => boolean): Promise<void>;
};

/** The two for a store: `read` sends the one request, `apply` merges its answer as a complete list. */
export function createFreshPlans(store: Omit<ResumeStepsOptions, 'fresh' | 'report' | 'stopped'> & {read(): Promise<void>; secrets: readonly string[]}): FreshPlans {
	const freshSandboxes = async () => {
		try {
			await store.read();
		} catch (error) {
			throw new Error(publicMessage(error, store.secrets));
		}
		return store.rows();
	};
	return {
		freshSandboxes,
		resumeInSteps: (keys, planned, report, stopped) => resumeInSteps(keys, planned, {...store, fresh: freshSandboxes, report, stopped}),
	};
}

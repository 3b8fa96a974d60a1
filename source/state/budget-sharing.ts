import type {RequestBudgetOptions} from './request-budget.js';
import {SharedBudget} from './shared-budget.js';

/**
 * The options of a server's RequestBudget with the budget shared with every other client of this
 * machine that uses the same server and key (state/shared-budget.ts). Not for the demo: its
 * simulator is this process's own, on a port no other client uses.
 */

export type BudgetTuning = {perSecond?: number; perMinute?: number; minuteMs?: number};

/** Said once a process, however many servers cannot share their budget. */
let warned = false;

export function sharedBudgetOptions(
	target: {baseUrl: string; key: string | null; demo?: boolean},
	tuning: BudgetTuning = {},
	options: {env?: NodeJS.ProcessEnv; warn?: (message: string) => void} = {},
): RequestBudgetOptions {
	if (target.demo) return {...tuning};
	let origin: string;
	try {
		origin = new URL(target.baseUrl).origin;
	} catch {
		return {...tuning};
	}
	const warn = options.warn;
	const shared = new SharedBudget({
		origin,
		key: target.key ?? '',
		limits: {perSecond: Math.max(1, tuning.perSecond ?? 10), perMinute: Math.max(1, tuning.perMinute ?? 100), minuteMs: Math.max(1000, tuning.minuteMs ?? 60_000), guardMs: 100},
		...(options.env ? {env: options.env} : {}),
		warn: (message) => {
			if (warned) return;
			warned = true;
			warn?.(message);
		},
	});
	return {...tuning, shared};
}

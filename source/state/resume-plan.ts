import type {SandboxRow} from './dashboard-types.js';
import {capEffect} from './sandbox-rows.js';

/**
 * Resuming several sandboxes, one after the other, against the service's running-sandbox cap.
 * Each resume first runs the service's `pause_old_sandboxes` (sandbox-rows.ts capEffect: the
 * oldest RUNNING sandboxes by creation, as many as leave `cap - 1` running), so a plan is the
 * same walk on a copy of the rows: which sandboxes each resume makes the service pause, in order,
 * and whether a later resume pauses one resumed a moment before (a sandbox keeps its creation
 * time, so an old one resumed is among the first the next resume pauses). The question says all
 * of it before anything is sent.
 */

export type ResumeStep = {sandboxKey: string; pauses: string[]};

export type ResumePlan = {
	steps: ResumeStep[];
	/** Every sandbox the service would pause, in the order it would. */
	paused: string[];
	/** Sandboxes of this plan that a later step of it pauses again. */
	undone: string[];
	cap: number | null;
	/** The cap is known: the pauses will happen, not only may. */
	certain: boolean;
};

export function planResumes(rows: ReadonlyMap<string, SandboxRow>, sandboxKeys: readonly string[], cap: number | null): ResumePlan {
	const current = new Map(rows);
	const setStatus = (key: string, status: string) => {
		const row = current.get(key);
		if (row) current.set(key, {...row, sandbox: {...row.sandbox, status}});
	};
	const steps: ResumeStep[] = [];
	const paused: string[] = [];
	const resumed = new Set<string>();
	const undone = new Set<string>();
	for (const sandboxKey of sandboxKeys) {
		const effect = capEffect(current, sandboxKey, cap);
		const pauses = effect?.victimKeys ?? [];
		for (const victim of pauses) {
			setStatus(victim, 'PAUSED');
			paused.push(victim);
			if (resumed.has(victim)) undone.add(victim);
		}
		setStatus(sandboxKey, 'RUNNING');
		resumed.add(sandboxKey);
		steps.push({sandboxKey, pauses});
	}
	return {steps, paused, undone: [...undone], cap, certain: cap !== null};
}

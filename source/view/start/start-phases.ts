import {startTaskStatuses} from '../../wire/statuses.js';
import type {StartTask} from '../../wire/schemas/app.js';
import {startTaskError} from '../../wire/schemas/app.js';

/**
 * The start task's phases as progress lines: `[4/8] SETTING_UP_GIT_HOOKS` reads "4 of 8 steps
 * done, now setting up git hooks" (READY is 8/8). The order is the real server's; a status it
 * does not know yet is shown as `[?/8]`, never dropped.
 */

const progressPhases = startTaskStatuses.filter((status) => status !== 'ERROR');

export type PhaseLine = {label: string; status: string; state: 'done' | 'current' | 'failed'};

function label(status: string): string {
	if (status === 'ERROR') return 'ERROR';
	const position = (progressPhases as readonly string[]).indexOf(status);
	const done = status === 'READY' ? progressPhases.length : position;
	return `[${position === -1 ? '?' : done}/${progressPhases.length}] ${status}`;
}

/** One line per status reached, in order; repeated snapshots of one status count once. */
export function phaseLines(phases: readonly StartTask[]): PhaseLine[] {
	const lines: PhaseLine[] = [];
	for (const phase of phases) {
		if (lines.at(-1)?.status === phase.status) continue;
		lines.push({label: label(phase.status), status: phase.status, state: 'done'});
	}

	const last = lines.at(-1);
	if (last && last.status !== 'READY') last.state = last.status === 'ERROR' ? 'failed' : 'current';
	return lines;
}

/** The failure text of the newest snapshot that has one. */
export function phaseError(phases: readonly StartTask[]): string | null {
	for (let index = phases.length - 1; index >= 0; index--) {
		const phase = phases[index];
		const error = phase ? startTaskError(phase) : undefined;
		if (error) return error;
	}

	return null;
}

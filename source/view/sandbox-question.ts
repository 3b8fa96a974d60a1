import {sanitizeLine} from '../format/sanitize.js';
import type {DashboardSnapshot} from '../state/dashboard-types.js';
import {usedBy} from './sandbox-cells.js';
import type {ConfirmRequest} from './view-state.js';

export type SandboxPlan = {kind: 'ask'; request: ConfirmRequest} | {kind: 'refuse'; text: string};

const pausable = new Set(['RUNNING', 'STARTING']);
const resumable = new Set(['PAUSED', 'MISSING', 'ERROR']);

/**
 * What `p` or `r` does for a sandbox: ask y/n (never act on the key alone), or say why not
 * (already paused, an action in flight, not known yet).
 */
export function planSandboxAction(
	snapshot: Pick<DashboardSnapshot, 'sandboxes' | 'conversations'>,
	action: 'pause' | 'resume',
	sandboxKey: string | null | undefined,
): SandboxPlan {
	if (!sandboxKey) return {kind: 'refuse', text: 'No sandbox selected.'};
	const row = snapshot.sandboxes.get(sandboxKey);
	const name = sanitizeLine(sandboxKey.length > 12 ? sandboxKey.slice(0, 12) : sandboxKey);
	if (!row) return {kind: 'refuse', text: `Sandbox ${name} is not loaded yet; try again in a moment.`};
	if (row.pending && !row.pending.error) return {kind: 'refuse', text: `Sandbox ${name} is already ${row.pending.kind}…`};
	const status = String(row.sandbox.status);
	if (action === 'pause' && !pausable.has(status)) return {kind: 'refuse', text: `Sandbox ${name} is ${status.toLowerCase()}: nothing to pause.`};
	if (action === 'resume' && !resumable.has(status)) return {kind: 'refuse', text: `Sandbox ${name} is ${status.toLowerCase()}: nothing to resume.`};
	const users = usedBy(row, snapshot.conversations);
	const verb = action === 'pause' ? 'Pause' : 'Resume';
	const note = action === 'resume' ? ' · the service may pause your oldest other sandbox' : '';
	return {kind: 'ask', request: {action, sandboxKey, question: `${verb} sandbox ${name}?`, detail: `used by ${users}${note}`}};
}

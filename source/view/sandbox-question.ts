import {canResume, cannotResumeText} from '../format/sandbox-advice.js';
import {sanitizeLine} from '../format/sanitize.js';
import type {DashboardSnapshot} from '../state/dashboard-types.js';
import {capEffect} from '../state/sandbox-rows.js';
import {usedBy} from './sandbox-cells.js';
import {keyOf} from './keymap.js';
import type {ConfirmRequest} from './view-state.js';

export type SandboxPlan = {kind: 'ask'; request: ConfirmRequest} | {kind: 'refuse'; text: string};

const pausable = new Set(['RUNNING', 'STARTING']);

/**
 * What `p` or `r` does for a sandbox: ask y/n (never act on the key alone), or say why not
 * (already paused, an action in flight, not in the list).
 */
export function planSandboxAction(
	snapshot: Pick<DashboardSnapshot, 'sandboxes' | 'conversations'> & Partial<Pick<DashboardSnapshot, 'runningSandboxCap'>>,
	action: 'pause' | 'resume',
	sandboxKey: string | null | undefined,
	/** The conversation the key was pressed on: the pause question counts the others it stops. */
	fromConversation?: string | null,
): SandboxPlan {
	if (!sandboxKey) return {kind: 'refuse', text: 'No sandbox selected.'};
	const row = snapshot.sandboxes.get(sandboxKey);
	const name = sandboxName(sandboxKey, row?.server?.name);
	// Callers plan once the sandbox list has arrived (awaited-key.ts): a row missing then is not in it.
	if (!row) return {kind: 'refuse', text: `Sandbox ${name} is not in the sandbox list (ctrl-r refreshes it).`};
	if (row.pending && !row.pending.error) return {kind: 'refuse', text: `Sandbox ${name} is already ${row.pending.kind}…`};
	const status = String(row.sandbox.status);
	if (action === 'pause' && !pausable.has(status)) return {kind: 'refuse', text: `Sandbox ${name} is ${status.toLowerCase()}: nothing to pause.`};
	if (action === 'resume' && !canResume(status)) return {kind: 'refuse', text: `Sandbox ${name} is ${cannotResumeText(status)}.`};
	const users = usedBy(row, snapshot.conversations);
	if (action === 'pause') {
		// Pausing a sandbox stops every agent in it: say how many besides the one in view.
		const others = row.conversationKeys.filter((key) => key !== fromConversation).length;
		const plural = (n: number) => `${n} conversation${n === 1 ? '' : 's'}`;
		const question = fromConversation
			? others === 0
				? `Pause sandbox ${name} (no other conversation in it)?`
				: `Pause sandbox ${name} and stop ${others} other ${plural(others).replace(/^\d+ /, '')} too?`
			: `Pause sandbox ${name} and stop its ${plural(others)}?`;
		const tip = fromConversation ? `${keyOf('interrupt')} stops only this agent · ` : '';
		return {kind: 'ask', request: {action, sandboxKey, question, detail: `${tip}used by ${users}`}};
	}
	const cap = capQuestion(snapshot, sandboxKey);
	return {kind: 'ask', request: {action, sandboxKey, question: `Resume sandbox ${name}?${cap.question}`, detail: `${cap.detail}used by ${users}`}};
}

/**
 * What a start or resume does to the others when the service is at its cap on running sandboxes
 * (it pauses the oldest RUNNING others first; STARTING ones are not counted, see capEffect): in
 * the question when it will happen (the running count is at a known cap), as a caution when the
 * cap is unknown, nothing when under it.
 */
export function capQuestion(
	snapshot: Pick<DashboardSnapshot, 'sandboxes' | 'conversations'> & Partial<Pick<DashboardSnapshot, 'runningSandboxCap'>>,
	excludeKey: string | null,
): {question: string; detail: string} {
	// The all-servers view: a cap is one server's, over that server's sandboxes only.
	const server = excludeKey ? snapshot.sandboxes.get(excludeKey)?.server?.name : undefined;
	const rows = server === undefined ? snapshot.sandboxes : new Map([...snapshot.sandboxes].filter(([, row]) => row.server?.name === server));
	const effect = capEffect(rows, excludeKey, snapshot.runningSandboxCap ?? null);
	if (!effect) return {question: '', detail: ''};
	const names = effect.victimKeys.map((key) => sanitizeLine(key.slice(0, 8)));
	const victims = names.length <= 2 ? names.join(' and ') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
	const held = `${effect.conversations} conversation${effect.conversations === 1 ? '' : 's'}`;
	const starting = effect.starting > 0 ? `, ${effect.starting} starting (not counted)` : '';
	// Short enough that the question and its [y/n] fit 80 columns; the why goes in the detail.
	if (effect.certain) return {question: ` It pauses ${victims} (${held}).`, detail: `${effect.running} of ${effect.cap} running${starting}: the service pauses the oldest · `};
	return {question: '', detail: `at the service's cap it pauses sandbox ${victims} (${held}), the oldest running${starting} · `};
}

/** A sandbox as a question names it: its id's first 12 characters, and in the all-servers view its server. */
function sandboxName(sandboxKey: string, server: string | undefined): string {
	const id = server && sandboxKey.endsWith(`@${server}`) ? sandboxKey.slice(0, -server.length - 1) : sandboxKey;
	const short = sanitizeLine(id.length > 12 ? id.slice(0, 12) : id);
	return server ? `${short} on ${sanitizeLine(server)}` : short;
}

import {sanitizeLine} from '../format/sanitize.js';
import {canRunAgain, causeOf} from './causes.js';
import type {DashboardSnapshot} from './dashboard-types.js';
import {planResumes, type ResumePlan} from './resume-plan.js';
import {sandboxKeyOf, shortId} from './sandbox-rows.js';
import {shortTitle} from './triage-plan.js';

/**
 * What a group's remedy acts on, decided when it is asked, so the y/n answers exactly the list on
 * screen. Run: the conversations still in error, with an error that running again may fix
 * (causes.ts canRunAgain), whose sandbox runs (POST run needs the agent server; a paused sandbox
 * is never resumed for it). Resume: their paused sandboxes, each once,
 * planned against the running-sandbox cap (state/resume-plan.ts). Pure.
 */

type Snapshot = Pick<DashboardSnapshot, 'conversations' | 'sandboxes' | 'runningSandboxCap' | 'sandboxesListed'>;

export type RunRemedy = {remedy: 'run'; conversationKeys: string[]; skipped: Array<{key: string; why: string}>};
export type ResumeRemedy = {remedy: 'resume'; sandboxKeys: string[]; conversations: number; skipped: Array<{key: string; why: string}>; plan: ResumePlan};
export type RemedyPlan = RunRemedy | ResumeRemedy;

export function planRun(snapshot: Snapshot, keys: readonly string[]): RunRemedy {
	const conversationKeys: string[] = [];
	const skipped: RunRemedy['skipped'] = [];
	for (const key of keys) {
		const row = snapshot.conversations.get(key);
		if (!row) {
			skipped.push({key, why: 'gone from the list'});
			continue;
		}
		const sandbox = String(row.conversation.sandbox_status ?? 'MISSING');
		if (sandbox !== 'RUNNING') skipped.push({key, why: `its sandbox is ${sandbox.toLowerCase()}: resume it first`});
		else if (row.agentStatus !== 'error') skipped.push({key, why: `no longer in error (${sanitizeLine(String(row.agentStatus ?? 'unknown'))})`});
		else if (!canRunAgain(causeOf(row))) skipped.push({key, why: 'its error is not retryable'});
		else conversationKeys.push(key);
	}
	return {remedy: 'run', conversationKeys, skipped};
}

export function planResume(snapshot: Snapshot, keys: readonly string[]): ResumeRemedy {
	const sandboxKeys: string[] = [];
	const skipped: ResumeRemedy['skipped'] = [];
	let conversations = 0;
	for (const key of keys) {
		const sandboxId = snapshot.conversations.get(key)?.conversation.sandbox_id;
		if (!sandboxId) {
			skipped.push({key, why: 'no sandbox'});
			continue;
		}
		const sandboxKey = sandboxKeyOf(snapshot.sandboxes, sandboxId);
		const row = snapshot.sandboxes.get(sandboxKey);
		const status = String(row?.sandbox.status ?? 'MISSING');
		if (!row || status !== 'PAUSED') skipped.push({key, why: `its sandbox is ${status.toLowerCase()}`});
		else if (row.pending && !row.pending.error) skipped.push({key, why: `its sandbox is already ${row.pending.kind}`});
		else {
			conversations++;
			if (!sandboxKeys.includes(sandboxKey)) sandboxKeys.push(sandboxKey);
		}
	}
	return {remedy: 'resume', sandboxKeys, conversations, skipped, plan: planResumes(snapshot.sandboxes, sandboxKeys, snapshot.runningSandboxCap)};
}

/** `sb-1a2b3c4d (2 conversations)`: a sandbox as the cap's words name it. */
function sandboxName(snapshot: Snapshot, key: string): string {
	const users = snapshot.sandboxes.get(key)?.conversationKeys.length ?? 0;
	return `${shortId(key)}${users > 0 ? ` (${users} conversation${users === 1 ? '' : 's'})` : ''}`;
}

/**
 * What the cap does to the plan, in words: nothing, or which sandboxes the service pauses and in
 * what order, and a warning when a later resume pauses one this plan resumed.
 */
export function capWords(snapshot: Snapshot, plan: ResumePlan): {text: string; warning: string | null} {
	const order = plan.paused.map((key) => sandboxName(snapshot, key));
	const undone = plan.undone.map((key) => shortId(key)).join(', ');
	const warning =
		plan.undone.length === 0
			? null
			: plan.certain
				? `⚠ ${undone} would be paused again by a later resume: at most ${plan.cap} sandboxes run at once`
				: `⚠ ${undone} may be paused again by a later resume, if the service is at its cap`;
	if (order.length === 0) return {text: plan.cap === null ? 'Nothing else runs: nothing is paused for them.' : `The cap of ${plan.cap} running sandboxes leaves room: nothing else is paused.`, warning};
	const text = plan.certain
		? `At the cap of ${plan.cap} running sandboxes the service pauses the oldest running ones, in this order: ${order.join(', then ')}.`
		: `The cap is not known: for each resume the service may pause its oldest running sandbox, in this order: ${order.join(', then ')}.`;
	return {text, warning};
}

/** One conversation as a run item names it. */
export function runItemName(snapshot: Snapshot, key: string): string {
	return `${key.slice(0, 8)}  ${shortTitle(snapshot, key)}`;
}

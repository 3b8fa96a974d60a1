import type {AppConversation} from '../wire/schemas/app.js';
import {normalizeId} from '../wire/ids.js';
import {NotFoundError} from '../wire/errors.js';
import type {RequestBudget} from './request-budget.js';

/**
 * Deleting conversations and their sandboxes (the dead group's `D`, `agent-tui delete`): a plan
 * made from what was listed (each conversation with the facts it was chosen on), shown to the
 * person, then carried out one server at a time:
 * 1. the plan's facts are read again just before acting, in one request (a batch read of the
 *    conversations), and any conversation that changed since (another status, a newer
 *    `updated_at`) or is gone is dropped: what is deleted is what was previewed, or less;
 * 2. each conversation is deleted (`DELETE /api/v1/app-conversations/{id}`), then each sandbox no
 *    conversation outside the plan uses (`DELETE /api/v1/sandboxes/{id}?sandbox_id={id}`); a 404
 *    for a sandbox is its being gone already (the service deletes an unshared one itself);
 * every request through the server's request budget, so a hundred deletes are paced like polls.
 */

export type DeleteTarget = {
	id: string;
	title: string | null;
	sandboxId: string | null;
	/** The facts it was chosen on, compared just before acting. */
	sandboxStatus: string | null;
	updatedAt: string | null;
};

export type DeletePlan = {
	targets: DeleteTarget[];
	/** Sandboxes of the targets that no other known conversation uses. */
	sandboxIds: string[];
};

export function deleteTarget(conversation: AppConversation): DeleteTarget {
	return {
		id: String(conversation.id),
		title: conversation.title ?? null,
		sandboxId: conversation.sandbox_id ? String(conversation.sandbox_id) : null,
		sandboxStatus: conversation.sandbox_status ? String(conversation.sandbox_status) : null,
		updatedAt: conversation.updated_at ? String(conversation.updated_at) : null,
	};
}

/** The plan for `chosen`, knowing `others` (every other conversation listed) so a shared sandbox is kept. */
export function planDelete(chosen: readonly AppConversation[], others: readonly AppConversation[]): DeletePlan {
	const targets = chosen.map(deleteTarget);
	const ids = new Set(targets.map((target) => normalizeId(target.id)));
	const kept = new Set(others.filter((other) => !ids.has(normalizeId(String(other.id)))).flatMap((other) => (other.sandbox_id ? [normalizeId(String(other.sandbox_id))] : [])));
	const sandboxIds: string[] = [];
	const seen = new Set<string>();
	for (const target of targets) {
		if (!target.sandboxId) continue;
		const key = normalizeId(target.sandboxId);
		if (kept.has(key) || seen.has(key)) continue;
		seen.add(key);
		sandboxIds.push(target.sandboxId);
	}
	return {targets, sandboxIds};
}

/** Whether a conversation read again is still what the plan was made on (null: gone). */
export function unchanged(target: DeleteTarget, fresh: AppConversation | null): boolean {
	if (!fresh) return false;
	return (fresh.sandbox_status ? String(fresh.sandbox_status) : null) === target.sandboxStatus && (fresh.updated_at ? String(fresh.updated_at) : null) === target.updatedAt;
}

export type DeleteClient = {
	getConversations(ids: readonly string[], call?: {signal?: AbortSignal}): Promise<Array<AppConversation | null>>;
	deleteConversation(id: string, call?: {signal?: AbortSignal}): Promise<unknown>;
	deleteSandbox(id: string, call?: {signal?: AbortSignal}): Promise<unknown>;
};

export type DeleteProgress =
	| {kind: 'dropped'; id: string; reason: 'changed' | 'gone'}
	| {kind: 'deleted'; id: string; what: 'conversation' | 'sandbox'}
	| {kind: 'failed'; id: string; what: 'conversation' | 'sandbox'; reason: string};

export type DeleteOutcome = {deleted: string[]; sandboxesDeleted: string[]; dropped: string[]; failed: string[]};

/** The batch read's limit (docs/service-behaviour.md §1.2: at most 99 ids). */
const maxIds = 99;

/** Carries out a plan on one server (see the top of this file). Never throws for one refused item. */
export async function runDeletePlan(
	client: DeleteClient,
	budget: Pick<RequestBudget, 'schedule'>,
	plan: DeletePlan,
	onProgress: (progress: DeleteProgress) => void = () => undefined,
): Promise<DeleteOutcome> {
	const outcome: DeleteOutcome = {deleted: [], sandboxesDeleted: [], dropped: [], failed: []};
	const fresh: Array<AppConversation | null> = [];
	for (let start = 0; start < plan.targets.length; start += maxIds) {
		const ids = plan.targets.slice(start, start + maxIds).map((target) => target.id);
		fresh.push(...(await budget.schedule('delete:reread', (signal) => client.getConversations(ids, {signal}), 'action')));
	}
	const keep = new Set<string>();
	plan.targets.forEach((target, index) => {
		const now = fresh[index] ?? null;
		if (unchanged(target, now)) keep.add(target.id);
		else {
			outcome.dropped.push(target.id);
			onProgress({kind: 'dropped', id: target.id, reason: now ? 'changed' : 'gone'});
		}
	});
	for (const target of plan.targets) {
		if (!keep.has(target.id)) continue;
		try {
			await budget.schedule(`delete:${target.id}`, (signal) => client.deleteConversation(target.id, {signal}), 'action');
			outcome.deleted.push(target.id);
			onProgress({kind: 'deleted', id: target.id, what: 'conversation'});
		} catch (error) {
			outcome.failed.push(target.id);
			onProgress({kind: 'failed', id: target.id, what: 'conversation', reason: messageOf(error)});
		}
	}
	// Only the sandboxes of conversations that were deleted: a dropped one keeps its sandbox.
	const deletedSandboxes = new Set(plan.targets.filter((target) => outcome.deleted.includes(target.id)).flatMap((target) => (target.sandboxId ? [normalizeId(target.sandboxId)] : [])));
	for (const sandboxId of plan.sandboxIds) {
		if (!deletedSandboxes.has(normalizeId(sandboxId))) continue;
		try {
			await budget.schedule(`delete-sandbox:${sandboxId}`, (signal) => client.deleteSandbox(sandboxId, {signal}), 'action');
			outcome.sandboxesDeleted.push(sandboxId);
			onProgress({kind: 'deleted', id: sandboxId, what: 'sandbox'});
		} catch (error) {
			// Already gone: the service deletes an unshared sandbox with its conversation.
			if (error instanceof NotFoundError) continue;
			onProgress({kind: 'failed', id: sandboxId, what: 'sandbox', reason: messageOf(error)});
		}
	}
	return outcome;
}

function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

import type {AppConversation} from '../wire/schemas/app.js';
import {normalizeId} from '../wire/ids.js';
import {NotFoundError} from '../wire/errors.js';
import {qualifyKey} from './server-keys.js';
import type {RequestBudget} from './request-budget.js';

/**
 * Deleting conversations and their sandboxes (the dead group's `D`, `agent-tui delete`): a plan
 * made from what was listed (each conversation with the facts it was chosen on), shown to the
 * person, then carried out one server at a time:
 * 1. the plan's facts are read again just before acting, in one request (a batch read of the
 *    conversations), and any conversation that changed since (another status, a newer
 *    `updated_at`) or is gone is dropped: what is deleted is what was previewed, or less;
 * 2. for each conversation, its sandbox when no conversation outside the plan uses it and it is
 *    not MISSING already (`DELETE /api/v1/sandboxes/{id}?sandbox_id={id}`; a 404 is its being
 *    gone already), then the conversation (`DELETE /api/v1/app-conversations/{id}`);
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
		// A MISSING sandbox is gone already (its runtime was cleaned up): nothing to delete, no request spent.
		if (!target.sandboxId || target.sandboxStatus?.toUpperCase() === 'MISSING') continue;
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

/** What became of one item; `key` is the dashboard row's key (qualified by server in the all-servers view), when the store knows it. */
export type DeleteProgress = (
	| {kind: 'dropped'; id: string; reason: 'changed' | 'gone'}
	| {kind: 'deleted'; id: string; what: 'conversation' | 'sandbox'}
	| {kind: 'failed'; id: string; what: 'conversation' | 'sandbox'; reason: string}
) & {key?: string};

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
	// Each sandbox first, then its conversation: the service would delete an unshared sandbox with
	// its conversation anyway, in the background; asked first, its answer is ours to report.
	const sandboxes = new Set(plan.sandboxIds.map((id) => normalizeId(id)));
	for (const target of plan.targets) {
		if (!keep.has(target.id)) continue;
		const sandboxId = target.sandboxId && sandboxes.delete(normalizeId(target.sandboxId)) ? target.sandboxId : null;
		if (sandboxId) {
			try {
				await budget.schedule(`delete-sandbox:${sandboxId}`, (signal) => client.deleteSandbox(sandboxId, {signal}), 'action');
				outcome.sandboxesDeleted.push(sandboxId);
				onProgress({kind: 'deleted', id: sandboxId, what: 'sandbox'});
			} catch (error) {
				// Gone already (a 404): the conversation is deleted all the same.
				if (!(error instanceof NotFoundError)) onProgress({kind: 'failed', id: sandboxId, what: 'sandbox', reason: messageOf(error)});
			}
		}
		try {
			await budget.schedule(`delete:${target.id}`, (signal) => client.deleteConversation(target.id, {signal}), 'action');
			outcome.deleted.push(target.id);
			onProgress({kind: 'deleted', id: target.id, what: 'conversation'});
		} catch (error) {
			outcome.failed.push(target.id);
			onProgress({kind: 'failed', id: target.id, what: 'conversation', reason: messageOf(error)});
		}
	}
	return outcome;
}

function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** The controller's delete (DashboardController.deleteConversations). */
export type DeleteConversations = (keys: readonly string[], onProgress?: (progress: DeleteProgress) => void) => Promise<DeleteOutcome>;

/**
 * One server's delete from the dashboard: the plan from the rows it lists (every other listed
 * conversation keeps a sandbox it shares), carried out within its budget, then a refresh so the
 * deleted rows leave the list as the server says they are gone.
 */
export function storeDelete(
	client: Partial<DeleteClient> & Pick<DeleteClient, 'getConversations'>,
	budget: Pick<RequestBudget, 'schedule'>,
	rows: () => ReadonlyMap<string, {conversation: AppConversation}>,
	refresh: () => void,
): DeleteConversations | undefined {
	const {deleteConversation, deleteSandbox} = client;
	if (!deleteConversation || !deleteSandbox) return undefined;
	return async (keys, onProgress) => {
		const all = rows();
		const chosen = keys.flatMap((key) => {
			const row = all.get(key);
			return row ? [row.conversation] : [];
		});
		const plan = planDelete(chosen, [...all.values()].map((row) => row.conversation));
		const calls: DeleteClient = {getConversations: (ids, call) => client.getConversations(ids, call), deleteConversation: (id, call) => deleteConversation.call(client, id, call), deleteSandbox: (id, call) => deleteSandbox.call(client, id, call)};
		// A conversation's row key is its normalised id (conversation-rows.ts conversationKey).
		const outcome = await runDeletePlan(calls, budget, plan, (progress) => onProgress?.('what' in progress && progress.what === 'sandbox' ? progress : {...progress, key: normalizeId(progress.id)}));
		refresh();
		return outcome;
	};
}

/** The all-servers view: each server's part, one server at a time (state/fleet-store.ts). */
export function fleetDelete(
	first: {deleteConversations?: DeleteConversations},
	grouped: (keys: readonly string[]) => Map<{name: string; controller: {deleteConversations?: DeleteConversations}}, string[]>,
): {deleteConversations?: DeleteConversations} {
	if (!first.deleteConversations) return {};
	return {
		deleteConversations: async (keys, onProgress) => {
			const total: DeleteOutcome = {deleted: [], sandboxesDeleted: [], dropped: [], failed: []};
			for (const [member, own] of grouped(keys)) {
				if (own.length === 0 || !member.controller.deleteConversations) continue;
				// One server at a time: each has its own budget, and a person reads the results server by server.
				const outcome = await member.controller.deleteConversations(own, (progress) => onProgress?.(progress.key === undefined ? progress : {...progress, key: qualifyKey(progress.key, member.name)}));
				for (const field of ['deleted', 'sandboxesDeleted', 'dropped', 'failed'] as const) total[field].push(...outcome[field]);
			}
			return total;
		},
	};
}

/** `{deleteConversations}` when the client can delete, else nothing (exactOptionalPropertyTypes). */
export function optionalDelete(run: DeleteConversations | undefined): {deleteConversations?: DeleteConversations} {
	return run ? {deleteConversations: run} : {};
}

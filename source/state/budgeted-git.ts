import type {GitProxy} from '../wire/conversation-git.js';
import type {Priority, RequestBudget} from './request-budget.js';

/**
 * The app server's git proxy with each request under the app server's request budget: the
 * proxy's routes are the app server's (`/app-conversations/{id}/git/…`, the bearer key), so they
 * count against the same limit as the list. Without this, the spend probes' git reads went around
 * the budget and drew 429s for everything else.
 */
export function budgetedGitProxy(proxy: GitProxy, budget: Pick<RequestBudget, 'schedule'>, priority: Priority): GitProxy {
	const signalOf = (own: AbortSignal, call?: {signal?: AbortSignal}) => (call?.signal ? AbortSignal.any([own, call.signal]) : own);
	return {
		gitChanges: (conversationId, path, call) => budget.schedule(`git-changes:${conversationId}:${path}`, (signal) => proxy.gitChanges(conversationId, path, {...call, signal: signalOf(signal, call)}), priority),
		gitDiff: (conversationId, path, call) => budget.schedule(`git-diff:${conversationId}:${path}`, (signal) => proxy.gitDiff(conversationId, path, {...call, signal: signalOf(signal, call)}), priority),
	};
}

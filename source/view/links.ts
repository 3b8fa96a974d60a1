import {sandboxKeyOf} from '../state/sandbox-rows.js';
import type {DashboardSnapshot} from '../state/dashboard-types.js';
import type {ExposedUrl} from '../wire/schemas/app.js';

/**
 * The links a person can open for a conversation: its sandbox's exposed URLs while it runs,
 * VS Code first, the agent server's own API left out (it is not a page). Stable by reference
 * while the sandbox row is, so the memoised preview does not redraw.
 */
const none: readonly ExposedUrl[] = [];
const cache = new WeakMap<object, readonly ExposedUrl[]>();

export function conversationLinks(snapshot: Pick<DashboardSnapshot, 'conversations' | 'sandboxes'>, key: string | null | undefined): readonly ExposedUrl[] {
	const sandboxId = key ? snapshot.conversations.get(key)?.conversation.sandbox_id : null;
	if (!sandboxId) return none;
	const sandbox = snapshot.sandboxes.get(sandboxKeyOf(snapshot.sandboxes, sandboxId))?.sandbox;
	if (!sandbox || String(sandbox.status) !== 'RUNNING' || !sandbox.exposed_urls) return none;
	const cached = cache.get(sandbox.exposed_urls);
	if (cached) return cached;
	const links = sandbox.exposed_urls.filter((link) => String(link.name) !== 'AGENT_SERVER').sort((a, b) => Number(String(b.name) === 'VSCODE') - Number(String(a.name) === 'VSCODE'));
	cache.set(sandbox.exposed_urls, links);
	return links;
}

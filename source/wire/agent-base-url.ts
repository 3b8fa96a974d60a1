/**
 * Where a conversation's agent server lives (docs/service-behaviour.md §2). The app server hands out
 * `conversation_url` = `<agent server base>/api/conversations/<id>`; the base is that URL minus
 * the `/api/conversations/...` tail, KEEPING any path prefix (proxied deployments serve agent
 * servers under e.g. `/runtime/55313`; the old web UI dropped it and broke there). A relative
 * URL (`/runtime/3/api/...`) is proxied through the app server's host.
 */

/**
 * Whether the conversation's agent server can be reached now: only a RUNNING sandbox exposes one,
 * and then the app server says where. Streaming, agent control, git changes and the trajectory
 * all need it; everything else reads the app server's stored copy or says to resume first.
 */
export function hasAgentServer(conversation: {sandbox_status?: string | null | undefined; conversation_url?: string | null | undefined}): boolean {
	return conversation.sandbox_status === 'RUNNING' && Boolean(conversation.conversation_url);
}

const conversationTail = /\/api\/conversations\/[^/]+\/*$/;

export function agentBaseUrl(conversationUrl: string, appBaseUrl: string): string {
	const trimmed = conversationUrl.trim();
	if (trimmed === '') throw new Error('the conversation has no agent server URL');
	let url: URL;
	try {
		url = new URL(trimmed, appBaseUrl);
	} catch {
		throw new Error(`the conversation's agent server URL is not a URL: ${trimmed.slice(0, 200)}`);
	}
	// The URL comes from a server; only ever follow it to http(s).
	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		throw new Error(`the conversation's agent server URL has an unsupported scheme (${url.protocol})`);
	}
	const path = url.pathname.replace(conversationTail, '').replace(/\/+$/, '');
	return `${url.origin}${path}`;
}

/** `ws(s)://<base>/sockets/events/<id>`: the event socket is NOT under `/api`. */
export function eventSocketUrl(agentBase: string, conversationId: string): string {
	const url = new URL(agentBase);
	const scheme = url.protocol === 'https:' ? 'wss:' : 'ws:';
	const path = url.pathname.replace(/\/+$/, '');
	return `${scheme}//${url.host}${path}/sockets/events/${encodeURIComponent(conversationId)}`;
}

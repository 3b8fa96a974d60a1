import {sanitizeLine} from './sanitize.js';

/**
 * Links a sandbox exposes (VS Code, the agent's served apps) as they may be shown: a token in the
 * query (`?tkn=…`), a key, or `user:password@` is replaced by `•••`, so a screen share or a
 * scrollback never gives the sandbox away. The full link leaves only when the user asks to copy it.
 */

export const hiddenMark = '•••';

/** Query parameter names whose values are credentials (lowercase; `-` and `_` alike). */
const secretParams = /^(tkn|token|key|code|auth|sig|signature|password|passwd|secret|session|session_api_key|api_key|apikey|access_token|id_token|refresh_token|x_session_api_key)$/;
const secretWords = /token|secret|passw|api_?key|session/;

export function isSecretParam(name: string): boolean {
	const normalized = name.toLowerCase().replaceAll('-', '_');
	return secretParams.test(normalized) || secretWords.test(normalized);
}

/** The link with credentials hidden, sanitized for the screen. An unparsable one is not shown. */
export function maskedLink(url: string, secrets: readonly string[] = []): string {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return '(a link that is not a valid URL)';
	}
	// Built by hand: URL's own serialiser would percent-encode the mark.
	const auth = parsed.username || parsed.password ? `${hiddenMark}@` : '';
	const query = [...parsed.searchParams.entries()].map(([name, value]) => `${encodeURIComponent(name)}=${isSecretParam(name) ? hiddenMark : encodeURIComponent(value)}`).join('&');
	let text = `${parsed.protocol}//${auth}${parsed.host}${parsed.pathname}${query ? `?${query}` : ''}${parsed.hash ? `#${hiddenMark}` : ''}`;
	// A known key anywhere else (a path segment) goes too.
	for (const secret of secrets) if (secret.length >= 4) text = text.replaceAll(secret, hiddenMark);
	return sanitizeLine(text);
}

/** Whether the link carries something `maskedLink` hides. */
export function linkHasSecret(url: string): boolean {
	try {
		const parsed = new URL(url);
		return Boolean(parsed.username || parsed.password || parsed.hash) || [...parsed.searchParams.keys()].some(isSecretParam);
	} catch {
		return false;
	}
}

/** A person's name for an exposed URL: `VS Code`, `app :12000`. */
export function linkName(name: string, port: number | null | undefined): string {
	if (name === 'VSCODE') return 'VS Code';
	if (name === 'AGENT_SERVER') return 'agent server';
	return port ? `app :${port}` : sanitizeLine(name.toLowerCase());
}

import {linkWithoutCredentials} from '../wire/link-credentials.js';
import {replaceKnownSecrets} from './redact.js';
import {sanitizeLine} from './sanitize.js';

export {isSecretParam, linkHasSecret} from '../wire/link-credentials.js';

/**
 * Links a sandbox exposes (VS Code, the agent's served apps) as they may be shown: a token in the
 * query (`?tkn=…`), a key, or `user:password@` is replaced by `•••`, so a screen share or a
 * scrollback never gives the sandbox away. The full link leaves only when the user asks to copy it.
 */

export const hiddenMark = '•••';

/** The link with credentials hidden, sanitized for the screen. An unparsable one is not shown. */
export function maskedLink(url: string, secrets: readonly string[] = []): string {
	const text = linkWithoutCredentials(url, hiddenMark);
	if (text === null) return '(a link that is not a valid URL)';
	// A known key anywhere else (a path segment) goes too.
	return sanitizeLine(replaceKnownSecrets(text, secrets.filter((secret) => secret.length >= 4), hiddenMark));
}

/** A person's name for an exposed URL: `VS Code`, `app :12000`. */
export function linkName(name: string, port: number | null | undefined): string {
	if (name === 'VSCODE') return 'VS Code';
	if (name === 'AGENT_SERVER') return 'agent server';
	return port ? `app :${port}` : sanitizeLine(name.toLowerCase());
}

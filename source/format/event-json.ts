import {redactSecrets} from './redact.js';

/**
 * An event as JSON for a person to read in a pager: indented, with `encrypted_content` (the
 * model's encrypted reasoning) left out at any depth and credential-shaped values redacted, as
 * everywhere else text from the network leaves the program. Not sanitized here: the pager's caller does.
 */
export function eventJson(event: unknown, secrets: readonly string[] = []): string {
	const text = JSON.stringify(event, (key, value: unknown) => (key === 'encrypted_content' ? undefined : value), 2) ?? 'null';
	return `${redactSecrets(text, secrets)}\n`;
}

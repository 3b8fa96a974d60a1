/**
 * One pass over every error message and log line before it is shown or written: exact secret
 * values we hold, and anything shaped like a credential. client-go logged Authorization headers
 * twice (CVE-2019-11250, CVE-2020-8565) and axios kept headers inside error objects (#6919), so
 * the rule is to redact at the last step whatever the message came from
 * (docs/security-checklist.md §4). `encrypted_content` (the model's encrypted reasoning) is not a
 * credential but is never shown either.
 */

export const redactedMark = '[redacted]';

/** Keys whose values are secrets, in headers, query strings, JSON, Python reprs and env dumps (`tkn`: VS Code's link token). */
const secretKeys = ['x-session-api-key', 'session_api_key', 'x-api-key', 'api_key', 'apikey', 'encrypted_content', 'openhands_api_key', 'tkn'];
const keyAlternation = secretKeys.map((key) => key.replaceAll('-', '[-_]')).join('|');

/**
 * A capitalised word of prose after a colon is not a value: `profiles.work.apiKey: Invalid input:
 * expected string` is a message about the field, and hiding its words hides what is wrong.
 */
function unquotedValue(match: string, key: string, value: string, space: string): string {
	if (key.trimEnd().endsWith(':') && space !== '' && /^[A-Z][a-z]+$/.test(value)) return match;
	return `${key}${redactedMark}${space}`;
}

const patterns: ReadonlyArray<readonly [RegExp, string | ((match: string, ...groups: string[]) => string)]> = [
	// Authorization schemes: `Bearer abc.def`, `Authorization: Basic dXNlcjpw`.
	[/\b(Bearer\s+)[\w\-.~+/]+=*/gi, `$1${redactedMark}`],
	[/\b(Authorization["']?\s*[:=]\s*["']?(?:Basic|Token|Digest)\s+)[\w\-.~+/]+=*/gi, `$1${redactedMark}`],
	// Quoted key and value, either quote style: `"session_api_key": "v"`, `'X-Session-API-Key': 'v'`.
	[new RegExp(String.raw`((["'])(?:${keyAlternation})\2\s*:\s*)(["'])(?:\\.|(?!\3)[^\\])*\3`, 'gi'), `$1$3${redactedMark}$3`],
	// A quoted key whose string never ends (a truncated body): everything up to a quote or space.
	[new RegExp(String.raw`((["'])(?:${keyAlternation})\2\s*:\s*["'])(?!\[redacted\])[^"'\s]+`, 'gi'), `$1${redactedMark}`],
	// Unquoted: `X-Session-API-Key: v`, `session_api_key=v` (a query string), `API_KEY=v`.
	[new RegExp(String.raw`(\b(?:${keyAlternation})\s*[:=]\s*)(?!\[redacted\])([^\s"'&,;}\]]+)(\s?)`, 'gi'), unquotedValue],
	// Credentials in a URL: `https://user:password@host`.
	[/(\/\/[^/\s:@]+:)[^@\s/]+@/g, `$1${redactedMark}@`],
];

/**
 * `text` with each of `secrets` (also in its URL-encoded form) and each credential-shaped value
 * replaced by `[redacted]`. Empty secrets are ignored.
 */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
	let out = replaceKnownSecrets(text, secrets);
	for (const [pattern, replacement] of patterns) out = typeof replacement === 'string' ? out.replace(pattern, replacement) : out.replace(pattern, replacement as (match: string, ...groups: string[]) => string);
	return out;
}

/**
 * `text` with each of `secrets` (and its URL-encoded form) replaced by `mark`, longest first, and
 * nothing else touched: for text that must stay as it is otherwise (a patch, a link).
 */
export function replaceKnownSecrets(text: string, secrets: readonly string[], mark = redactedMark): string {
	let out = text;
	for (const secret of expand(secrets)) out = out.replace(wholeToken(secret), () => mark);
	return out;
}

/**
 * Shorter values are not looked for: a key `x` (a placeholder, a test) turned "expected" into
 * "e[redacted]pected". No real credential is this short; credential-shaped values are still
 * redacted by the patterns above whatever their length.
 */
export const minSecretLength = 8;

/** `secret` where it stands as a whole token: not inside a longer run of letters and digits. */
function wholeToken(secret: string): RegExp {
	const escaped = secret.replace(/[.*+?^${}()|[\]\\]/g, String.raw`\$&`);
	return new RegExp(String.raw`(?<![\p{L}\p{N}])${escaped}(?![\p{L}\p{N}])`, 'gu');
}

/** Secrets long enough to be real, plus their URL-encoded forms, longest first so a secret that contains another goes first. */
function expand(secrets: readonly string[]): string[] {
	const all = new Set<string>();
	for (const secret of secrets) {
		if (secret.length < minSecretLength) continue;
		all.add(secret);
		all.add(encodeURIComponent(secret));
	}

	return [...all].sort((a, b) => b.length - a.length);
}

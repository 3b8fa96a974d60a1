/**
 * Which parts of a link are credentials: the user part, the fragment, and query values whose
 * names say token, key, secret, password or session (`tkn` is VS Code's). Plain string work, so
 * the wire's SecretLink (JSON, logs) and the screen's masked link hide exactly the same parts.
 */

/** Query parameter names whose values are credentials (lowercase; `-` and `_` alike). */
const secretParams = /^(tkn|token|key|code|auth|sig|signature|password|passwd|secret|session|session_api_key|api_key|apikey|access_token|id_token|refresh_token|x_session_api_key)$/;
const secretWords = /token|secret|passw|api_?key|session/;

export function isSecretParam(name: string): boolean {
	const normalized = name.toLowerCase().replaceAll('-', '_');
	return secretParams.test(normalized) || secretWords.test(normalized);
}

/** The link with each credential replaced by `mark`; null when it is not a valid URL. */
export function linkWithoutCredentials(url: string, mark: string): string | null {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return null;
	}
	// Built by hand: URL's own serialiser would percent-encode the mark.
	const auth = parsed.username || parsed.password ? `${mark}@` : '';
	const query = [...parsed.searchParams.entries()].map(([name, value]) => `${encodeURIComponent(name)}=${isSecretParam(name) ? mark : encodeURIComponent(value)}`).join('&');
	return `${parsed.protocol}//${auth}${parsed.host}${parsed.pathname}${query ? `?${query}` : ''}${parsed.hash ? `#${mark}` : ''}`;
}

/** Whether the link carries something `linkWithoutCredentials` hides. */
export function linkHasSecret(url: string): boolean {
	try {
		const parsed = new URL(url);
		return Boolean(parsed.username || parsed.password || parsed.hash) || [...parsed.searchParams.keys()].some(isSecretParam);
	} catch {
		return false;
	}
}

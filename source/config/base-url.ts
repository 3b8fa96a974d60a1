import {ConfigError} from './errors.js';

/**
 * The app server's base URL as given by a person: `https://app.all-hands.dev`, with or without a
 * trailing slash, sometimes with the `/api/v1` that the clients add themselves (kept once, not
 * twice). A path prefix such as `/openhands` for a proxied deployment is kept.
 */
export function normalizeBaseUrl(text: string, from: string): string {
	let url: URL;
	// `localhost:3000` parses as a URL whose scheme is `localhost:`: a host and port without a scheme.
	const schemeless = /^(?![a-z][a-z\d+.-]*:\/\/)[\w.-]+:\d+(?:\/.*)?$/i.test(text.trim());
	if (schemeless) throw new ConfigError(`${from}: "${text.trim()}" has no scheme; add http:// or https:// (e.g. http://${text.trim()})`);
	try {
		url = new URL(text.trim());
	} catch {
		throw new ConfigError(`${from}: "${text}" is not a URL (expected e.g. https://app.all-hands.dev)`);
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		throw new ConfigError(`${from}: only http and https URLs are supported, not ${url.protocol}`);
	}
	if (url.username || url.password) {
		// A password in the URL would end up in every error message that names the server.
		throw new ConfigError(`${from}: the URL must not contain a user name or password; use the API key settings`);
	}
	const path = url.pathname.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
	return `${url.origin}${path}`;
}

/** Host (and prefix) for headers and messages: never the query, never credentials. */
export function serverLabel(baseUrl: string, profile: string | null): string {
	const url = new URL(baseUrl);
	const where = url.host + url.pathname.replace(/\/+$/, '');
	return profile ? `${profile} (${where})` : where;
}

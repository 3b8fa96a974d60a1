import {type PluginSpec, pluginSpecSchema} from './schemas/create-request.js';

/**
 * Launch links: `{app_url}/launch?plugins=<base64 JSON array>&message=<text>`, the form plugin
 * READMEs put behind "Try it" badges. Decoding is strict and every failure names what is wrong,
 * because a link is untrusted input that ends up loading code into a sandbox holding the
 * conversation's secrets: the form shows what was decoded and asks for trust before starting.
 */

export type LaunchLink = {
	/** The link as found in the pasted text. */
	url: string;
	/** `https://host` when the link had one; null for a bare `/launch?…` path. */
	origin: string | null;
	plugins: PluginSpec[];
	/** The `message` parameter, URL-decoded; null when absent or empty. */
	message: string | null;
};

export type LaunchLinkResult = {ok: true; link: LaunchLink} | {ok: false; error: string};

/** A pasted link longer than this is refused before any decoding (badges are a few hundred bytes). */
export const maxLaunchLinkLength = 64 * 1024;
/** More plugins than this in one link is not something a person can review. */
export const maxLaunchPlugins = 32;

const linkPattern = /(?:https?:\/\/[^\s/?#]+)?\/launch\/?\?[^\s]*/i;

/** The first launch link inside `text` (a paste may carry words around it), or null. */
export function findLaunchLink(text: string): string | null {
	const match = linkPattern.exec(text);
	if (!match) return null;
	// Markdown badges wrap the link in `(…)`; a trailing `)` or quote is never part of base64 or a message.
	const url = match[0].replace(/[)\]"'>]+$/, '');
	return /[?&]plugins=/.test(url) ? url : null;
}

/**
 * Standard or URL-safe base64, with or without padding. `URLSearchParams` has already turned a
 * `+` into a space, so spaces are read back as `+` (base64 never contains spaces).
 */
export function decodeBase64Text(encoded: string): {ok: true; text: string} | {ok: false; error: string} {
	const normalized = encoded.trim().replaceAll(' ', '+').replaceAll('-', '+').replaceAll('_', '/').replace(/=+$/, '');
	if (normalized.length === 0) return {ok: false, error: 'the plugins parameter is empty'};
	if (!/^[A-Za-z0-9+/]+$/.test(normalized)) {
		const bad = /[^A-Za-z0-9+/]/.exec(normalized)?.[0] ?? '?';
		return {ok: false, error: `the plugins parameter is not base64 (unexpected ${JSON.stringify(bad)})`};
	}
	if (normalized.length % 4 === 1) return {ok: false, error: 'the plugins parameter is cut short (base64 length is invalid)'};
	const bytes = Buffer.from(normalized, 'base64');
	try {
		return {ok: true, text: new TextDecoder('utf-8', {fatal: true}).decode(bytes)};
	} catch {
		return {ok: false, error: 'the plugins parameter does not decode to UTF-8 text'};
	}
}

/** Empty or null optional fields mean "not given" (plugin generators write `"ref": null`). */
function withoutEmptyOptionals(entry: unknown): unknown {
	if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return entry;
	const copy: Record<string, unknown> = {...(entry as Record<string, unknown>)};
	for (const key of ['ref', 'repo_path', 'parameters'] as const) {
		if (copy[key] === null || copy[key] === '') delete copy[key];
	}
	return copy;
}

/** Decodes and validates the `plugins` parameter value. */
export function decodePluginsParam(value: string): {ok: true; plugins: PluginSpec[]} | {ok: false; error: string} {
	const decoded = decodeBase64Text(value);
	if (!decoded.ok) return decoded;
	let parsed: unknown;
	try {
		parsed = JSON.parse(decoded.text);
	} catch {
		return {ok: false, error: 'the plugins parameter is not JSON after base64 decoding'};
	}
	// A single object is accepted as a one-element list; generators differ on this.
	const list = Array.isArray(parsed) ? parsed : parsed !== null && typeof parsed === 'object' ? [parsed] : null;
	if (!list) return {ok: false, error: 'the plugins parameter must be a JSON array of plugins'};
	if (list.length === 0) return {ok: false, error: 'the link lists no plugins'};
	if (list.length > maxLaunchPlugins) return {ok: false, error: `the link lists ${list.length} plugins (at most ${maxLaunchPlugins})`};
	const plugins: PluginSpec[] = [];
	for (const [index, entry] of list.entries()) {
		const result = pluginSpecSchema.safeParse(withoutEmptyOptionals(entry));
		if (!result.success) {
			const issue = result.error.issues[0];
			const where = issue?.path.length ? issue.path.join('.') : 'entry';
			return {ok: false, error: `plugin ${index + 1}: ${where}: ${issue?.message ?? 'invalid'}`};
		}
		plugins.push(result.data);
	}
	return {ok: true, plugins};
}

/** Finds and decodes a launch link in `text`. */
export function parseLaunchLink(text: string): LaunchLinkResult {
	if (text.length > maxLaunchLinkLength) return {ok: false, error: `the link is too long (over ${maxLaunchLinkLength / 1024} KiB)`};
	const url = findLaunchLink(text);
	if (!url) return {ok: false, error: 'no launch link found (expected …/launch?plugins=<base64>)'};
	const query = url.slice(url.indexOf('?') + 1).split('#')[0] ?? '';
	const params = new URLSearchParams(query);
	const pluginsParam = params.get('plugins');
	if (pluginsParam === null) return {ok: false, error: 'the link has no plugins parameter'};
	const plugins = decodePluginsParam(pluginsParam);
	if (!plugins.ok) return plugins;
	const origin = /^https?:\/\/[^\s/?#]+/i.exec(url)?.[0] ?? null;
	const message = params.get('message');
	return {ok: true, link: {url, origin, plugins: plugins.plugins, message: message ? message : null}};
}

/** Builds a launch link; the inverse of parseLaunchLink (used by tests and for sharing a form). */
export function buildLaunchLink(origin: string, plugins: readonly PluginSpec[], message?: string): string {
	const encoded = Buffer.from(JSON.stringify(plugins), 'utf8').toString('base64');
	const query = new URLSearchParams({plugins: encoded});
	if (message) query.set('message', message);
	return `${origin.replace(/\/+$/, '')}/launch?${query.toString()}`;
}

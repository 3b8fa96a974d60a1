import {serverLabel} from './base-url.js';
import {loadConfigFile} from './config-file.js';
import type {Warn} from './file-permissions.js';
import {configFilePath} from './paths.js';
import {resolveConfig, type ResolvedConfig} from './resolve.js';
import type {Secret} from '../wire/secret.js';

/**
 * The config file's profiles for switching inside the dashboard: names and where they point,
 * never a key. Switching resolves the chosen profile as `--profile NAME` would, with the
 * environment's server and key left out (they chose the first server, not this one).
 */

export type ProfileEntry = {name: string; label: string};

export function listProfiles(env: NodeJS.ProcessEnv, warn: Warn): ProfileEntry[] {
	const file = loadConfigFile(configFilePath(env), warn);
	return Object.entries(file?.profiles ?? {}).map(([name, profile]) => {
		let label = 'no baseUrl';
		try {
			if (profile.baseUrl) label = serverLabel(profile.baseUrl, null);
		} catch {
			label = 'invalid baseUrl';
		}
		return {name, label};
	});
}

export async function resolveProfile(name: string, env: NodeJS.ProcessEnv, warn: Warn): Promise<ResolvedConfig> {
	const {OPENHANDS_BASE_URL: _url, OPENHANDS_API_KEY: _key, ...rest} = env;
	return resolveConfig({profile: name}, {env: rest, warn});
}

/**
 * Whether two profiles reach the same account: the same server (base URLs are normalised when
 * resolved) with the same key. Every profile at once opens such a pair once: twice would list
 * each conversation twice and spend the account's one request budget twice over.
 */
export function sameAccount(a: {baseUrl: string; apiKey: Secret | null}, b: {baseUrl: string; apiKey: Secret | null}): boolean {
	return a.baseUrl === b.baseUrl && (a.apiKey?.reveal() ?? '') === (b.apiKey?.reveal() ?? '');
}

import {serverLabel} from './base-url.js';
import {loadConfigFile} from './config-file.js';
import type {Warn} from './file-permissions.js';
import {configFilePath} from './paths.js';
import {resolveConfig, type ResolvedConfig} from './resolve.js';

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

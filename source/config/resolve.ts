import type {Secret} from '../wire/secret.js';
import {apiKeyFlagRefusal, cleanKey, keyEnvName, readKeyFile, readKeyFromStdin, takeKeyFromEnv} from './api-key.js';
import {normalizeBaseUrl, serverLabel} from './base-url.js';
import {loadConfigFile, selectProfile, type ConfigFile} from './config-file.js';
import {ConfigError} from './errors.js';
import type {Warn} from './file-permissions.js';
import {configFilePath, expandPath} from './paths.js';

/**
 * Which server to talk to and with which key: flags > environment > config file (named profiles
 * under $XDG_CONFIG_HOME/agent-tui/, mode 0600). With no server anywhere, the embedded simulator (DEMO).
 */

export const baseUrlEnvName = 'OPENHANDS_BASE_URL';

export type ConfigFlags = {
	baseUrl?: string | undefined;
	profile?: string | undefined;
	demo?: boolean | undefined;
	/** Only here to be refused: a key as a flag value leaks into history and `ps`. */
	apiKey?: string | undefined;
	apiKeyFile?: string | undefined;
	apiKeyStdin?: boolean | undefined;
};

export type Origin = 'flag' | 'env' | 'config';

export type ResolvedConfig =
	| {
			kind: 'server';
			baseUrl: string;
			apiKey: Secret | null;
			/** Shown in the header and in messages: profile and host, never a key. */
			label: string;
			baseUrlFrom: Origin;
			apiKeyFrom: Origin | null;
			/** Where the key came from, in words for a "key rejected" message (`OPENHANDS_API_KEY`, `apiKey of profile "work" in …`). */
			apiKeySource?: string | null;
			/** The config file profile in use, if any. */
			profile?: string | null;
	  }
	| {kind: 'demo'; reason: 'flag' | 'unconfigured'};

export type ResolveDeps = {
	/** Read and modified: OPENHANDS_API_KEY is deleted from it. */
	env: NodeJS.ProcessEnv;
	warn: Warn;
	readStdinKey?: () => Promise<Secret>;
};

function nonEmpty(value: string | undefined): string | undefined {
	return value && value.trim() !== '' ? value : undefined;
}

export async function resolveConfig(flags: ConfigFlags, deps: ResolveDeps): Promise<ResolvedConfig> {
	const {env, warn} = deps;
	// First, before anything can fail: the key must leave the environment on every path.
	const envKey = takeKeyFromEnv(env);

	if (flags.apiKey !== undefined) throw new ConfigError(apiKeyFlagRefusal);
	if (flags.apiKeyFile !== undefined && flags.apiKeyStdin) {
		throw new ConfigError('use either --api-key-file or --api-key-stdin, not both');
	}
	if (flags.demo) {
		if (flags.baseUrl !== undefined) throw new ConfigError('--demo runs the embedded simulator; it cannot be combined with --base-url');
		return {kind: 'demo', reason: 'flag'};
	}

	// Flag keys are read first so a bad file is reported even when a server is missing.
	let key: Secret | null = null;
	let keyFrom: Origin | null = null;
	let keySource: string | null = null;
	if (flags.apiKeyFile !== undefined) {
		key = readKeyFile(expandPath(flags.apiKeyFile, process.cwd(), env), warn);
		keyFrom = 'flag';
		keySource = `--api-key-file ${flags.apiKeyFile}`;
	} else if (flags.apiKeyStdin) {
		key = await (deps.readStdinKey ?? (() => readKeyFromStdin()))();
		keyFrom = 'flag';
		keySource = '--api-key-stdin';
	} else if (envKey) {
		key = envKey;
		keyFrom = 'env';
		keySource = keyEnvName;
	}

	let baseUrl: string | undefined;
	let baseUrlFrom: Origin = 'flag';
	if (flags.baseUrl !== undefined) baseUrl = normalizeBaseUrl(flags.baseUrl, '--base-url');
	else if (nonEmpty(env[baseUrlEnvName])) {
		baseUrl = normalizeBaseUrl(env[baseUrlEnvName]!, baseUrlEnvName);
		baseUrlFrom = 'env';
	}

	// The file is read only when it can contribute, so a broken file never blocks an explicit setup.
	let profileName: string | null = null;
	if (flags.profile !== undefined || baseUrl === undefined || key === null) {
		const file: ConfigFile | null = loadConfigFile(configFilePath(env), warn);
		const selected = selectProfile(file, flags.profile);
		profileName = selected.name;
		const {profile} = selected;
		const profileUrl = profile.baseUrl === undefined ? undefined : normalizeBaseUrl(profile.baseUrl, `${file?.path ?? 'config'}: baseUrl`);
		if (baseUrl === undefined && profileUrl !== undefined) {
			baseUrl = profileUrl;
			baseUrlFrom = 'config';
		}
		if (key === null && (profile.apiKey !== undefined || profile.apiKeyFile !== undefined)) {
			if (profile.apiKey !== undefined && profile.apiKeyFile !== undefined) {
				throw new ConfigError(`${file?.path ?? 'config'}: set either apiKey or apiKeyFile${profileName ? ` in profile "${profileName}"` : ''}, not both`);
			}
			// A profile's key belongs to the profile's server: never send it to a URL given elsewhere.
			if (profileUrl !== undefined && baseUrl !== profileUrl) {
				warn(`not sending the key of ${profileName ? `profile "${profileName}"` : 'the config file'} (for ${profileUrl}) to ${baseUrl}`);
			} else {
				key =
					profile.apiKeyFile !== undefined
						? readKeyFile(expandPath(profile.apiKeyFile, file?.dir ?? process.cwd(), env), warn)
						: cleanKey(profile.apiKey ?? '', `apiKey in ${file?.path ?? 'the config file'}`);
				keyFrom = 'config';
				const owner = profileName ? `profile "${profileName}"` : 'the top level';
				keySource = `${profile.apiKeyFile !== undefined ? `apiKeyFile (${profile.apiKeyFile})` : 'apiKey'} of ${owner} in ${file?.path ?? 'the config file'}`;
			}
		}
	}

	if (baseUrl === undefined) {
		if (key !== null) {
			// A key with nowhere to go is a mistake; running the demo instead would mislead a script.
			const from = keyFrom === 'env' ? keyEnvName : keyFrom === 'flag' ? 'the API key flag' : 'the config file';
			throw new ConfigError(`an API key is set (${from}) but no server: set ${baseUrlEnvName} or pass --base-url URL`);
		}
		return {kind: 'demo', reason: 'unconfigured'};
	}

	return {kind: 'server', baseUrl, apiKey: key, label: serverLabel(baseUrl, profileName), baseUrlFrom, apiKeyFrom: keyFrom, apiKeySource: keySource, profile: profileName};
}

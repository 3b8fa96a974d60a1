import {readFileSync} from 'node:fs';
import {dirname} from 'node:path';
import {z} from 'zod';
import {builtOnce} from '../wire/schemas/built-once.js';
import {describeIssues} from '../wire/schemas/common.js';
import {ConfigError} from './errors.js';
import {warnIfShared, type Warn} from './file-permissions.js';

/**
 * `config.json`:
 *   {"defaultProfile": "work",
 *    "profiles": {"work": {"baseUrl": "https://…", "apiKeyFile": "~/.secrets/openhands"}}}
 * Top-level `baseUrl` / `apiKey` / `apiKeyFile` are allowed too: they are the settings used when
 * no profile is chosen (a one-server setup needs no profile). `dashboard` holds the defaults of
 * the dashboard's own flags (`{"quietAfter": "10m", "repeatThreshold": 4, "alerts": true,
 * "alertCommand": "ntfy publish agents"}`), where
 * a flag on the command line wins, and the warning thresholds (`"costWarnUsd": [5, 20]`,
 * `"contextWarn": [0.7, 0.9]`). Unknown keys are rejected, because a misspelt `apikeyFile`
 * silently ignored is a support ticket.
 */

// The schemas are built when a config file is read, not at load: most runs have none (built-once.ts).
const profileSchema = builtOnce(() =>
	z.strictObject({
		baseUrl: z.string().min(1).optional(),
		apiKey: z.string().min(1).optional(),
		apiKeyFile: z.string().min(1).optional(),
	}),
);
export type Profile = z.infer<ReturnType<typeof profileSchema>>;

function ascendingPair(value: z.ZodNumber) {
	return z.tuple([value, value]).refine(([low, high]) => low <= high, 'two numbers, the yellow one first, e.g. [5, 20]');
}

const dashboardSchema = builtOnce(() =>
	z.strictObject({
		quietAfter: z.string().regex(/^\s*\d+(?:\.\d+)?\s*(?:ms|s|m|h)?\s*$/, 'a duration such as 90s, 10m or 1h').optional(),
		repeatThreshold: z.number().int().min(2).optional(),
		spendAfter: z.string().regex(/^\s*\d+(?:\.\d+)?\s*(?:ms|s|m|h)?\s*$/, 'a duration such as 90s, 10m or 1h').optional(),
		/** ERROR/MISSING conversations unchanged this long are dead (`7d`). */
		deadAfter: z.string().regex(/^\s*\d+(?:\.\d+)?\s*(?:ms|s|m|h|d)?\s*$/, 'a duration such as 12h or 7d').optional(),
		/** A sandbox STARTING this long is a cause (`10m`). */
		startingAfter: z.string().regex(/^\s*\d+(?:\.\d+)?\s*(?:ms|s|m|h|d)?\s*$/, 'a duration such as 10m or 1h').optional(),
		alerts: z.boolean().optional(),
		/** Run for each alert with the alert as JSON on stdin. */
		alertCommand: z.string().min(1).optional(),
		alertProtocol: z.enum(['osc9', 'osc777', 'osc99', 'bell']).optional(),
		/** Cost in USD from which the cost cell turns yellow, then red. */
		costWarnUsd: ascendingPair(z.number().nonnegative()).optional(),
		/** Share of the context window used from which the context cell turns yellow, then red. */
		contextWarn: ascendingPair(z.number().min(0).max(1)).optional(),
	}),
);
export type DashboardDefaults = z.infer<ReturnType<typeof dashboardSchema>>;

const configSchema = builtOnce(() =>
	z.strictObject({
		...profileSchema().shape,
		defaultProfile: z.string().min(1).optional(),
		profiles: z.record(z.string(), profileSchema()).optional(),
		dashboard: dashboardSchema().optional(),
		/** Your own keys: action (or `place.action`) to one key or several (config/key-config.ts). */
		keys: z.record(z.string(), z.union([z.string().min(1), z.array(z.string().min(1)).min(1)])).optional(),
	}),
);
export type ConfigFile = z.infer<ReturnType<typeof configSchema>> & {path: string; dir: string};

function holdsKey(config: z.infer<ReturnType<typeof configSchema>>): boolean {
	return Boolean(config.apiKey) || Object.values(config.profiles ?? {}).some((profile) => Boolean(profile.apiKey));
}

/** The parsed file, or null when there is none. A broken file is an error, never ignored. */
export function loadConfigFile(path: string, warn: Warn): ConfigFile | null {
	let text: string;
	try {
		text = readFileSync(path, 'utf8');
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
		throw new ConfigError(`cannot read the config file ${path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
	}
	let raw: unknown;
	try {
		raw = JSON.parse(text);
	} catch {
		// The parser's message quotes the text around the error, which may be a key: not shown.
		throw new ConfigError(`the config file ${path} is not valid JSON`);
	}
	const result = configSchema().safeParse(raw);
	if (!result.success) throw new ConfigError(`the config file ${path} is invalid: ${describeIssues(result.error)}`);
	// Only a file that holds a key is sensitive; a base URL in a 0644 file is nobody's business.
	if (holdsKey(result.data)) warnIfShared(path, 'the config file', warn);
	return {...result.data, path, dir: dirname(path)};
}

/**
 * The `dashboard` defaults of the config file at `path` ({} without a file). Read only when the
 * dashboard starts; a broken file is reported, not fatal here, since the server and key may have
 * come from elsewhere (resolveConfig reports it when it needs the file).
 */
export function dashboardDefaults(path: string, warn: Warn): DashboardDefaults {
	try {
		return loadConfigFile(path, warn)?.dashboard ?? {};
	} catch (error) {
		if (!(error instanceof ConfigError)) throw error;
		warn(`${error.message}; the dashboard starts with its built-in defaults`);
		return {};
	}
}

/**
 * The profile in force: `--profile NAME`, else `defaultProfile`, else the top-level settings.
 * Naming a profile that does not exist is an error (a typo must not fall back to another server).
 */
export function selectProfile(config: ConfigFile | null, requested: string | undefined): {name: string | null; profile: Profile} {
	const name = requested ?? config?.defaultProfile;
	if (name === undefined) {
		return {name: null, profile: {baseUrl: config?.baseUrl, apiKey: config?.apiKey, apiKeyFile: config?.apiKeyFile}};
	}
	const profile = config?.profiles?.[name];
	if (!profile || !Object.hasOwn(config?.profiles ?? {}, name)) {
		const known = Object.keys(config?.profiles ?? {});
		const where = config ? config.path : 'the config file (there is none)';
		const choices = known.length > 0 ? `; known profiles: ${known.join(', ')}` : '';
		const origin = requested === undefined ? ' (defaultProfile)' : '';
		throw new ConfigError(`profile "${name}"${origin} is not defined in ${where}${choices}`);
	}
	return {name, profile};
}

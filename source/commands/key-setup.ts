import {keyEntryError, readKeyEntries} from '../config/key-config.js';
import {configFilePath} from '../config/paths.js';
import type {Binding} from '../view/keymap.js';

/**
 * The keymap with the config file's `keys` applied, or the error that names the entry's line (a
 * ConfigError: exit 2, before anything is drawn). Null when the file remaps nothing, so a
 * dashboard without `keys` loads nothing more than before.
 */
export async function configuredKeymap(env: NodeJS.ProcessEnv = process.env): Promise<readonly Binding[] | null> {
	// The file's permissions were judged when the server settings were read: no second warning.
	const {path, entries} = readKeyEntries(configFilePath(env), () => undefined);
	if (entries.length === 0) return null;
	const {remapKeymap} = await import('../view/key-remap.js');
	const result = remapKeymap(entries);
	if (!result.ok) throw keyEntryError(path, result.problem, result.problem.message);
	return result.table;
}

/** Puts the config file's keys in force for the dashboard (the dispatcher, footer and help read them). */
export async function applyConfiguredKeys(env: NodeJS.ProcessEnv = process.env): Promise<void> {
	const table = await configuredKeymap(env);
	if (!table) return;
	const {setKeymap} = await import('../view/keymap.js');
	setKeymap(table);
}

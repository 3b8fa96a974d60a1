import {readFileSync} from 'node:fs';
import {ConfigError} from './errors.js';
import {loadConfigFile} from './config-file.js';
import type {Warn} from './file-permissions.js';

/**
 * The config file's `keys`: your own keys for the dashboard's actions, as lazygit's keybinding
 * section is. `{"keys": {"pause": "P", "queue.back": ["esc", "x"]}}`: an action name, or a place
 * and an action (`queue.back`), and one key or several (`agent-tui keys` lists the names and the
 * keys in force). Each entry keeps its line in the file, so a mistake is reported where it is
 * (view/key-remap.ts checks the names and the keys; this layer only reads them).
 */
export type KeyEntry = {name: string; keys: readonly string[]; line: number};

export type KeyEntries = {path: string; entries: readonly KeyEntry[]};

/** The `keys` of the config file at `path`, each with its line; none without a file or a section. */
export function readKeyEntries(path: string, warn: Warn): KeyEntries {
	const config = loadConfigFile(path, warn);
	if (!config?.keys) return {path, entries: []};
	let text = '';
	try {
		text = readFileSync(path, 'utf8');
	} catch {
		// Read a moment ago: without the text the lines are unknown, not the entries.
	}
	const section = text.search(/"keys"\s*:/);
	const entries = Object.entries(config.keys).map(([name, value]) => ({name, keys: typeof value === 'string' ? [value] : value, line: lineOf(text, name, section)}));
	return {path, entries};
}

/** The line of `"name"` after the `keys` section starts (1-based); 0 when it cannot be found. */
function lineOf(text: string, name: string, from: number): number {
	if (from < 0) return 0;
	const at = text.indexOf(JSON.stringify(name), from);
	return at < 0 ? 0 : text.slice(0, at).split('\n').length;
}

/** An error about one entry, naming the file and the line. */
export function keyEntryError(path: string, entry: Pick<KeyEntry, 'line'>, message: string): ConfigError {
	return new ConfigError(`${path}${entry.line > 0 ? ` line ${entry.line}` : ''}: ${message}`);
}

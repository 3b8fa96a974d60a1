import {configuredKeymap} from './key-setup.js';
import {printText, type Io} from './io.js';

/**
 * `agent-tui keys`: the key reference (the help's sections, each key with the name the config
 * file's `keys` uses) with your own keys applied. A mistake in `keys` is the same error the
 * dashboard gives at start, naming its line.
 */
export async function runKeys(io: Io): Promise<number> {
	const table = await configuredKeymap();
	const [{keysMarkdown}, {defaultKeymap}] = await Promise.all([import('../view/key-reference.js'), import('../view/keymap.js')]);
	const note = table ? '<!-- With the keys of your config file. -->' : '<!-- As shipped: your config file remaps no key. -->';
	for (const line of keysMarkdown(table ?? defaultKeymap, note).trimEnd().split('\n')) printText(io, line);
	return 0;
}

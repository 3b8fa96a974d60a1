import {readFileSync, writeFileSync} from 'node:fs';
import {fileURLToPath} from 'node:url';
import {keysMarkdown} from '../source/view/key-reference.js';
import {defaultKeymap} from '../source/view/keymap.js';

export {keysMarkdown} from '../source/view/key-reference.js';

/**
 * docs/keys.md, the key reference, generated from the keymap table (source/view/keymap.ts) the
 * input dispatcher, the footer and the help overlay read, by source/view/key-reference.ts (which
 * `agent-tui keys` prints with the user's own keys).
 *
 *   npm run docs:keys            write docs/keys.md
 *   npm run docs:keys -- --check exit 1 when docs/keys.md is not what the keymap says
 *
 * test/docs-keys.test.ts fails when the file is out of date.
 */

export const keysDocPath = fileURLToPath(new URL('../docs/keys.md', import.meta.url));

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
	const text = keysMarkdown(defaultKeymap);
	if (process.argv.includes('--check')) {
		let current = '';
		try {
			current = readFileSync(keysDocPath, 'utf8');
		} catch {
			// No file yet: out of date.
		}
		if (current !== text) {
			process.stderr.write('docs/keys.md is out of date with source/view/keymap.ts: run npm run docs:keys\n');
			process.exitCode = 1;
		}
	} else {
		writeFileSync(keysDocPath, text);
		process.stdout.write(`docs/keys.md: ${text.split('\n').length - 1} lines\n`);
	}
}

import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {test} from 'node:test';
import {keysDocPath, keysMarkdown} from '../scripts/keys-doc.js';
import {type Binding, keymap} from '../source/view/keymap.js';

/**
 * docs/keys.md is generated from the keymap table (scripts/keys-doc.ts): a key added, moved or
 * reworded in source/view/keymap.ts without `npm run docs:keys` leaves the reference wrong.
 */

test('docs/keys.md is what npm run docs:keys makes from source/view/keymap.ts', () => {
	const onDisk = readFileSync(keysDocPath, 'utf8');
	assert.ok(onDisk === keysMarkdown(), 'docs/keys.md is out of date with source/view/keymap.ts: run npm run docs:keys');
});

test('the reference lists every binding of the table, under each place it works in', () => {
	const text = keysMarkdown();
	// Positive: each description is there, once per context it applies in.
	for (const binding of keymap) {
		const count = text.split(`| ${binding.description.replaceAll('|', '\\|')} | ${binding.action} |`).length - 1;
		const sameRows = keymap.filter((other) => other.description === binding.description).reduce((sum, other) => sum + other.contexts.length, 0);
		assert.equal(count, sameRows, `"${binding.description}" in each of its sections`);
	}
	assert.match(text, /^\| `\/` \| Filter: kind:ActionEvent.* \| filter \|$/m, 'the / key in the timeline, with its name');
	assert.match(text, /^\| `S` `ctrl-f` \| Search the events.* \| search \|$/m, 'a binding of two keys shows both');
	assert.match(text, /^Place: `queue`$/m, 'each section names its place');
});

test('the generator follows the table it is given, not a copy of the keys', () => {
	// A remapped table (quit on Q) documents the new key and not the old one.
	const remapped: Binding[] = keymap.map((binding) => (binding.action === 'quit' ? {...binding, keys: [{input: 'Q'}]} : binding));
	const text = keysMarkdown(remapped);
	assert.match(text, /^\| `Q` \| Quit \| quit \|$/m);
	assert.doesNotMatch(text, /^\| `q` \| Quit \| quit \|$/m);
	assert.match(keysMarkdown(), /^\| `q` \| Quit \| quit \|$/m);
});

import assert from 'node:assert/strict';
import {test} from 'node:test';
import {defaultKeymap, footerHints, helpSections, keyLabel} from '../source/view/keymap.js';
import {parseKeyLabel, remapKeymap} from '../source/view/key-remap.js';

const entry = (name: string, keys: string | string[], line = 3) => ({name, keys: typeof keys === 'string' ? [keys] : keys, line});
const keysOf = (table: ReturnType<typeof remapKeymap>, action: string, context: string) => {
	assert.ok(table.ok, JSON.stringify(table));
	return table.table.filter((binding) => binding.action === action && binding.contexts.includes(context as never)).flatMap((binding) => binding.keys.map(keyLabel));
};

test('key labels read as the help writes them', () => {
	assert.deepEqual(parseKeyLabel('P'), {input: 'P'});
	assert.deepEqual(parseKeyLabel('ctrl-R'), {input: 'r', ctrl: true});
	assert.deepEqual(parseKeyLabel('enter'), {name: 'return'});
	assert.deepEqual(parseKeyLabel('shift-tab'), {name: 'tab', shift: true});
	assert.deepEqual(parseKeyLabel('space'), {input: ' '});
	assert.deepEqual(parseKeyLabel('pgdn'), {name: 'pageDown'});
	assert.equal(parseKeyLabel('ctrl-'), null);
	assert.equal(parseKeyLabel('pp'), null);
	assert.equal(parseKeyLabel('\u001B'), null);
});

test('an action takes its new keys in every place; a place-qualified one only there', () => {
	const everywhere = remapKeymap([entry('pause', 'b')]);
	for (const place of ['conversations', 'sandboxes', 'timeline']) assert.deepEqual(keysOf(everywhere, 'pause', place), ['b']);
	assert.ok(everywhere.ok && footerHints(['conversations', 'global', 'always'], everywhere.table).includes('b pause sandbox'));
	const one = remapKeymap([entry('queue.back', ['esc', 'x'])]);
	assert.deepEqual(keysOf(one, 'back', 'queue'), ['esc', 'x']);
	assert.deepEqual(keysOf(one, 'back', 'links'), ['esc', 'q'], 'other places keep theirs');
	assert.ok(one.ok && helpSections(one.table).find((section) => section.context === 'queue')!.rows.some((row) => row.keys === 'esc/x'));
	// Swapping two keys in one file is no conflict: quit on Q frees q for pause.
	const swapped = remapKeymap([entry('quit', 'Q'), entry('pause', 'q')]);
	assert.deepEqual(keysOf(swapped, 'pause', 'conversations'), ['q']);
	assert.equal(defaultKeymap.find((binding) => binding.action === 'pause')!.keys[0]!.input, 'p', 'the shipped table is untouched');
});

test('what cannot work is refused with the entry\'s line', () => {
	const problem = (entries: Parameters<typeof remapKeymap>[0]) => {
		const result = remapKeymap(entries);
		assert.equal(result.ok, false, 'refused');
		return result.ok ? null : result.problem;
	};
	assert.deepEqual(problem([entry('pauze', 'v', 7)]), {line: 7, message: '"pauze": unknown action "pauze" (agent-tui keys lists every action and its keys)'});
	assert.match(problem([entry('nowhere.back', 'x')])!.message, /unknown place "nowhere"/);
	assert.match(problem([entry('conversations.copyLink', 'x')])!.message, /copyLink has no key in Conversations/);
	assert.match(problem([entry('forceQuit', 'Q')])!.message, /ctrl-c always quits/);
	assert.match(problem([entry('pause', 'pp')])!.message, /"pp" is not a key/);
	// A pane key that a global key already answers to, and a key of the same place.
	assert.match(problem([entry('pause', 'q', 9)])!.message, /q is already quit in Conversations/);
	assert.equal(problem([entry('pause', 'q', 9)])!.line, 9);
	assert.match(problem([entry('pause', 'P')])!.message, /P is already bulkPause in Conversations/);
	// Letters in a text field are text: only named keys or ctrl there.
	assert.match(problem([entry('applyFilter', 'x')])!.message, /"x" is typed text in Filter line/);
	assert.ok(remapKeymap([entry('applyFilter', 'ctrl-j')]).ok);
});

import {test} from 'node:test';
import assert from 'node:assert/strict';
import {useState} from 'react';
import {Text} from 'ink';
import {render} from 'ink-testing-library';
import {bindingKeysLabel, contextTitles, findBinding, footerHints, helpSections, type InkKey, type KeyContext, keyLabel, keymap} from '../source/view/keymap.js';
import {isForeignInput, planChunk} from '../source/view/key-chunks.js';
import {KeyRegistry, KeyRegistryContext, useKeyHandlers} from '../source/view/key-registry.js';
import {dispatchKey, isTextContext} from '../source/view/key-route.js';
import {useKeyDispatch} from '../source/view/use-key-dispatch.js';
import {helpLines, HelpOverlay} from '../source/view/HelpOverlay.js';
import {initialViewState, keyContexts, viewReducer} from '../source/view/view-state.js';
import {keys, renderSized, waitForFrame} from './helpers/ink.js';
import {fitFooterHints} from '../source/view/footer-hints.js';
import {cellWidth} from '../source/format/width.js';

const allContexts: KeyContext[] = ['always', 'global', 'conversations', 'sandboxes', 'timeline', 'details', 'help', 'confirm', 'filter', 'start'];

test('no key is bound twice within a context', () => {
	// Every context the help knows, the panels' too (queue, remedy, links, changes, diff, prompt, …).
	for (const context of new Set([...allContexts, ...(Object.keys(contextTitles) as KeyContext[])])) {
		const seen = new Map<string, string>();
		for (const binding of keymap) {
			if (!binding.contexts.includes(context)) continue;
			for (const spec of binding.keys) {
				const id = `${spec.ctrl ? 'ctrl-' : ''}${spec.name ?? ''}${spec.shift === undefined ? '' : `:${spec.shift}`}${spec.input ?? ''}`;
				assert.ok(!seen.has(id) || seen.get(id) === binding.action, `${context}: ${keyLabel(spec)} bound to ${seen.get(id)} and ${binding.action}`);
				seen.set(id, binding.action);
			}
		}
	}
});

test('the conventions users expect are in the table', () => {
	const stack: KeyContext[] = ['conversations', 'global', 'always'];
	const expect = (input: string, key: InkKey, action: string) =>
		assert.equal(findBinding(stack, input, key)?.action, action, `${JSON.stringify(input)} ${JSON.stringify(key)}`);
	expect('?', {}, 'help');
	expect('q', {}, 'quit');
	expect('c', {ctrl: true}, 'forceQuit');
	expect('', {tab: true}, 'nextPane');
	expect('', {tab: true, shift: true}, 'previousPane');
	expect('1', {}, 'paneConversations');
	expect('2', {}, 'paneSandboxes');
	expect('3', {}, 'paneTimeline');
	expect('j', {}, 'down');
	expect('', {downArrow: true}, 'down');
	expect('k', {}, 'up');
	expect('g', {}, 'top');
	expect('G', {shift: true}, 'bottom');
	expect('', {pageDown: true}, 'pageDown');
	expect('', {return: true}, 'open');
	expect('', {escape: true, meta: true}, 'back');
	expect('/', {}, 'filter');
	expect('p', {}, 'pause');
	expect('r', {}, 'resume');
	expect('r', {ctrl: true}, 'refresh');
	expect('+', {}, 'start');
	expect('s', {}, 'snooze');
	expect('u', {}, 'unsnooze');
	expect('o', {}, 'sort');
	expect('n', {}, 'nextAttention');
	expect('N', {shift: true}, 'previousAttention');
	assert.equal(findBinding(['timeline', 'global', 'always'], 'f', {})?.action, 'follow');
});

test('help is generated from the table: every binding appears with its keys', () => {
	const text = helpLines().map((entry) => entry.text).join('\n');
	for (const binding of keymap) {
		assert.ok(text.includes(binding.description), `help lacks "${binding.description}"`);
		assert.ok(text.includes(bindingKeysLabel(binding)), `help lacks keys ${bindingKeysLabel(binding)}`);
	}
	// Every context that has bindings has a section.
	const titled = new Set(helpSections().map((section) => section.context));
	for (const binding of keymap) for (const context of binding.contexts) assert.ok(titled.has(context));
});

test('the rendered help overlay lists every binding, and scrolls when short', async () => {
	const registry = new KeyRegistry();
	const tall = renderSized(
		<KeyRegistryContext.Provider value={registry}>
			<HelpOverlay width={120} height={260} onClose={() => undefined} />
		</KeyRegistryContext.Provider>,
		{columns: 120, rows: 261},
	);
	const frame = await waitForFrame(tall.lastFrame, (text) => text.includes('Keys'));
	for (const binding of keymap) assert.ok(frame.includes(binding.description), `overlay lacks "${binding.description}"`);
	tall.unmount();

	const shortRegistry = new KeyRegistry();
	function Short() {
		useKeyDispatch(shortRegistry, ['help', 'always']);
		return <HelpOverlay width={80} height={10} onClose={() => undefined} />;
	}
	const short = renderSized(
		<KeyRegistryContext.Provider value={shortRegistry}>
			<Short />
		</KeyRegistryContext.Provider>,
		{columns: 80, rows: 24},
	);
	const first = await waitForFrame(short.lastFrame, (text) => /1-9 of \d+/.test(text));
	assert.equal(first.split('\n').length, 10);
	short.stdin.write('G');
	await waitForFrame(short.lastFrame, (text) => !text.includes(' 1-9 of'));
	short.unmount();
});

test('footer hints come from the table for the active contexts', () => {
	const list = footerHints(['conversations', 'global', 'always']).join('  ');
	assert.match(list, /j\/k move/);
	assert.match(list, /\/ filter/);
	assert.match(list, /\? help/);
	assert.match(list, /q quit/);
	const typing = footerHints(['filter', 'always']).join('  ');
	assert.match(typing, /enter done/);
	assert.match(typing, /esc clear/);
	assert.doesNotMatch(typing, /q quit/);
});

test('typing contexts shadow single-letter bindings, ctrl-c always quits', () => {
	const ran: string[] = [];
	const lookup = (context: KeyContext, action: string) => () => ran.push(`${context}:${action}`);
	const filtering = keyContexts({...initialViewState, editing: 'conversations'});
	assert.deepEqual(filtering, ['filter', 'always']);
	assert.equal(dispatchKey(filtering, 'q', {}, lookup), undefined);
	assert.equal(dispatchKey(filtering, 'c', {ctrl: true}, lookup)?.action, 'forceQuit');
	const confirming = keyContexts(viewReducer(initialViewState, {type: 'open-overlay', overlay: {kind: 'confirm', request: {action: 'pause', sandboxKey: 'x', question: '?', detail: ''}}}));
	assert.equal(dispatchKey(confirming, 'p', {}, lookup), undefined, 'p does not re-trigger inside the question');
	assert.equal(dispatchKey(confirming, 'y', {}, lookup)?.action, 'confirmYes');
	assert.deepEqual(ran, ['always:forceQuit', 'confirm:confirmYes']);
});

test('the same key context stack is the same array from render to render (the footer is memoised on it)', () => {
	const list = keyContexts(initialViewState);
	const moved = keyContexts(viewReducer(initialViewState, {type: 'focus', pane: 'conversations'}));
	assert.deepEqual(list, ['conversations', 'global', 'always']);
	assert.equal(moved, list, 'a new array for the same stack would re-render the footer on every key');
	const timeline = keyContexts(viewReducer(initialViewState, {type: 'focus', pane: 'timeline'}));
	assert.deepEqual(timeline, ['timeline', 'global', 'always']);
	assert.notEqual(timeline, list);
	assert.equal(keyContexts(viewReducer(initialViewState, {type: 'focus', pane: 'timeline'})), timeline);
	assert.ok(Object.isFrozen(list), 'shared, so nobody may change it');
});

test('terminal replies and pastes are not keys', () => {
	assert.equal(isForeignInput('11;rgb:0000/0000/0000', {}), true);
	assert.equal(isForeignInput(']', {meta: true}), true);
	assert.equal(isForeignInput('[12;1R', {meta: true}), true);
	assert.equal(isForeignInput('qq', {}), true);
	assert.equal(isForeignInput('q', {}), false);
	assert.equal(isForeignInput('', {escape: true, meta: true}), false);
	assert.equal(isForeignInput('', {upArrow: true}), false);
	assert.equal(isForeignInput('😀', {}), false);
});

function Probe({registry}: {registry: KeyRegistry}) {
	const [log, setLog] = useState<string[]>([]);
	useKeyDispatch(registry, ['conversations', 'global', 'always']);
	const add = (entry: string) => () => setLog((previous) => [...previous, entry]);
	useKeyHandlers('global', {quit: add('quit'), help: add('help'), paneSandboxes: add('pane2')}, {registry});
	useKeyHandlers('conversations', {down: add('down'), pause: add('pause'), resume: add('resume')}, {registry});
	return <Text>log:{log.join(',')}.</Text>;
}

test('through Ink: escape-sequence replies fire nothing, real keys do', async () => {
	const registry = new KeyRegistry();
	const rendered = render(<Probe registry={registry} />);
	await waitForFrame(() => rendered.lastFrame() ?? '', (text) => text.includes('log:.'));
	// OSC 11 background-colour reply, DECRQSS reply, a cursor position report, and a paste.
	rendered.stdin.write('\u001B]11;rgb:0000/0000/0000\u001B\\');
	rendered.stdin.write('\u001BP1$r0m\u001B\\');
	rendered.stdin.write('\u001B[12;1R');
	rendered.stdin.write('please quit');
	// A real key in a later read (what comes in a reply's own read is its payload): once it is
	// logged, everything before it has been read, and none of it ran.
	await new Promise((resolve) => setImmediate(resolve));
	rendered.stdin.write('j');
	await waitForFrame(() => rendered.lastFrame() ?? '', (text) => text.includes('log:down.'));
	assert.equal(rendered.lastFrame(), 'log:down.');
	rendered.stdin.write(keys.down);
	rendered.stdin.write('2');
	rendered.stdin.write('q');
	await waitForFrame(() => rendered.lastFrame() ?? '', (text) => text.includes('log:down,down,pane2,quit.'));
	rendered.unmount();
});

test('a chunk of input: one key, keys typed ahead, a paste, a terminal reply, text then enter', () => {
	assert.deepEqual(planChunk('q', {}, false), {kind: 'key'});
	assert.deepEqual(planChunk('', {escape: true, meta: true}, false), {kind: 'key'});
	assert.deepEqual(planChunk('😀', {}, false), {kind: 'key'}, 'one emoji is one key');
	assert.deepEqual(planChunk('y1', {}, false), {kind: 'split', first: 'y', rest: '1'});
	assert.deepEqual(planChunk('/status:stuck\r', {}, false), {kind: 'hold', count: 14}, 'longer than typeahead: a paste');
	const slashOpens = (first: string) => first === '/';
	assert.deepEqual(planChunk('/status:stuck\r', {}, false, '/status:stuck\r', slashOpens), {kind: 'split', first: '/', rest: 'status:stuck\r'}, 'a fast typist opening the filter over SSH');
	assert.deepEqual(planChunk('please quit', {}, false, 'please quit', slashOpens), {kind: 'hold', count: 11}, 'a long chunk that opens no text line is a paste, held back and said');
	// Key repeat over a slow link: nine or more of one key in one read are keys.
	assert.deepEqual(planChunk('jjjjjjjjjjjj', {}, false), {kind: 'split', first: 'j', rest: 'jjjjjjjjjjj'});
	// A key typed ahead of the one that opens the filter, and the filter's text: keys, in order.
	assert.deepEqual(planChunk('g/status:error repo:x\r', {}, false, 'g/status:error repo:x\r', slashOpens), {kind: 'split', first: 'g', rest: '/status:error repo:x\r'});
	assert.deepEqual(planChunk('jjjjjjjjj/x', {}, false, 'jjjjjjjjj/x', slashOpens), {kind: 'hold', count: 11}, 'an opener past the typeahead limit: a paste');
	assert.deepEqual(planChunk('/abc\r', {}, false), {kind: 'split', first: '/', rest: 'abc\r'});
	assert.deepEqual(planChunk(']11;rgb:0000/0000/0000', {meta: true}, false), {kind: 'drop'});
	// Esc and a letter read together come as Alt+letter: Esc first, then the letter.
	assert.deepEqual(planChunk('r', {meta: true}, false, '\u001Br'), {kind: 'split', first: '\u001B', rest: 'r'});
	assert.deepEqual(planChunk('1', {meta: true}, false, '\u001B1'), {kind: 'split', first: '\u001B', rest: '1'});
	for (const raw of ['\u001BO', '\u001BP', '\u001BN', '\u001BX', '\u001B\\', '\u001B]', '\u001B/']) {
		assert.deepEqual(planChunk(raw.slice(1), {meta: true}, false, raw), {kind: 'drop'}, `${JSON.stringify(raw)} is not Esc and a key`);
	}
	assert.deepEqual(planChunk('a\u001B[A', {}, false), {kind: 'drop'});
	assert.deepEqual(planChunk('status:stuck\r', {}, true), {kind: 'text', text: 'status:stuck', rest: '\r'}, 'text for the field, then Enter');
	assert.deepEqual(planChunk('status:stuck', {}, true), {kind: 'text', text: 'status:stuck', rest: ''});
	assert.deepEqual(planChunk('a\rb', {}, true), {kind: 'text', text: 'a', rest: '\rb'});
	assert.deepEqual(planChunk('\u007F\u007F', {}, true), {kind: 'split', first: '\u007F', rest: '\u007F'}, 'two backspaces in one read are two keys');
	assert.deepEqual(planChunk('u', {ctrl: true}, true, '\u0015'), {kind: 'key'}, 'ctrl-u is one key');
	assert.equal(isForeignInput('jj', {}), true);
	assert.equal(isForeignInput('j', {}), false);
});

test('text contexts are the ones that bind no printable key', () => {
	assert.equal(isTextContext('filter'), true, 'j and k are letters while typing a filter');
	assert.equal(isTextContext('start'), true);
	assert.equal(isTextContext('conversations'), false);
	assert.equal(isTextContext('confirm'), false);
	assert.equal(isTextContext('always'), false);
	assert.equal(dispatchKey(['filter', 'always'], 'j', {}, () => () => undefined), undefined);
	assert.equal(dispatchKey(['filter', 'always'], '', {downArrow: true}, () => () => undefined)?.action, 'down');
});

test('footer hints: whole hints only, and "? help" kept at any width that can hold it', () => {
	const hints = footerHints(['conversations', 'global', 'always']);
	for (const width of [20, 40, 60, 80, 200]) {
		const text = fitFooterHints(hints, width);
		assert.ok(cellWidth(text) <= width, `${width}: ${text}`);
		assert.match(text, /\? help$/, `${width}: ${text}`);
		for (const part of text.split('  ')) assert.ok(hints.includes(part), `"${part}" is a whole hint`);
	}
	assert.equal(fitFooterHints(hints, 200), [...hints.filter((hint) => hint !== '? help'), '? help'].join('  '));
	assert.equal(fitFooterHints(['enter done', 'esc clear'], 12), 'enter done');
});

test('footer hints: actions that matter for the selection lead, so 80 columns keep them', () => {
	const plain = footerHints(['conversations', 'global', 'always']);
	const waiting = footerHints(['conversations', 'global', 'always'], keymap, ['approve', 'reject']);
	assert.deepEqual(waiting.slice(0, 2), ['a approve', 'x reject']);
	assert.deepEqual([...waiting].sort(), [...plain].sort(), 'the same hints, reordered');
	const fitted = fitFooterHints(waiting, 80);
	assert.match(fitted, /^a approve {2}x reject {2}/);
	assert.match(fitted, /\? help$/);
});

test('every letter or sign the panes answer to is in the readme\'s Keys table', async () => {
	const {readFile} = await import('node:fs/promises');
	const readme = await readFile(new URL('../readme.md', import.meta.url), 'utf8');
	const section = readme.slice(readme.indexOf('\n## Keys\n'), readme.indexOf('\n## ', readme.indexOf('\n## Keys\n') + 1));
	// The table's first column: `a` / `x`, ctrl-p / `*`, …
	const listed = new Set<string>();
	for (const row of section.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| key'))) {
		for (const match of (row.split(' | ')[0] ?? '').matchAll(/`([^`]+)`/g)) listed.add(match[1]!);
	}
	const missing = new Set<string>();
	for (const binding of keymap) {
		if (!binding.contexts.some((context) => context === 'global' || context === 'conversations' || context === 'sandboxes' || context === 'timeline')) continue;
		for (const spec of binding.keys) {
			// Letters, digits and signs; named keys and ctrl chords are written in words there.
			if (spec.input && !spec.ctrl && spec.input !== ' ' && !listed.has(spec.input)) missing.add(`${spec.input} (${binding.action})`);
		}
	}
	assert.deepEqual([...missing], [], 'keys the readme does not list');
});

test('the help names every panel whose keys it lists under the text prompts (A\'s question, S\'s search, the typed count)', () => {
	const prompt = helpSections().find((section) => section.context === 'prompt');
	assert.ok(prompt);
	for (const overlay of [{kind: 'ask', conversationKey: 'k'}, {kind: 'search'}] as const) {
		assert.deepEqual(keyContexts({...initialViewState, overlay})[0], 'prompt', `${overlay.kind} answers the prompt keys`);
	}
	for (const word of ['message', 'reason', 'question (A)', 'search (S)', 'typed count']) assert.ok(prompt.title.includes(word), `"${prompt.title}" names ${word}`);
});

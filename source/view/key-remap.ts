import {type ActionName, type Binding, contextTitles, defaultKeymap, type KeyContext, keyLabel, type KeySpec, type NamedKey} from './keymap.js';

/**
 * Your own keys (the config file's `keys`, config/key-config.ts) applied to the keymap table:
 * `"pause": "P"` gives every binding of `pause` the key P; `"queue.back": ["esc", "x"]` only the
 * one of that place. What cannot work is a problem naming its entry's line, never a silent
 * fallback: an unknown action or place, an unreadable key, ctrl-c (it always quits), a letter in a
 * text field (letters there are text), and a key another action already answers to in the same
 * place or in a pane under the global keys.
 */

export type RemapEntry = {name: string; keys: readonly string[]; line: number};
export type RemapProblem = {line: number; message: string};
export type RemapResult = {ok: true; table: readonly Binding[]} | {ok: false; problem: RemapProblem};

const namedLabels: Record<string, {name: NamedKey; shift?: boolean}> = {
	up: {name: 'upArrow'},
	down: {name: 'downArrow'},
	left: {name: 'leftArrow'},
	right: {name: 'rightArrow'},
	pgup: {name: 'pageUp'},
	pageup: {name: 'pageUp'},
	pgdn: {name: 'pageDown'},
	pagedown: {name: 'pageDown'},
	home: {name: 'home'},
	end: {name: 'end'},
	enter: {name: 'return'},
	return: {name: 'return'},
	esc: {name: 'escape'},
	escape: {name: 'escape'},
	tab: {name: 'tab', shift: false},
	'shift-tab': {name: 'tab', shift: true},
};

/** `P`, `ctrl-r`, `enter`, `esc`, `space`, `shift-tab`, `pgdn`…, as the help labels keys; null when unreadable. */
export function parseKeyLabel(label: string): KeySpec | null {
	const text = label.trim() === '' ? label : label.trim();
	const named = namedLabels[text.toLowerCase()];
	if (named) return {...named};
	if (text.toLowerCase() === 'space') return {input: ' '};
	const ctrl = /^ctrl-(.)$/i.exec(text);
	if (ctrl) return {input: ctrl[1]!.toLowerCase(), ctrl: true};
	// One printable character (a letter, a sign, a digit); control characters are not keys to name.
	return [...text].length === 1 && !/[\u0000-\u001F\u007F]/.test(text) ? {input: text} : null;
}

/** Panes stacked under the global keys (view-state.ts keyContexts): a key there shadows a global one. */
const paneContexts: readonly KeyContext[] = ['conversations', 'sandboxes', 'timeline', 'details'];

/** Places where printable keys are text (no plain character is bound there as shipped). */
const textContexts = (Object.keys(contextTitles) as KeyContext[]).filter(
	(context) => context !== 'always' && context !== 'global' && !defaultKeymap.some((binding) => binding.contexts.includes(context) && binding.keys.some((spec) => spec.input !== undefined && !spec.ctrl)),
);

function sameKey(a: KeySpec, b: KeySpec): boolean {
	return a.input === b.input && a.name === b.name && Boolean(a.ctrl) === Boolean(b.ctrl) && (a.shift ?? false) === (b.shift ?? false);
}

/** Where two bindings can both be asked for one key press, or null when never. */
function sharedPlace(a: readonly KeyContext[], b: readonly KeyContext[]): KeyContext | null {
	const common = a.find((context) => b.includes(context));
	if (common) return common;
	if (a.includes('always') || b.includes('always')) return 'always';
	if (a.includes('global')) return b.find((context) => paneContexts.includes(context)) ?? null;
	if (b.includes('global')) return a.find((context) => paneContexts.includes(context)) ?? null;
	return null;
}

export function remapKeymap(entries: readonly RemapEntry[], table: readonly Binding[] = defaultKeymap): RemapResult {
	let result = [...table];
	const changed = new Map<Binding, RemapEntry>();
	for (const entry of entries) {
		const fail = (message: string): RemapResult => ({ok: false, problem: {line: entry.line, message: `"${entry.name}": ${message}`}});
		const [first, second] = entry.name.split('.');
		const place = second === undefined ? undefined : (first as KeyContext);
		const action = (second ?? first) as ActionName;
		if (place !== undefined && !Object.hasOwn(contextTitles, place)) return fail(`unknown place "${place}" (places: ${Object.keys(contextTitles).join(', ')})`);
		if (!result.some((binding) => binding.action === action)) return fail(`unknown action "${action}" (agent-tui keys lists every action and its keys)`);
		if (action === 'forceQuit') return fail('ctrl-c always quits; it cannot be remapped');
		const targets = result.filter((binding) => binding.action === action && (place === undefined || binding.contexts.includes(place)));
		if (targets.length === 0) return fail(`${action} has no key in ${contextTitles[place!]}`);
		const specs: KeySpec[] = [];
		for (const label of entry.keys) {
			const spec = parseKeyLabel(label);
			if (!spec) return fail(`"${label}" is not a key (a character, ctrl-x, enter, esc, tab, shift-tab, space, up, down, left, right, pgup, pgdn, home, end)`);
			if (spec.name === undefined && !spec.ctrl && targets.some((binding) => binding.contexts.some((context) => (place ?? context) === context && textContexts.includes(context)))) {
				return fail(`"${label}" is typed text in ${contextTitles[targets[0]!.contexts.find((context) => textContexts.includes(context))!]}: use a named key or ctrl-…`);
			}
			specs.push(spec);
		}
		for (const target of targets) {
			const index = result.indexOf(target);
			if (place === undefined || target.contexts.length === 1) {
				const replaced = {...target, keys: specs};
				result[index] = replaced;
				changed.set(replaced, entry);
			} else {
				// Only this place: the binding splits, the other places keep their keys.
				const own = {...target, keys: specs, contexts: [place]};
				result = [...result.slice(0, index), own, {...target, contexts: target.contexts.filter((context) => context !== place)}, ...result.slice(index + 1)];
				changed.set(own, entry);
			}
		}
	}
	for (const [binding, entry] of changed) {
		for (const spec of binding.keys) {
			for (const other of result) {
				if (other === binding || other.action === binding.action || !other.keys.some((key) => sameKey(key, spec))) continue;
				const place = sharedPlace(binding.contexts, other.contexts);
				if (place) return {ok: false, problem: {line: entry.line, message: `"${entry.name}": ${keyLabel(spec)} is already ${other.action} in ${contextTitles[place]} ("${other.description}")`}};
			}
		}
	}
	return {ok: true, table: result};
}

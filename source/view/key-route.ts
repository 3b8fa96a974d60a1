import {type ActionName, type Binding, type InkKey, type KeyContext, keymap, keyMatches} from './keymap.js';
import {isForeignInput} from './key-chunks.js';

/**
 * Which handler a key runs: the keymap table read context by context, the most specific first
 * (use-key-dispatch.ts routes every key through here).
 */

/**
 * A context where printable keys are text, not commands: no binding in it is a plain character
 * (the filter line, the start form, any one-line field). Derived from the keymap, so a new text
 * field's context is one when it binds only named keys.
 */
export function isTextContext(context: KeyContext | undefined, table: readonly Binding[] = keymap): boolean {
	if (!context || context === 'always' || context === 'global') return false;
	return !table.some((binding) => binding.contexts.includes(context) && binding.keys.some((spec) => spec.input !== undefined && !spec.ctrl));
}

/**
 * Route one key: the first binding (most specific context first) whose context has a handler for
 * its action runs. Returns the binding that ran, for tests and the dispatcher's bookkeeping.
 */
export function dispatchKey(
	stack: readonly KeyContext[],
	input: string,
	key: InkKey,
	lookup: (context: KeyContext, action: ActionName) => (() => void) | undefined,
	table: readonly Binding[] = keymap,
): Binding | undefined {
	if (isForeignInput(input, key)) return undefined;
	return dispatchOne(stack, input, key, lookup, table);
}

export function dispatchOne(
	stack: readonly KeyContext[],
	input: string,
	key: InkKey,
	lookup: (context: KeyContext, action: ActionName) => (() => void) | undefined,
	table: readonly Binding[],
): Binding | undefined {
	for (const context of stack) {
		for (const binding of table) {
			if (!binding.contexts.includes(context)) continue;
			if (!binding.keys.some((spec) => keyMatches(spec, input, key))) continue;
			const handler = lookup(context, binding.action);
			if (handler) {
				handler();
				return binding;
			}
		}
	}
	return undefined;
}

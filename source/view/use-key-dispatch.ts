import {createContext, useContext, useEffect, useMemo, useRef} from 'react';
import {useInput} from 'ink';
import {type ActionName, type Binding, type InkKey, type KeyContext, keymap, keyMatches} from './keymap.js';

/**
 * The one place keys come in. The root calls `useKeyDispatch` with the stack of active contexts
 * (the open overlay or text field first, then the focused pane, then `global`, and `always`
 * last); components that own behaviour call `useKeyHandlers(context, handlers)`. A key is looked
 * up in the keymap table, context by context, and the first binding that has a handler runs.
 */

export type KeyHandlers = Partial<Record<ActionName, () => void>>;

type Registration = {context: KeyContext; handlers: {current: KeyHandlers}; fallback: boolean};

export class KeyRegistry {
	readonly #entries: Registration[] = [];

	add(entry: Registration): () => void {
		this.#entries.push(entry);
		return () => {
			const index = this.#entries.indexOf(entry);
			if (index !== -1) this.#entries.splice(index, 1);
		};
	}

	/**
	 * The handler for `action` in `context`: the newest ordinary registration, else the newest
	 * fallback. The dashboard registers its handlers as fallbacks, so a component that owns a
	 * context (the start form's esc, say) wins whatever the mount order was.
	 */
	handler(context: KeyContext, action: ActionName): (() => void) | undefined {
		return this.#find(context, action, false) ?? this.#find(context, action, true);
	}

	#find(context: KeyContext, action: ActionName, fallback: boolean): (() => void) | undefined {
		for (let index = this.#entries.length - 1; index >= 0; index--) {
			const entry = this.#entries[index];
			if (entry?.context !== context || entry.fallback !== fallback) continue;
			const handler = entry.handlers.current[action];
			if (handler) return handler;
		}
		return undefined;
	}
}

export const KeyRegistryContext = createContext<KeyRegistry | null>(null);

/**
 * Input that is not one key is not typed by a person: a terminal's reply to a query
 * (`ESC]11;rgb:…`, cursor reports), or a paste. Ink hands such a chunk over as one multi-character
 * string, or as ESC plus a character (flagged meta). Neither may fire a one-key binding.
 */
export function isForeignInput(input: string, key: InkKey): boolean {
	if (key.meta && !key.escape && input.length > 0) return true;
	// Count code points, not UTF-16 units: one emoji is one key.
	let count = 0;
	for (const _ of input) {
		if (++count > 1) return true;
	}
	return false;
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

/** Install the single input listener. `stack` is read at key time, so it may change every render. */
export function useKeyDispatch(registry: KeyRegistry, stack: readonly KeyContext[], options: {isActive?: boolean} = {}): void {
	const stackRef = useRef(stack);
	stackRef.current = stack;
	useInput(
		(input, key) => {
			dispatchKey(stackRef.current, input, key, (context, action) => registry.handler(context, action));
		},
		{isActive: options.isActive ?? true},
	);
}

export type KeyHandlerOptions = {
	/** Defaults to the registry of the nearest KeyRegistryContext provider. */
	registry?: KeyRegistry;
	/** Used only when no ordinary registration handles the action (the dashboard's defaults). */
	fallback?: boolean;
};

/** Register handlers for a context while mounted. Handlers may be new functions every render. */
export function useKeyHandlers(context: KeyContext, handlers: KeyHandlers, options: KeyHandlerOptions = {}): void {
	const fromContext = useContext(KeyRegistryContext);
	const registry = options.registry ?? fromContext;
	const fallback = options.fallback ?? false;
	const ref = useRef(handlers);
	ref.current = handlers;
	useEffect(() => {
		if (!registry) return undefined;
		return registry.add({context, handlers: ref, fallback});
	}, [registry, context, fallback]);
}

/** A registry for one dashboard instance. */
export function useKeyRegistry(): KeyRegistry {
	return useMemo(() => new KeyRegistry(), []);
}

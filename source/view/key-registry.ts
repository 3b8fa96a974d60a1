import {createContext, useContext, useLayoutEffect, useMemo, useRef} from 'react';
import {FrameHold} from './frame-hold.js';
import type {ActionName, KeyContext} from './keymap.js';
import type {LineEdit} from './line-edit.js';

/**
 * Who handles a key: components register handlers for a context while mounted
 * (`useKeyHandlers`), and a focused text field the editing keys (`useTextSink`); the dispatcher
 * (use-key-dispatch.ts) asks the registry for the handler of each key it routes.
 */

export type KeyHandlers = Partial<Record<ActionName, () => void>>;

/** Where a text context's editing keys go: the focused field's line editor. */
export type TextSink = (edit: LineEdit) => void;

type Registration = {context: KeyContext; handlers: {current: KeyHandlers}; fallback: boolean};

export class KeyRegistry {
	/** A key's frame held until the request it started has gone out (frame-hold.ts). */
	readonly frameHold = new FrameHold();
	readonly #entries: Registration[] = [];
	readonly #sinks: Array<{current: TextSink}> = [];

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

	/** A focused text field takes the editing keys of a text context; the newest mounted wins. */
	addTextSink(sink: {current: TextSink}): () => void {
		this.#sinks.push(sink);
		return () => {
			const index = this.#sinks.indexOf(sink);
			if (index !== -1) this.#sinks.splice(index, 1);
		};
	}

	textSink(): TextSink | undefined {
		return this.#sinks.at(-1)?.current;
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
	// A layout effect: registered in the same commit that mounts the component, so a key that
	// arrives right after (typed ahead) already finds the handler.
	useLayoutEffect(() => {
		if (!registry) return undefined;
		return registry.add({context, handlers: ref, fallback});
	}, [registry, context, fallback]);
}

/** A registry for one dashboard instance. */
export function useKeyRegistry(): KeyRegistry {
	return useMemo(() => new KeyRegistry(), []);
}

/** While `focus`, this field receives the editing keys of the text context it is in. */
export function useTextSink(focus: boolean, sink: TextSink): void {
	const registry = useContext(KeyRegistryContext);
	const ref = useRef(sink);
	ref.current = sink;
	useLayoutEffect(() => {
		if (!registry || !focus) return undefined;
		return registry.addTextSink(ref);
	}, [registry, focus]);
}

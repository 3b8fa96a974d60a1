import {createContext, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState} from 'react';
import {useInput, useStdin} from 'ink';
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

/** More printable characters than this in one chunk is a paste, not keys typed ahead. */
export const typeaheadLimit = 8;

/**
 * What to do with one chunk of input, as Ink hands it over.
 * - `key`: one key, dispatch it.
 * - `drop`: not typed by a person: a terminal's reply to a query (`ESC]11;rgb:…`, cursor
 *   reports), ESC plus punctuation or a string introducer, or a paste longer than `typeaheadLimit`.
 * - `split`: keys typed ahead while the app was busy (`y1` after a question, or Esc and a letter,
 *   which Ink reports as Alt+letter). The first key is
 *   dispatched now and the rest after the screen has caught up, so each key meets the contexts
 *   its predecessor opened (a `/` opens the filter, and the text after it lands in the field).
 * - `submit`: in a text field, text and Enter in one chunk: the field has taken the text, the
 *   Enter still has to submit.
 */
export type ChunkPlan = {kind: 'key'} | {kind: 'drop'} | {kind: 'split'; first: string; rest: string} | {kind: 'submit'};

export function planChunk(input: string, key: InkKey, textEntry: boolean, raw: string = input): ChunkPlan {
	// Esc and the key typed right after it, read together (a slow link, a loaded machine): Ink
	// reports Alt+key. No binding uses Alt, and no terminal reply is ESC and a letter or digit
	// (but for the SS2/SS3/DCS/SOS introducers N, O, P, X), so it is Esc, then that key.
	if (key.meta && !key.escape && /^\u001B[a-zA-Z\d]$/.test(raw) && !/^\u001B[NOPX]$/.test(raw)) return {kind: 'split', first: '\u001B', rest: input};
	if (key.meta && !key.escape && input.length > 0) return {kind: 'drop'};
	// Ink strips the ESC of a sequence it cannot name (`ESC[12;1R`, a cursor report, arrives
	// as `[12;1R`): only a sequence Ink recognised as a key is one.
	if (raw.startsWith('\u001B') && !isNamedKey(key)) return {kind: 'drop'};
	const points = [...input];
	if (points.length <= 1) return {kind: 'key'};
	// Ink splits escape sequences into their own chunks; one that still holds ESC is foreign.
	if (input.includes('\u001B')) return {kind: 'drop'};
	if (textEntry) {
		// The field (ink-text-input) inserts the whole chunk itself; only a final Enter is ours.
		const body = points.slice(0, -1).join('');
		return points.at(-1) === '\r' && !hasControl(body) ? {kind: 'submit'} : {kind: 'drop'};
	}
	if (points.length > typeaheadLimit) return {kind: 'drop'};
	return {kind: 'split', first: points[0] ?? '', rest: points.slice(1).join('')};
}

const namedKeys = ['upArrow', 'downArrow', 'leftArrow', 'rightArrow', 'pageUp', 'pageDown', 'home', 'end', 'escape', 'tab', 'return', 'delete', 'backspace'] as const;

function isNamedKey(key: InkKey): boolean {
	const flags = key as Partial<Record<(typeof namedKeys)[number], boolean>>;
	return namedKeys.some((name) => flags[name]);
}

/**
 * ESC followed by `]`, `P`, `_`, `^` or `X` opens a string (OSC, DCS, APC, PM, SOS): a terminal
 * reply. Ink hands over the introducer and the payload as separate chunks of the same read, so
 * the payload would look like typed text: everything in the same burst is swallowed with it.
 */
export function opensControlString(raw: string): boolean {
	return /^\u001B[\]P_^X]$/.test(raw);
}

function hasControl(text: string): boolean {
	// eslint-disable-next-line no-control-regex
	return /[\u0000-\u001F\u007F-\u009F]/.test(text);
}

/** Kept for callers that only ask "is this one key?" (tests, the start form). */
export function isForeignInput(input: string, key: InkKey): boolean {
	return planChunk(input, key, false).kind !== 'key';
}

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

function dispatchOne(
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

/** Input held back until React has committed (and run the effects of) what the last key did. */
type Deferred = {input: string; startedIn: KeyContext | undefined};

/**
 * Install the single input listener. `stack` is read at key time, so it may change every render.
 * Keys typed ahead in one chunk are fed back one at a time through Ink's own input emitter, from
 * a passive effect of the component that calls this hook: React runs its descendants' effects
 * first, so a text field the previous key opened has subscribed to input by then, and every
 * listener sees the rest as if it had just been typed.
 */
export function useKeyDispatch(registry: KeyRegistry, stack: readonly KeyContext[], options: {isActive?: boolean} = {}): void {
	const stackRef = useRef(stack);
	stackRef.current = stack;
	const {internal_eventEmitter: emitter} = useStdin();
	// The raw chunk behind each useInput call (which loses the ESC of unknown sequences). A layout
	// effect subscribes before useInput's passive one, so this listener always runs first.
	const burst = useRef({raw: '', swallowing: false});
	useLayoutEffect(() => {
		const onRaw = (raw: string) => {
			const current = burst.current;
			current.raw = raw;
			if (opensControlString(raw) && !current.swallowing) {
				current.swallowing = true;
				setImmediate(() => {
					current.swallowing = false;
				});
			}
		};
		emitter.on('input', onRaw);
		return () => {
			emitter.off('input', onRaw);
		};
	}, [emitter]);

	const deferred = useRef<Deferred[]>([]);
	const [commits, setCommits] = useState(0);
	const defer = (input: string, startedIn: KeyContext | undefined) => {
		deferred.current.push({input, startedIn});
		setCommits((count) => count + 1);
	};

	useInput(
		(input, key) => {
			const current = stackRef.current;
			const lookup = (context: KeyContext, action: ActionName) => registry.handler(context, action);
			if (burst.current.swallowing) return;
			const plan = planChunk(input, key, isTextContext(current[0]), burst.current.raw);
			switch (plan.kind) {
				case 'key': {
					dispatchOne(current, input, key, lookup, keymap);
					break;
				}
				case 'submit': {
					// After the field has stored the text, or the Enter would submit the old value.
					defer('\r', current[0]);
					break;
				}
				case 'split': {
					emitter.emit('input', plan.first);
					defer(plan.rest, current[0]);
					break;
				}
				case 'drop': {
					break;
				}
			}
		},
		{isActive: options.isActive ?? true},
	);
	// Declared after useInput on purpose: effects run in order, and useInput re-subscribes its
	// listener in its own effect on every render; the flush must come after, or we miss our own.
	useEffect(() => {
		const queue = deferred.current;
		deferred.current = [];
		for (const item of queue) {
			// A question opened by a key typed ahead is answered only by a key typed after it
			// was seen: `py` in one chunk asks, it never pauses.
			if (stackRef.current[0] === 'confirm' && item.startedIn !== 'confirm') continue;
			emitter.emit('input', item.input);
		}
	}, [commits, emitter]);
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

import {createContext, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState} from 'react';
import {useInput, usePaste} from 'ink';
import {commitPendingRenders, useInkInputEmitter} from '../boundary/ink-input.js';
import {type ActionName, type Binding, findBinding, type InkKey, type KeyContext, keymap, keyMatches} from './keymap.js';
import {FrameHold} from './frame-hold.js';
import {type LineEdit, lineEditForKey} from './line-edit.js';

/**
 * The one place keys come in. The root calls `useKeyDispatch` with the stack of active contexts
 * (the open overlay or text field first, then the focused pane, then `global`, and `always`
 * last); components that own behaviour call `useKeyHandlers(context, handlers)`. A key is looked
 * up in the keymap table, context by context, and the first binding that has a handler runs.
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

const escapeKey = '\u001B';

/** More printable characters than this in one chunk is a paste, not keys typed ahead. */
export const typeaheadLimit = 8;

/**
 * What to do with one chunk of input, as Ink hands it over. Ink splits a read at escape
 * sequences but hands over a run of anything else as one string: over SSH two backspaces, or
 * `/status:error` and Enter, arrive in one read, and every key in it counts, in order.
 * - `key`: one key, dispatch it.
 * - `drop`: not typed by a person: a terminal's reply to a query (`ESC]11;rgb:…`, cursor
 *   reports), ESC plus punctuation or a string introducer.
 * - `hold`: more than `typeaheadLimit` characters at once outside a text field that are not keys
 *   typed ahead (typedAhead): an unbracketed paste, whose letters must not run as commands. None
 *   of it runs, and the dispatcher says so on screen (`onHeld`).
 * - `split`: several keys. The first is dispatched now and the rest after the screen has
 *   caught up, so each key meets the contexts its predecessor opened (a `/` opens the filter,
 *   and the text after it lands in the field).
 * - `text`: in a text field, the printable text at the front goes into the field at once (it
 *   opens and closes nothing); the rest (a backspace, an Enter, more text) follows.
 */
export type ChunkPlan =
	| {kind: 'key'}
	| {kind: 'drop'}
	| {kind: 'hold'; count: number}
	| {kind: 'split'; first: string; rest: string}
	| {kind: 'text'; text: string; rest: string};

export function planChunk(
	input: string,
	key: InkKey,
	textEntry: boolean,
	raw: string = input,
	opensTextLine: (first: string) => boolean = () => false,
): ChunkPlan {
	// Esc and the key typed right after it, read together (a slow link, a loaded machine): Ink
	// reports Alt+key. No binding uses Alt, and no terminal reply is ESC and a letter or digit
	// (but for the SS2/SS3/DCS/SOS introducers N, O, P, X), so it is Esc, then that key.
	if (key.meta && !key.escape && /^\u001B[a-zA-Z\d]$/.test(raw) && !/^\u001B[NOPX]$/.test(raw)) return {kind: 'split', first: escapeKey, rest: input};
	if (key.meta && !key.escape && input.length > 0) return {kind: 'drop'};
	// Ink strips the ESC of a sequence it cannot name (an incomplete one, flushed after a pause):
	// only a sequence Ink recognised as a key is one. Under the kitty keyboard protocol a key with
	// a modifier (ctrl-r, ctrl-u) arrives as `ESC[114;5u`: a key too.
	if (raw.startsWith('\u001B') && !isNamedKey(key) && !isKittyKey(raw)) return {kind: 'drop'};
	// A run Ink did not split: the raw read, so control keys in it (DEL, ctrl-u) are seen too.
	const run = raw.startsWith('\u001B') ? input : raw;
	const points = [...run];
	if (points.length <= 1) return {kind: 'key'};
	// Ink splits escape sequences into their own chunks; one that still holds ESC is foreign.
	if (run.includes('\u001B')) return {kind: 'drop'};
	if (textEntry) {
		const printable = /^[^\u0000-\u001F\u007F-\u009F]+/.exec(run)?.[0] ?? '';
		if (printable) return {kind: 'text', text: printable, rest: run.slice(printable.length)};
		return {kind: 'split', first: points[0] ?? '', rest: points.slice(1).join('')};
	}
	const first = points[0] ?? '';
	if (points.length > typeaheadLimit && !typedAhead(points, opensTextLine)) return {kind: 'hold', count: points.length};
	return {kind: 'split', first, rest: points.slice(1).join('')};
}

/**
 * Whether a chunk longer than `typeaheadLimit`, outside a text field, is keys a person typed: one
 * key repeated (auto-repeat over a slow link: `jjjjjjjjjj`), or a few keys and then one that opens
 * a text line (`g/status:error` typed fast: `g`, then the filter and its text). Anything else is
 * held back as a paste, and said on screen (`hold`).
 */
function typedAhead(points: readonly string[], opensTextLine: (first: string) => boolean): boolean {
	if (points.every((point) => point === points[0])) return true;
	const opener = points.findIndex((point) => opensTextLine(point));
	return opener !== -1 && opener <= typeaheadLimit;
}

/** The notice for a chunk held back as a paste: what happened to it, and how to type text. */
export function heldText(count: number): string {
	return `Held back ${count} characters that came at once (a paste?): none ran as keys. Paste into a field (/ opens the filter).`;
}

/** Keys that open a text line: a long chunk that starts with one is a fast typist, not a paste. */
export const textLineOpeners: readonly ActionName[] = ['filter', 'search'];

const namedKeys = ['upArrow', 'downArrow', 'leftArrow', 'rightArrow', 'pageUp', 'pageDown', 'home', 'end', 'escape', 'tab', 'return', 'delete', 'backspace'] as const;

/** A key in the kitty keyboard protocol's own form (CSI code;modifiers u), which Ink parses. */
function isKittyKey(raw: string): boolean {
	return /^\u001B\[\d+(?::\d*)*(?:;[\d:]*)*u$/.test(raw);
}

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

/**
 * Input held back until React has committed (and run the effects of) what the previous key did:
 * the rest of a chunk, a key or a paste read while earlier keys still wait their turn.
 */
type Deferred = {
	/** A raw chunk to feed back through Ink's input emitter, pasted text, or a parsed key. */
	input: string;
	paste?: true;
	/** Set for a chunk every listener has seen already: it is handled here, as parsed then. */
	key?: InkKey;
	raw?: string;
	/** The innermost context when it was read: a question is answered only by keys read after it was asked. */
	startedIn: KeyContext | undefined;
	/** The render that was the latest when it was queued: only a later render's commit may take it. */
	queuedAt: number;
	/** The rest of a chunk whose previous key went to a text field: meant for the field, dropped once it closed. */
	afterText?: true;
};

/**
 * Install the single input listener. `stack` is read at key time, so it may change every render.
 *
 * Every key of a chunk is handled, in order, each after the screen has caught up with the one
 * before it: keys that cannot be handled yet wait in a queue that is fed back one at a time
 * through Ink's own input emitter, from a passive effect of the component that calls this hook
 * (React runs its descendants' effects first, so a text field the previous key opened has
 * registered by then). Printable keys in a text context go to the focused field (useTextSink)
 * through the shared line editor, so ctrl-u, ctrl-w, ctrl-a/e work in every field. A bracketed
 * paste is text for the focused field and never keys.
 */
export type KeyDispatchOptions = {
	isActive?: boolean;
	/**
	 * Called with what a key's handling threw; the next key is handled as usual. Without it the
	 * exception goes on up (to Ink, which ends the app).
	 */
	onError?: (error: unknown) => void;
	/** Called when a chunk was held back as a paste (planChunk's `hold`): how many characters, none run. */
	onHeld?: (count: number) => void;
};

export function useKeyDispatch(registry: KeyRegistry, stack: readonly KeyContext[], options: KeyDispatchOptions = {}): void {
	const stackRef = useRef(stack);
	stackRef.current = stack;
	const emitter = useInkInputEmitter();
	const [, setCommits] = useState(0);
	const queue = useRef<Deferred[]>([]);
	/**
	 * Renders of this component, counted. A passive effect of an earlier commit can still be
	 * pending when a key is handled (React runs it just before the next render), and it must not
	 * take what that key queued: its stack is from before the key.
	 */
	const renders = useRef(0);
	const thisRender = ++renders.current;
	/**
	 * A key was handled and React has not committed what it did yet. Ink hands each chunk to
	 * useInput inside a batch that React commits when it ends, so a key read later always meets
	 * the screen its predecessor made; only keys taken from one chunk (or from the queue) must
	 * wait for the commit, which the flush below does.
	 */
	const dirty = useRef(false);
	/** Set while a held-back key is fed back: it is handled at once, not queued again. */
	const direct = useRef(false);
	const waitForCommit = () => setCommits((count) => count + 1);
	const onErrorRef = useRef(options.onError);
	onErrorRef.current = options.onError;
	const onHeldRef = useRef(options.onHeld);
	onHeldRef.current = options.onHeld;
	/** Runs one key's handling; what it throws is reported, and the keys after it still count. */
	const guarded = (work: () => void) => {
		try {
			work();
		} catch (error) {
			const report = onErrorRef.current;
			if (!report) throw error;
			report(error);
		}
	};

	// Each input event as Ink parsed it, before useInput sees it (useInput drops the ESC of a
	// sequence it cannot name). A layout effect subscribes before useInput's passive one, so this
	// listener always runs first.
	const burst = useRef({raw: '', swallowing: false});

	const deliverPaste = (text: string, held = false) => {
		// A frame held for the key before (frame-hold.ts) is drawn first: the paste's field may be on it.
		if (registry.frameHold.release()) commitPendingRenders();
		if (!held && queue.current.length > 0) {
			queue.current.push({input: text, paste: true, startedIn: stackRef.current[0], queuedAt: renders.current});
			waitForCommit();
			return;
		}
		// Pasted text is text: into the focused field, never a key anywhere else.
		if (!isTextContext(stackRef.current[0])) return;
		const edit = lineEditForKey(text, {});
		if (edit) registry.textSink()?.(edit);
		dirty.current = true;
	};
	useLayoutEffect(() => {
		const current = burst.current;
		const onRaw = (raw: string) => {
			// Every listener after this one (ours, ink-select-input's) meets the screen the
			// previous key made, of the same read or held back for its request (frame-hold.ts).
			registry.frameHold.release();
			commitPendingRenders();
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
	}, [emitter, registry]);

	const lookup = (context: KeyContext, action: ActionName) => registry.handler(context, action);
	const opensTextLine = (first: string) => {
		const binding = findBinding(stackRef.current, first, /^[A-Z]$/.test(first) ? {shift: true} : {});
		return binding !== undefined && textLineOpeners.includes(binding.action);
	};

	/** One chunk as Ink parsed it; `held` when it comes out of the queue (it is handled now). */
	const handle = (input: string, key: InkKey, raw: string, held: boolean) => {
		const current = stackRef.current;
		const textEntry = isTextContext(current[0]);
		const plan = planChunk(input, key, textEntry, raw, opensTextLine);
		if (plan.kind === 'drop') return;
		if (plan.kind === 'hold') {
			onHeldRef.current?.(plan.count);
			return;
		}
		if (!held && queue.current.length > 0) {
			// Behind the rest of an earlier chunk. Every listener has seen it already: kept
			// parsed, handled here in its turn, not re-emitted.
			queue.current.push({input, key, raw, startedIn: current[0], queuedAt: renders.current});
			waitForCommit();
			return;
		}
		switch (plan.kind) {
			case 'key': {
				// A key read on its own may hold its frame for the request it starts; one fed back
				// from a longer read may not (the next key is handled against this one's commit).
				registry.frameHold.allowed = !held;
				let binding: Binding | undefined;
				try {
					binding = dispatchOne(current, input, key, lookup, keymap);
				} finally {
					registry.frameHold.allowed = false;
				}
				if (!binding && textEntry) {
					const edit = lineEditForKey(input, key, raw);
					if (edit) registry.textSink()?.(edit);
				}
				dirty.current = true;
				break;
			}
			case 'text': {
				registry.textSink()?.({type: 'insert', text: plan.text});
				dirty.current = true;
				if (plan.rest) {
					queue.current.unshift({input: plan.rest, startedIn: current[0], afterText: true, queuedAt: renders.current});
					waitForCommit();
				}
				break;
			}
			case 'split': {
				// The keys of a chunk no listener has seen one by one: fed back through Ink's
				// emitter, so each is parsed as a key (and seen by every listener) in turn.
				const wasDirect = direct.current;
				direct.current = true;
				try {
					emitter.emit('input', plan.first);
				} finally {
					direct.current = wasDirect;
				}
				// What follows a key typed into a field is meant for the field, unless that key is Esc
				// (it closes the field: Esc then q, read together, quits), or Enter followed by more
				// Enters only: `/text⏎⏎` typed fast applies the filter, then opens the row (the second
				// Enter was dropped as the field's; printable text after an Enter is still the
				// field's, a pasted line's rest, never keys for the list).
				const forField = textEntry && plan.first !== escapeKey && !(plan.first === '\r' && /^\r+$/.test(plan.rest));
				queue.current.unshift({input: plan.rest, startedIn: current[0], queuedAt: renders.current, ...(forField ? {afterText: true as const} : {})});
				dirty.current = true;
				waitForCommit();
				break;
			}
		}
	};

	useInput(
		(input, key) => {
			if (burst.current.swallowing) return;
			guarded(() => handle(input, key, burst.current.raw, direct.current));
		},
		{isActive: options.isActive ?? true},
	);
	// A bracketed paste (Ink turns the mode on while this hook is active and hands the pasted
	// text over whole): text for the focused field, never keys.
	usePaste((text) => guarded(() => deliverPaste(text)), {isActive: options.isActive ?? true});
	// Runs after every commit, when the screen has caught up with the key before: the next held
	// key goes in then. Declared after useInput so that, on the first mount, useInput's listener
	// is subscribed before anything is fed back.
	useEffect(() => {
		dirty.current = false;
		while (!dirty.current && queue.current.length > 0) {
			// Queued after this render began: the commit it waits for is a later one.
			if (queue.current[0]!.queuedAt >= thisRender) break;
			const item = queue.current.shift()!;
			const now = stackRef.current[0];
			// A question opened by a key typed ahead is answered only by a key typed after it
			// was seen: `py` in one chunk asks, it never pauses.
			if (now === 'confirm' && item.startedIn !== 'confirm') continue;
			// The rest of what was typed into a field that has closed (Enter in the middle of a
			// pasted text): it was meant for the field, not for the list under it.
			if (item.afterText && !isTextContext(now)) continue;
			if (item.paste) {
				guarded(() => deliverPaste(item.input, true));
				continue;
			}
			if (item.key) {
				const {key} = item;
				guarded(() => handle(item.input, key, item.raw ?? item.input, true));
				continue;
			}
			direct.current = true;
			try {
				guarded(() => emitter.emit('input', item.input));
			} finally {
				direct.current = false;
			}
		}
		if (queue.current.length > 0) waitForCommit();
	});
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

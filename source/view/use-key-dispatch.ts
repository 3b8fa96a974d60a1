import {useEffect, useLayoutEffect, useRef, useState} from 'react';
import {useInput, usePaste} from 'ink';
import {commitPendingRenders, useInkInputEmitter} from '../boundary/ink-input.js';
import {escapeKey, opensControlString, planChunk, textLineOpeners} from './key-chunks.js';
import type {KeyRegistry} from './key-registry.js';
import {dispatchOne, isTextContext} from './key-route.js';
import {type ActionName, type Binding, findBinding, type InkKey, type KeyContext, keymap} from './keymap.js';
import {lineEditForKey} from './line-edit.js';

// The names the components import from here since before the split (key-registry.ts,
// key-chunks.ts hold them now): kept so that two dozen component files (Dashboard.tsx
// among them, which every helper edits) need no edit.
export {heldText} from './key-chunks.js';
export {KeyRegistry, KeyRegistryContext, useKeyHandlers, useKeyRegistry} from './key-registry.js';

/**
 * The one place keys come in. The root calls `useKeyDispatch` with the stack of active contexts
 * (the open overlay or text field first, then the focused pane, then `global`, and `always`
 * last); components that own behaviour call `useKeyHandlers(context, handlers)`. A key is looked
 * up in the keymap table, context by context, and the first binding that has a handler runs.
 *
 * Parts: who handles a key (key-registry.ts), what a chunk of input is (key-chunks.ts), which
 * binding a key runs (key-route.ts); this file is the listener that puts them together.
 */

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

import type {EventEmitter} from 'node:events';
import {useStdin} from 'ink';
// Not in Ink's exports map: the reconciler Ink renders with (the same module in the bundle).
import reconciler from '../../node_modules/ink/build/reconciler.js';

/**
 * Ink's input emitter (ink 8.0.0, build/components/App.js). Ink parses each read of stdin into
 * keys and runs of text and emits every one as an 'input' event of a string; `useInput` handlers
 * listen there, in the order they subscribed. The key dispatcher (view/use-key-dispatch.ts) needs
 * two things no public hook gives it: the event as Ink parsed it (useInput drops the ESC of an
 * unnamed sequence), and a way to hand the keys of one read back to Ink one at a time, each
 * parsed as a key and seen by every listener. `useStdin()` returns the whole context, emitter
 * included; only its type leaves the emitter out.
 */
export function useInkInputEmitter(): EventEmitter {
	const context = useStdin() as unknown as {internal_eventEmitter?: EventEmitter};
	const emitter = context.internal_eventEmitter;
	if (!emitter) throw new Error("Ink's useStdin() no longer carries its input emitter: see source/boundary/index.ts");
	return emitter;
}

/**
 * Commits now what the keys handled so far asked React to render (Ink's reconciler,
 * `flushSyncWork`). Ink 8 parses one read into several input events and emits them in one
 * synchronous loop; React 19 commits a key's updates in a microtask, after the loop, so without
 * this every key of a read (Down Down Down) meets the screen as it was before the first, and a
 * component that computes its next state from what it rendered (ink-select-input) moves one row
 * for three. The key dispatcher calls this first for every event, so each key meets the screen its
 * predecessor made, as a key read on its own does. Inside a render or commit it does nothing.
 */
export function commitPendingRenders(): void {
	reconciler.flushSyncWork();
}

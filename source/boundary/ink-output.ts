// Not in Ink's exports map: a relative path reaches the very module Ink's renderer imports (the
// same file, so the same class, in the tests and in the esbuild bundle alike).
import Output from '../../node_modules/ink/build/output.js';

/**
 * Ink's `Output` class (ink 8.0.0, build/output.js, not exported): what an instance holds when its
 * `get()` turns a frame's text operations into lines, and the one place its `get` is replaced.
 * The replacement, the same algorithm with caches that outlive a frame, is ours:
 * terminal/cached-output.ts.
 */

export type Clip = {x1: number | undefined; x2: number | undefined; y1: number | undefined; y2: number | undefined};
export type Transformer = (line: string, index: number) => string;
export type Operation = {type: 'write'; x: number; y: number; text: string; transformers: Transformer[]} | {type: 'clip'; clip: Clip} | {type: 'unclip'};
/** The fields of an Output instance that `get()` reads. */
export type OutputInternals = {width: number; height: number; operations: Operation[]};
export type OutputGet = (this: OutputInternals) => {output: string; height: number};

/** Ink's own `get`, kept for the equivalence test. */
export const inkGet = Output.prototype.get;

/** Puts `get` in place of Ink's `Output.prototype.get`. */
export function replaceOutputGet(get: OutputGet): void {
	(Output.prototype as unknown as {get: OutputGet}).get = get;
}

export {Output};

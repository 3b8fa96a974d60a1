/**
 * How many characters a piece of pure code reads through the String and RegExp methods, counted
 * while it runs: the work it does, in units that do not depend on the machine's speed. A test of
 * "reads a bounded prefix" or "linear, not quadratic" counts this instead of timing the call (a
 * timed limit fails on a loaded machine; how fast it is belongs to the bench).
 *
 * Each call is charged what it scans: `indexOf` from its start to the match, `slice` its result,
 * a regular expression from `lastIndex` to the end of its match (or of the text), and a method
 * that walks the whole string (`trim`, `split` by a string, `toLowerCase`, …) its length.
 * Methods given a RegExp are charged through the RegExp's own `exec`, so nothing is charged
 * twice. Code that reads characters by index (`text[i]`) is not seen: count what it calls.
 */

type Charge = (text: string, args: readonly unknown[], result: unknown) => number;

const whole: Charge = (text) => text.length;
const one: Charge = () => 1;
const sliced: Charge = (_text, _args, result) => (typeof result === 'string' ? result.length : 0);
/** By a string: the whole text; by a RegExp: charged in exec. */
const byPattern: Charge = (text, args) => (args[0] instanceof RegExp ? 0 : text.length);
const index: Charge = (text, args, result) => {
	const from = Math.max(0, Math.min(text.length, Number(args[1] ?? 0) || 0));
	const found = typeof result === 'number' ? result : -1;
	return found === -1 ? text.length - from : found + String(args[0]).length - from;
};
const fixed: Charge = (_text, args) => String(args[0]).length;

const stringCharges: Record<string, Charge> = {
	indexOf: index,
	includes: (text, args) => text.length - Math.max(0, Number(args[1] ?? 0) || 0),
	lastIndexOf: whole,
	startsWith: fixed,
	endsWith: fixed,
	slice: sliced,
	substring: sliced,
	substr: sliced,
	at: one,
	charAt: one,
	charCodeAt: one,
	codePointAt: one,
	trim: whole,
	trimStart: whole,
	trimEnd: whole,
	toLowerCase: whole,
	toUpperCase: whole,
	normalize: whole,
	padStart: whole,
	padEnd: whole,
	repeat: sliced,
	concat: sliced,
	localeCompare: whole,
	isWellFormed: whole,
	toWellFormed: whole,
	split: byPattern,
	replace: byPattern,
	replaceAll: byPattern,
	match: byPattern,
	matchAll: byPattern,
	search: byPattern,
};

export type StringWork<T> = {result: T; characters: number; calls: number};

export function stringWork<T>(run: () => T): StringWork<T> {
	let characters = 0;
	let calls = 0;
	const restore: Array<() => void> = [];
	const patch = <O extends object>(target: O, name: PropertyKey, charge: (self: never, args: readonly unknown[], result: unknown) => number) => {
		const original = (target as Record<PropertyKey, unknown>)[name];
		if (typeof original !== 'function') return;
		const counted = function (this: unknown, ...args: unknown[]): unknown {
			const result: unknown = Reflect.apply(original, this, args);
			calls++;
			characters += charge(this as never, args, result);
			return result;
		};
		Object.defineProperty(target, name, {value: counted, writable: true, configurable: true});
		restore.push(() => Object.defineProperty(target, name, {value: original, writable: true, configurable: true}));
	};
	for (const [name, charge] of Object.entries(stringCharges)) patch(String.prototype, name, (self: string, args, result) => charge(String(self), args, result));
	patch(String.prototype, Symbol.iterator, (self: string) => String(self).length);
	// A RegExp scans from lastIndex (0 unless global or sticky) to the end of its match, or of the text.
	let lastIndex = 0;
	const exec = RegExp.prototype.exec;
	const execCharged = function (this: RegExp, text: unknown): RegExpExecArray | null {
		const input = String(text);
		const from = this.global || this.sticky ? this.lastIndex : 0;
		const match = exec.call(this, input);
		calls++;
		characters += match ? match.index + match[0].length - from : input.length - from;
		lastIndex = this.lastIndex;
		return match;
	};
	Object.defineProperty(RegExp.prototype, 'exec', {value: execCharged, writable: true, configurable: true});
	restore.push(() => Object.defineProperty(RegExp.prototype, 'exec', {value: exec, writable: true, configurable: true}));
	// test() goes through exec (the spec's RegExpExec calls a replaced exec), so it needs no charge of its own.
	void lastIndex;
	const segment = Intl.Segmenter.prototype.segment;
	Object.defineProperty(Intl.Segmenter.prototype, 'segment', {
		value: function (this: Intl.Segmenter, text: string) {
			calls++;
			characters += String(text).length;
			return segment.call(this, text);
		},
		writable: true,
		configurable: true,
	});
	restore.push(() => Object.defineProperty(Intl.Segmenter.prototype, 'segment', {value: segment, writable: true, configurable: true}));
	try {
		return {result: run(), characters, calls};
	} finally {
		for (const undo of restore.reverse()) undo();
	}
}

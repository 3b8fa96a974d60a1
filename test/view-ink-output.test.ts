import assert from 'node:assert/strict';
import {test} from 'node:test';
import {Chalk} from 'chalk';
import fc from 'fast-check';
import {inkGet, Output} from '../source/boundary/ink-output.js';
import {fastGet} from '../source/terminal/cached-output.js';
import {installRenderSpeedups} from '../source/terminal/render-speedups.js';

/** The cached line builder must write exactly what Ink's own would, frame after frame. */

const styles = ['', '\u001B[1m', '\u001B[2m', '\u001B[7m', '\u001B[31m', '\u001B[32m', '\u001B[38;5;208m', '\u001B[44m', '\u001B[1m\u001B[33m'];
const resets = ['', '\u001B[22m', '\u001B[39m', '\u001B[0m', '\u001B[27m', '\u001B[49m'];
const pieces = ['a', 'bc', ' ', 'status', '漢字', '│', '…', '✓', '👍', 'x\u0301', '', '👩\u200D💻', '👍🏽', '\u200B', '❤\uFE0F', 'ｶﾞ'];

const styledText = fc
	.array(fc.tuple(fc.constantFrom(...styles), fc.constantFrom(...pieces), fc.constantFrom(...resets)), {maxLength: 8})
	.map((parts) => parts.map(([open, text, close]) => open + text + close).join(''));

const chalk = new Chalk({level: 3});

/** Lines as nested Text writes them: chalk's balanced pairs, sometimes nested. */
const chalked = fc
	.array(fc.tuple(fc.constantFrom('bold', 'dim', 'red', 'bgBlue', 'inverse', 'italic', 'plain'), fc.constantFrom(...pieces), fc.boolean()), {maxLength: 6})
	.map((parts) =>
		parts
			.map(([style, text, nest]) => {
				const styled = style === 'plain' ? text : chalk[style as 'bold'](text);
				return nest ? chalk.underline(`${styled}x`) : styled;
			})
			.join(''),
	);

const block = fc.array(fc.oneof(styledText, chalked), {minLength: 1, maxLength: 4}).map((lines) => lines.join('\n'));

/**
 * Transformers as Ink's Text makes them (chalk wrappers for color, dimColor, bold, inverse …),
 * plus one that is not escape-aware and one that numbers the lines, as a `transform` prop could.
 */
const transformers: Record<string, (line: string, index: number) => string> = {
	none: (line) => line,
	bold: (line) => chalk.bold(line),
	dimRed: (line) => chalk.red(chalk.dim(line)),
	inverse: (line) => chalk.inverse(line),
	background: (line) => chalk.bgBlue(line),
	hex: (line) => chalk.hex('#ff8800')(line),
	upper: (line) => line.toUpperCase(),
	// As Ink's <Transform> can: the line's index within the write, after the clip.
	numbered: (line, index) => `${index}:${line}`,
};

const operation = fc.oneof(
	{weight: 5, arbitrary: fc.record({type: fc.constant('write' as const), x: fc.integer({min: -3, max: 45}), y: fc.integer({min: -3, max: 12}), text: block, transform: fc.constantFrom(...Object.keys(transformers))})},
	{
		weight: 1,
		arbitrary: fc.record({
			type: fc.constant('clip' as const),
			x1: fc.option(fc.integer({min: 0, max: 20}), {nil: undefined}),
			x2: fc.option(fc.integer({min: 0, max: 40}), {nil: undefined}),
			y1: fc.option(fc.integer({min: 0, max: 5}), {nil: undefined}),
			y2: fc.option(fc.integer({min: 0, max: 10}), {nil: undefined}),
		}),
	},
	{weight: 1, arbitrary: fc.constant({type: 'unclip' as const})},
);

type Op = {type: 'write'; x: number; y: number; text: string; transform: string} | {type: 'clip'; x1?: number; x2?: number; y1?: number; y2?: number} | {type: 'unclip'};

function build(ops: Op[], width: number, height: number): Output {
	const output = new Output({width, height});
	for (const op of ops) {
		if (op.type === 'write') output.write(op.x, op.y, op.text, {transformers: op.transform === 'none' ? [] : [transformers[op.transform]!]});
		else if (op.type === 'clip') output.clip({x1: op.x1, x2: op.x2, y1: op.y1, y2: op.y2});
		else output.unclip();
	}
	return output;
}

test('the cached Output.get writes what Ink 8 writes, on random frames with styles, wide characters, clips and transformers', () => {
	fc.assert(
		fc.property(fc.array(operation, {maxLength: 25}), fc.integer({min: 1, max: 40}), fc.integer({min: 1, max: 10}), (ops, width, height) => {
			const expected = inkGet.call(build(ops as Op[], width, height));
			// Twice: the second run is served from the caches the first filled.
			assert.deepEqual(fastGet.call(build(ops as Op[], width, height) as never), expected);
			assert.deepEqual(fastGet.call(build(ops as Op[], width, height) as never), expected);
		}),
		{numRuns: 1500},
	);
});

test('installRenderSpeedups puts the cached get in place, and nothing else does', async () => {
	// Importing the dashboard changes nothing: the patches are installed by a call, not on import.
	await import('../source/view/Dashboard.js');
	assert.equal(Output.prototype.get, inkGet);
	installRenderSpeedups();
	assert.equal(Output.prototype.get, fastGet);
});

test('a row written past the screen edge depends on the width: the cache keeps them apart', () => {
	const ops: Op[] = [{type: 'write', x: 5, y: 0, text: 'ab', transform: 'none'}];
	for (const width of [3, 10, 3]) {
		assert.deepEqual(fastGet.call(build(ops, width, 1) as never), inkGet.call(build(ops, width, 1)));
	}
});

import {test} from 'node:test';
import assert from 'node:assert/strict';
import {fileURLToPath} from 'node:url';
import {drawsLive, inkScreenOptions, inkTerminalScreen} from '../source/terminal/terminal-screen.js';
import {runNode} from './helpers/run-process.js';

/** Ink 8 owns the terminal's modes; ours is the fallback when Ink cannot unmount, and the one decision whether frames are live. */

const root = fileURLToPath(new URL('..', import.meta.url));

test('a terminal on stdout draws live, whatever CI says; Ink is told so rather than left to its own test', () => {
	assert.equal(drawsLive({isTTY: true}), true);
	assert.equal(drawsLive({isTTY: false}), false);
	assert.equal(drawsLive({}), false);
	assert.deepEqual(inkScreenOptions(true), {interactive: true, alternateScreen: true, kittyKeyboard: {mode: 'auto'}});
	assert.deepEqual(inkScreenOptions(false), {interactive: false, alternateScreen: false});
});

// Ink reads CI once, when it loads (is-in-ci), and then draws nothing until it unmounts: only the
// `interactive` option overrides it. So a process with CI set renders to a terminal-like stdout.
const renderInCi = `
import {Writable} from 'node:stream';
import {createElement} from 'react';
import {render, Text} from 'ink';
import {inkScreenOptions} from './source/terminal/terminal-screen.ts';
let written = '';
const stdout = Object.assign(new Writable({write(chunk, _encoding, done) { written += chunk.toString(); done(); }}), {isTTY: true, columns: 40, rows: 10});
const instance = render(createElement(Text, null, 'frame-text'), {stdout, patchConsole: false, exitOnCtrlC: false, ...(process.argv.includes('--live') ? inkScreenOptions(true) : {})});
await instance.waitUntilRenderFlush();
const beforeUnmount = written.includes('frame-text');
instance.unmount();
await instance.waitUntilExit();
console.log(JSON.stringify({beforeUnmount, afterUnmount: written.includes('frame-text'), alternateScreen: written.includes('\u001B[?1049h')}));
`;

test('with CI set, the live options draw the frame at once on the alternate screen; without them Ink writes it only at unmount', async () => {
	const run = async (live: boolean) => {
		const args = ['--import', 'tsx', '--input-type=module', '-e', renderInCi, ...(live ? ['--', '--live'] : [])];
		const result = await runNode(args, {cwd: root, env: {...process.env, CI: 'true'}, timeoutMs: 30_000});
		assert.equal(result.code, 0, result.stderr);
		return JSON.parse(result.stdout.trim().split('\n').at(-1)!) as {beforeUnmount: boolean; afterUnmount: boolean; alternateScreen: boolean};
	};
	assert.deepEqual(await run(true), {beforeUnmount: true, afterUnmount: true, alternateScreen: true});
	assert.deepEqual(await run(false), {beforeUnmount: false, afterUnmount: true, alternateScreen: false}, 'Ink in CI on its own: nothing live, the frame at unmount');
});

test("the screen is given back by Ink's unmount; by hand only when that throws, and once", () => {
	const written: string[] = [];
	const stdout = {isTTY: true, write: (chunk: string) => written.push(chunk)};
	let leaves = 0;
	const screen = inkTerminalScreen(stdout, () => leaves++);
	assert.equal(screen.active, true);
	screen.restore();
	screen.restore();
	assert.equal(leaves, 1);
	assert.deepEqual(written, [], 'Ink restored it: nothing written by hand');

	const broken = inkTerminalScreen(stdout, () => {
		throw new Error('Ink is gone');
	});
	broken.restore();
	broken.restore();
	assert.deepEqual(written, ['\u001B[<u\u001B[?2004l\u001B[?1049l\u001B[?25h'], 'keyboard mode popped, paste off, normal screen, cursor shown, once');
	assert.equal(inkTerminalScreen({isTTY: false, write: () => true}, () => undefined).active, false);
});
